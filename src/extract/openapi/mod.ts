// OpenAPI 3 and Swagger 2 documents (JSON or YAML): every operation is a
// server port, under the servers' base path (OpenAPI 3) or `basePath`
// (Swagger 2). RAML definitions are read by `raml.ts`.
import type { YAMLMap } from "yaml";
import { isMap, isScalar, LineCounter, parseDocument } from "yaml";
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import { httpBoundaryKey } from "../../boundary/http_path.ts";
import { CONFIDENCE } from "../_value/mod.ts";
import type { ExtractedPort, SourceSpan } from "../types.ts";
import { parseFailure } from "../_syntax/passes.ts";
import { OPERATION_METHODS } from "../../map/_openapi_methods.ts";
import { isRamlApi, ramlPorts } from "./raml.ts";

/**
 * The most distinct base paths one `servers` list contributes. Real documents
 * list a handful; the cap keeps operations x servers bounded on a hostile one.
 */
const MAX_SERVER_BASES = 16;

/** The `openapi` or `swagger` key; where it stands is checked after. */
const MARKER_KEY = /["']?(?:openapi|swagger)["']?[ \t]*:/g;

/**
 * A cheap test before parsing: an `openapi` or `swagger` key at the start of
 * a line (YAML, pretty JSON) or right after `{` or `,` (minified JSON). One
 * pass over the text: no pattern here backtracks over its length.
 */
function looksLikeApiDocument(text: string): boolean {
  MARKER_KEY.lastIndex = 0;
  for (let match; (match = MARKER_KEY.exec(text)) !== null;) {
    let i = match.index - 1;
    // Indentation before the key; bounded so that many keys each after a
    // long run of blanks stay linear.
    const stop = Math.max(-1, i - 256);
    while (i > stop && (text[i] === " " || text[i] === "\t")) i--;
    const before = i < 0 ? "\n" : text[i];
    if (
      before === "\n" || before === "\r" || before === "{" || before === ","
    ) {
      return true;
    }
  }
  return false;
}

/**
 * Extracts server ports from OpenAPI 3 and Swagger 2 documents in JSON or
 * YAML: one port per operation, the path composed with the base path of
 * the document's (or the path's, or the operation's) `servers`, or with
 * Swagger's `basePath`; and from RAML 0.8/1.0 API definitions (`.raml`
 * or YAML files starting with `#%RAML`). Other JSON and YAML files are
 * ignored.
 *
 * @example
 * ```ts
 * import { openapiExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const { ports } = await openapiExtractor.extract([{
 *   path: "openapi.yaml",
 *   text: [
 *     "openapi: 3.0.3",
 *     "servers:",
 *     "  - url: https://api.example.com/v1",
 *     "paths:",
 *     "  /pets/{petId}:",
 *     "    get:",
 *     "      operationId: showPetById",
 *   ].join("\n"),
 * }]);
 * assert.equal(ports[0]?.ref.key, "GET /v1/pets/{}");
 * assert.equal(ports[0]?.ref.line, 6);
 * ```
 */
export const openapiExtractor: LanguageExtractor = {
  name: "openapi",
  accepts(path: string): boolean {
    return /\.(?:json|ya?ml|raml)$/i.test(path) &&
      !/(?:^|\/)package(?:-lock)?\.json$/.test(path);
  },
  extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const ports: ExtractedPort[] = [];
    const diagnostics: ExtractDiagnostic[] = [];
    let texts: Map<string, string> | undefined;
    for (const file of files) {
      try {
        if (isRamlApi(file.text)) {
          texts ??= new Map(files.map((f) => [f.path, f.text]));
          ramlPorts(file, texts, ports, diagnostics);
          continue;
        }
        if (!looksLikeApiDocument(file.text)) continue;
        extractDocument(file, ports, diagnostics);
      } catch (error) {
        diagnostics.push(parseFailure(file.path, error));
      }
    }
    return Promise.resolve({ ports, diagnostics });
  },
};

