// go-zero `.api` files: the DSL goctl generates a service's `routes.go`
// from. Each `service name { @handler H  get /users/:id (Req) returns (Res) }`
// block serves its routes, under the `prefix` of the `@server(...)` block
// before it. Each route is reported at its line, owned by its handler.
import { joinPaths, literal, routePath } from "../_value/mod.ts";
import { httpPort } from "../_port/http.ts";
import type { ExtractedPort, PortOwner } from "../types.ts";
import type { SourceFile } from "../extractor.ts";

const MAX_ROUTES = 2000;
const SERVICE =
  /(?:@server\s*\(([^()]*)\)\s*)?\bservice\s+[\w.-]+\s*\{([^{}]*)\}/g;
const ROUTE =
  /^[ \t]*(get|post|put|delete|patch|head|options|connect|trace)[ \t]+(\/[^\s()]*)/gim;
const HANDLER = /@handler[ \t]+(\w+)/g;

/** Whether a path is a go-zero API file. */
export function isGoctlApi(path: string): boolean {
  return path.endsWith(".api");
}

/** The HTTP routes the services of a go-zero `.api` file declare. */
export function goctlApiRoutes(file: SourceFile): ExtractedPort[] {
  const text = withoutComments(file.text);
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\n") lineStarts.push(i + 1);
  }
  const positionAt = (offset: number): { row: number; column: number } => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { row: low, column: offset - (lineStarts[low] ?? 0) };
  };
  const out: ExtractedPort[] = [];
  for (const service of text.matchAll(SERVICE)) {
    const prefix = /(?:^|\s)prefix\s*:\s*([^\s,]+)/.exec(service[1] ?? "")?.[1];
    const body = service[2] ?? "";
    const bodyStart = (service.index ?? 0) + service[0].indexOf("{") + 1;
    const handlers = [...body.matchAll(HANDLER)];
    // the routes come in order: the handler before each only moves forward
    let next = 0;
    for (const route of body.matchAll(ROUTE)) {
      if (out.length >= MAX_ROUTES) return out;
      const method = (route[1] ?? "").toUpperCase();
      const offset = bodyStart + (route.index ?? 0) +
        (route[0].length - route[0].trimStart().length);
      while ((handlers[next]?.index ?? Infinity) < (route.index ?? 0)) next++;
      const handler = handlers[next - 1]?.[1];
      const path = prefix
        ? joinPaths(
          literal(prefix.startsWith("/") ? prefix : `/${prefix}`),
          literal(route[2] ?? ""),
        )
        : literal(route[2] ?? "");
      const result = routePath(path, prefix !== undefined);
      const port = httpPort({
        role: "server",
        method,
        path: result.path,
        node: { startPosition: positionAt(offset) },
        owner: ownerOf(file.path, handler),
        filePath: file.path,
        confidence: result.confidence,
        framework: "go-zero",
      });
      if (port) out.push(port);
    }
  }
  return out;
}

function ownerOf(filePath: string, handler: string | undefined): PortOwner {
  const name = handler ?? filePath.slice(filePath.lastIndexOf("/") + 1);
  return {
    kind: handler ? "function" : "module",
    name,
    qualifiedName: handler ? `${filePath}::${handler}` : filePath,
    filePath,
  };
}

/** The text with `//` and `/* *\/` comments blanked (offsets kept). */
function withoutComments(text: string): string {
  return text.replace(
    // an unclosed comment runs to the end (no rescan from every `/*`)
    /\/\*[\s\S]*?(?:\*\/|$(?![\s\S]))|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"|`[^`]*`/g,
    (match) =>
      match.startsWith("/")
        ? match.replace(/[^\n]/g, " ")
        : match.replace(/[{}()]/g, " "),
  );
}
