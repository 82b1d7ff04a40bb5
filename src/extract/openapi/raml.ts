// RAML 0.8 and 1.0 API definitions (`#%RAML 1.0` on the first line): every
// method of every resource (`/users:` and the resources nested in it) is a
// server port under the path of `baseUri` (`{version}` filled in). A
// resource's `type` adds the methods of that resource type, written inline
// under `resourceTypes` or in a file brought in with `!include`. Fragments
// (libraries, traits, extensions, overlays) are no API of their own.
import type { Document, YAMLMap } from "yaml";
import { isMap, isScalar, LineCounter, parseDocument } from "yaml";
import type { ExtractDiagnostic, SourceFile } from "../extractor.ts";
import { CONFIDENCE } from "../_value/mod.ts";
import type { ExtractedPort } from "../types.ts";
import { HTTP_VERBS, httpPort } from "../_port/http.ts";

/** Resources nested deeper than this are not read (a bound on hostile input). */
const MAX_DEPTH = 32;

/** `!include file` kept as the file's name, for the reader to follow. */
const INCLUDE_TAG = {
  tag: "!include",
  resolve: (value: string) => ({ include: value.trim() }),
};

/** Whether a file is a RAML API definition (not a fragment). */
export function isRamlApi(text: string): boolean {
  return /^#%RAML (?:0\.8|1\.0)[ \t]*\r?\n/.test(text);
}

function parse(text: string, lines?: LineCounter): Document {
  return parseDocument(text, {
    customTags: [INCLUDE_TAG],
    prettyErrors: false,
    uniqueKeys: false,
    ...(lines ? { lineCounter: lines } : {}),
  });
}

/** The folder-relative target of an `!include` from `from`. */
function includePath(from: string, target: string): string {
  const out = from.split("/").slice(0, -1);
  for (const part of target.split("/")) {
    if (part === "..") out.pop();
    else if (part !== "." && part !== "") out.push(part);
  }
  return out.join("/");
}

/** Reads the server ports of one RAML API definition. */
export function ramlPorts(
  file: SourceFile,
  files: ReadonlyMap<string, string>,
  ports: ExtractedPort[],
  diagnostics: ExtractDiagnostic[],
): void {
  const lines = new LineCounter();
  const doc = parse(file.text, lines);
  if (doc.errors.length > 0) {
    const at = lines.linePos(doc.errors[0]!.pos[0]);
    diagnostics.push({
      filePath: file.path,
      severity: "error",
      message: `Cannot parse: ${doc.errors[0]!.code} at ${at.line}:${at.col}`,
    });
    return;
  }
  const root = doc.contents;
  if (!isMap(root)) return;
  const version = text(root.get("version"));
  const base = basePath(root.get("baseUri"), version);
  const types = root.get("resourceTypes");
  /** The methods a resource type gives, by type name (each type read once). */
  const typeCache = new Map<string, string[]>();
  const typeMethods = (name: string): string[] => {
    const known = typeCache.get(name);
    if (known !== undefined) return known;
    let node: unknown = isMap(types) ? types.get(name) : undefined;
    const include = (node as { include?: string } | undefined)?.include;
    if (include !== undefined) {
      const included = files.get(includePath(file.path, include));
      node = included === undefined ? undefined : parse(included).contents;
    }
    const methods = isMap(node)
      ? node.items.map((item) => text(item.key)?.toLowerCase() ?? "")
        .filter((key) => HTTP_VERBS.has(key))
      : [];
    typeCache.set(name, methods);
    return methods;
  };
  const visit = (map: YAMLMap, prefix: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    for (const item of map.items) {
      const key = text(item.key);
      if (key === undefined || !key.startsWith("/") || !isMap(item.value)) {
        continue;
      }
      const path = prefix + key;
      const resource = item.value;
      const methods = new Map<string, number>();
      const typeName = text(resource.get("type"));
      for (const method of typeName ? typeMethods(typeName) : []) {
        methods.set(method, (item.key as { range?: number[] }).range?.[0] ?? 0);
      }
      for (const entry of resource.items) {
        const method = text(entry.key)?.toLowerCase() ?? "";
        if (HTTP_VERBS.has(method)) {
          methods.set(
            method,
            (entry.key as { range?: number[] }).range?.[0] ?? 0,
          );
        }
      }
      for (const [method, offset] of methods) {
        const line = lines.linePos(offset).line;
        const port = httpPort({
          role: "server",
          method: method.toUpperCase(),
          path: base + path,
          node: { startPosition: { row: line - 1, column: 0 } },
          owner: {
            kind: "function",
            name: `${method.toUpperCase()} ${path}`,
            qualifiedName: `${file.path}::${method.toUpperCase()} ${path}`,
            filePath: file.path,
          },
          filePath: file.path,
          confidence: base === "" ? CONFIDENCE.literal : CONFIDENCE.composed,
          framework: "raml",
        }, (error) =>
          diagnostics.push({
            filePath: file.path,
            severity: "warning",
            message: `Cannot normalize path "${base + path}": ${error.message}`,
          }));
        if (port) ports.push(port);
      }
      visit(resource, path, depth + 1);
    }
  };
  visit(root, "", 0);
}

function text(node: unknown): string | undefined {
  const value = isScalar(node) ? node.value : node;
  return typeof value === "string" || typeof value === "number"
    ? String(value)
    : undefined;
}

/** The path of `baseUri` (a string or `{ value }`), `{version}` filled in. */
function basePath(node: unknown, version: string | undefined): string {
  const uri = isMap(node) ? text(node.get("value")) : text(node);
  if (uri === undefined) return "";
  const filled = version === undefined
    ? uri
    : uri.replaceAll("{version}", version);
  const origin = /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/]*/i.exec(filled);
  const path = origin ? filled.slice(origin[0].length) : filled;
  return path.replace(/[?#].*$/, "").replace(/\/+$/, "");
}