function extractDocument(
  file: SourceFile,
  ports: ExtractedPort[],
  diagnostics: ExtractDiagnostic[],
): void {
  let lineCounter = new LineCounter();
  const parse = (text: string) =>
    parseDocument(text, {
      lineCounter,
      prettyErrors: false,
      uniqueKeys: false,
    });
  let doc = parse(file.text);
  if (doc.errors.length > 0 && /^[ \t]+$/m.test(file.text)) {
    // a blank line holding a tab inside a block scalar is an error to the
    // YAML spec that most parsers forgive: retry with blank lines emptied
    // (same line numbers)
    lineCounter = new LineCounter();
    const retry = parse(file.text.replace(/^[ \t]+$/gm, ""));
    if (retry.errors.length === 0) doc = retry;
  }
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    const at = lineCounter.linePos(error.pos[0]);
    diagnostics.push({
      filePath: file.path,
      severity: "error",
      message: `Cannot parse: ${error.code} at ${at.line}:${at.col}`,
    });
    return;
  }
  const root = doc.contents;
  if (!isMap(root)) return;
  const version = scalar(root, "openapi") ?? scalar(root, "swagger");
  if (version === undefined) return;
  const swagger = scalar(root, "swagger") !== undefined;
  let cut = 0;
  const serverBases = (servers: unknown, fallback?: string[]): string[] => {
    const bases = distinctBases(servers, fallback);
    if (bases.length <= MAX_SERVER_BASES) return bases;
    cut = Math.max(cut, bases.length);
    return bases.slice(0, MAX_SERVER_BASES);
  };
  const rootBases = swagger
    ? [scalar(root, "basePath") ?? ""]
    : serverBases(root.get("servers"));
  const paths = root.get("paths");
  if (!isMap(paths)) return;
  for (const pathItem of paths.items) {
    const rawPath = isScalar(pathItem.key) ? String(pathItem.key.value) : "";
    const item = resolveRef(root, pathItem.value);
    if (!rawPath.startsWith("/") || !isMap(item)) continue;
    const pathBases = swagger
      ? rootBases
      : serverBases(item.get("servers"), rootBases);
    for (const operation of item.items) {
      const method = isScalar(operation.key) ? String(operation.key.value) : "";
      if (!OPERATION_METHODS.has(method)) continue;
      const op = operation.value;
      const bases = !swagger && isMap(op)
        ? serverBases(op.get("servers"), pathBases)
        : pathBases;
      const keyRange = isScalar(operation.key)
        ? operation.key.range
        : undefined;
      const start = lineCounter.linePos(keyRange?.[0] ?? 0);
      const opRange = isMap(op) ? op.range : undefined;
      const end = lineCounter.linePos(opRange?.[1] ?? keyRange?.[1] ?? 0);
      const span: SourceSpan = {
        startLine: start.line,
        startCol: start.col,
        endLine: end.line,
        endCol: end.col,
      };
      const operationId = isMap(op) ? scalar(op, "operationId") : undefined;
      const name = operationId ?? `${method.toUpperCase()} ${rawPath}`;
      for (const base of bases) {
        const path = joinBase(base, rawPath);
        let key: string;
        try {
          key = httpBoundaryKey(method, path);
        } catch (error) {
          diagnostics.push({
            filePath: file.path,
            severity: "warning",
            message: `Cannot normalize path "${path}": ${
              (error as Error).message
            }`,
          });
          continue;
        }
        const detail: Record<string, string> = {
          method: method.toUpperCase(),
          path,
          framework: swagger ? "swagger" : "openapi",
        };
        if (operationId) detail["operationId"] = operationId;
        ports.push({
          ref: {
            mechanism: "http",
            role: "server",
            key,
            line: start.line,
            col: start.col,
            confidence: base === "" || base === "/"
              ? CONFIDENCE.literal
              : CONFIDENCE.composed,
            detail,
          },
          owner: {
            kind: "function",
            name,
            qualifiedName: `${file.path}::${name}`,
            filePath: file.path,
            span,
          },
          filePath: file.path,
        });
      }
    }
  }
  if (cut > 0) {
    diagnostics.push({
      filePath: file.path,
      severity: "warning",
      message:
        `Cannot use every server: a servers list names ${cut} base paths; the first ${MAX_SERVER_BASES} are used`,
    });
  }
}

/** Local `$ref`s followed this many times at most (a bound on cycles). */
const MAX_REF_HOPS = 8;

/**
 * A node, or what its local `$ref` (`#/components/pathItems/Orders`)
 * points to; `undefined` for a reference that leads nowhere.
 */
function resolveRef(root: YAMLMap, node: unknown): unknown {
  for (let hop = 0; hop < MAX_REF_HOPS; hop++) {
    if (!isMap(node)) return node;
    const ref = scalar(node, "$ref");
    if (ref === undefined) return node;
    if (!ref.startsWith("#/")) return undefined;
    const names = ref.slice(2).split("/").map((name) =>
      decodeURIComponent(name).replaceAll("~1", "/").replaceAll("~0", "~")
    );
    node = root.getIn(names, false);
  }
  return undefined;
}

function scalar(map: YAMLMap, key: string): string | undefined {
  const value = map.get(key, true);
  if (!isScalar(value) || value.value === null || value.value === undefined) {
    return undefined;
  }
  return String(value.value);
}

/**
 * The distinct base paths of a `servers` list; `fallback` when there is
 * none. Server variables take their default values.
 */
function distinctBases(
  servers: unknown,
  fallback: string[] = [""],
): string[] {
  if (!servers || typeof servers !== "object" || !("items" in servers)) {
    return fallback;
  }
  const out = new Set<string>();
  for (const server of (servers as { items: unknown[] }).items) {
    if (!isMap(server)) continue;
    let url = scalar(server, "url");
    // a placeholder for the reader (`<your-host>`) names no server
    if (url === undefined || /[<>\s]/.test(url)) continue;
    const variables = server.get("variables");
    if (isMap(variables)) {
      for (const variable of variables.items) {
        const name = isScalar(variable.key) ? String(variable.key.value) : "";
        const value = isMap(variable.value)
          ? scalar(variable.value, "default")
          : undefined;
        if (name && value !== undefined) {
          url = url.replaceAll(`{${name}}`, value);
        }
      }
    }
    out.add(basePathOf(url));
  }
  return out.size ? [...out] : fallback;
}

/**
 * The path part of a server URL: `https://h/v1`, `/v1` and a host written
 * without a scheme (`api.example.com/v1`, `localhost:8080/v1`) give `/v1`.
 */
function basePathOf(url: string): string {
  const origin = /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/]*/i.exec(url) ??
    /^(?:localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+)(?::\d+)?(?=\/|$)/i.exec(url);
  let path = origin ? url.slice(origin[0].length) : url;
  const cut = path.search(/[?#]/);
  if (cut !== -1) path = path.slice(0, cut);
  if (path !== "" && !path.startsWith("/")) path = `/${path}`;
  return path.endsWith("/") ? path.slice(0, -1) : path;
}

function joinBase(base: string, path: string): string {
  return base === "" ? path : `${base}${path}`;
}
