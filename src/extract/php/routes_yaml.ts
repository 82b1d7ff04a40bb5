// Symfony routes declared in configuration: `config/routes.yaml` and
// `config/routes/*.yaml` entries with a `path` (and `methods`), and the
// `prefix` of entries that import attribute routes from a directory; a
// Drupal module's `<module>.routing.yml` (the same entries).
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import { HTTP_METHODS, httpPort } from "../_port/http.ts";
import { moduleOwner } from "../_syntax/owner.ts";
import { literal, routePath } from "../_value/mod.ts";
import type { ExtractDiagnostic, SourceFile } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";

/** Whether a path is a Symfony (or Drupal) routing configuration file. */
export function isRoutesYaml(path: string): boolean {
  return /(^|\/)config\/routes(\/[^/]+)?\.ya?ml$/.test(path) ||
    /(^|\/)config\/routes\/[^/]+\/[^/]+\.ya?ml$/.test(path) ||
    isDrupalRouting(path);
}

/** A Drupal module's routing file: `<module>.routing.yml`. */
function isDrupalRouting(path: string): boolean {
  return /(^|\/)[\w-]+\.routing\.yml$/.test(path);
}

/** A directory whose attribute routes a routing file imports under a prefix. */
export interface RoutePrefix {
  /** The directory, relative to the scan root, ending with `/`. */
  dir: string;
  prefix: string;
}

/**
 * The routes and directory prefixes of one routing file: every top-level
 * entry with a `path` is a route (methods from `methods`, else `ANY`); an
 * entry with a `resource` directory and a `prefix` puts that directory's
 * attribute routes under the prefix.
 */
export function routesYaml(
  file: SourceFile,
  ports: ExtractedPort[],
  prefixes: RoutePrefix[],
  diagnostics: ExtractDiagnostic[],
): void {
  const lines = new LineCounter();
  const doc = parseDocument(file.text, { lineCounter: lines });
  if (doc.errors.length > 0) {
    diagnostics.push({
      filePath: file.path,
      severity: "warning",
      message: `Cannot parse YAML: ${doc.errors[0]!.message.split("\n")[0]}`,
    });
    return;
  }
  const root = doc.contents;
  if (!isMap(root)) return;
  for (const item of root.items) {
    const entry = item.value;
    if (!isMap(entry)) continue;
    const path = entry.get("path");
    const resource = entry.get("resource");
    const prefix = entry.get("prefix");
    if (typeof resource === "string" && typeof prefix === "string") {
      const dir = joinDir(file.path, resource);
      if (dir !== undefined) prefixes.push({ dir, prefix });
      continue;
    }
    if (typeof path !== "string") continue;
    const methodsNode = entry.get("methods", true);
    const names = isSeq(methodsNode)
      ? methodsNode.items.map((m) => isScalar(m) ? String(m.value) : "")
      : isScalar(methodsNode)
      ? String(methodsNode.value).split("|")
      : [];
    const verbs = names.map((m) => m.trim().toUpperCase())
      .filter((m) => HTTP_METHODS.has(m));
    const key = item.key;
    const offset = isScalar(key) && key.range ? key.range[0] : 0;
    const { line, col } = lines.linePos(offset);
    const result = routePath(literal(path));
    for (const verb of verbs.length > 0 ? verbs : ["ANY"]) {
      const port = httpPort({
        role: "server",
        method: verb,
        path: result.path,
        node: { startPosition: { row: line - 1, column: col - 1 } },
        owner: moduleOwner(file.path),
        filePath: file.path,
        confidence: result.confidence,
        framework: isDrupalRouting(file.path) ? "drupal" : "symfony",
        extra: { routing: "yaml" },
      });
      if (port) ports.push(port);
    }
  }
}

/** A `resource` directory relative to the routing file, from the scan root. */
function joinDir(from: string, resource: string): string | undefined {
  if (!resource.endsWith("/")) return undefined;
  const parts = from.split("/").slice(0, -1);
  for (const segment of resource.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") parts.pop();
    else parts.push(segment);
  }
  return parts.length > 0 ? `${parts.join("/")}/` : "";
}
