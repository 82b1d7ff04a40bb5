// Play Framework routes files: `conf/routes` lines `GET /users/:id
// controllers.Users.show(id: Long)`, and the routers they include under a
// prefix (`-> /api api.Routes` reads `conf/api.routes`).
import type { SourceFile } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import { HTTP_METHODS, routePorts } from "../_port/http.ts";
import { moduleOwner } from "../_syntax/owner.ts";
import { literal } from "../_value/mod.ts";

/** Whether a path is a Play routes file (`conf/routes`, `conf/x.routes`). */
export function isPlayRoutes(path: string): boolean {
  return /(^|\/)conf\/(routes|[\w.-]+\.routes)$/.test(path);
}

/** The deepest chain of `->` includes followed. */
const MAX_DEPTH = 8;
/** The most lines of a routes file read. */
const MAX_LINES = 20_000;

/**
 * The server routes of the Play routes files of a scan: those `conf/routes`
 * reaches, with the prefixes of the includes on the way; a module without
 * a `conf/routes` has its `.routes` files read on their own.
 */
export function playRoutes(files: readonly SourceFile[]): ExtractedPort[] {
  const byPath = new Map<string, SourceFile>();
  for (const f of files) {
    // sbt's scripted tests (`src/sbt-test/`) are sample builds, not the app
    if (isPlayRoutes(f.path) && !/(^|\/)sbt-test\//.test(f.path)) {
      byPath.set(f.path, f);
    }
  }
  const out: ExtractedPort[] = [];
  const reached = new Set<string>();
  const read = (file: SourceFile, prefix: string, depth: number): void => {
    reached.add(file.path);
    const conf = file.path.slice(0, file.path.lastIndexOf("/") + 1);
    const lines = file.text.split("\n").slice(0, MAX_LINES);
    lines.forEach((raw, row) => {
      const line = raw.replace(/\s+#.*$/, "").trim();
      if (line === "" || line.startsWith("#")) return;
      const [verb, path, target] = line.split(/\s+/, 3);
      if (!verb || !path?.startsWith("/")) return;
      if (verb === "->") {
        // `api.Routes` is generated from `conf/api.routes`
        const name = /^([\w.]+)\.Routes$/.exec(target ?? "")?.[1];
        const included = name ? byPath.get(`${conf}${name}.routes`) : undefined;
        if (included && depth < MAX_DEPTH && included !== file) {
          read(included, join(prefix, path), depth + 1);
        }
        return;
      }
      if (!HTTP_METHODS.has(verb) || !target) return;
      out.push(...routePorts({
        methods: [verb],
        path: literal(join(prefix, playPath(path))),
        prefixed: prefix !== "",
        node: { startPosition: { row, column: raw.indexOf(verb) } },
        owner: moduleOwner(file.path),
        filePath: file.path,
        framework: "play",
      }));
    });
  };
  for (const [path, file] of byPath) {
    if (path.endsWith("/routes") || path === "routes") read(file, "", 0);
  }
  for (const [path, file] of byPath) {
    const conf = path.slice(0, path.lastIndexOf("/") + 1);
    if (!reached.has(path) && !byPath.has(`${conf}routes`)) read(file, "", 0);
  }
  return out;
}

/** Play's parameters as braces: `:id`, `*file`, `$id<[0-9]+>`. */
function playPath(path: string): string {
  return path
    .replace(/\$(\w+)<[^<>/]*>/g, "{$1}")
    .replace(/(^|\/)[:*](\w+)/g, "$1{$2}");
}

function join(prefix: string, path: string): string {
  if (prefix === "" || prefix === "/") return path;
  return path === "/" ? prefix : prefix.replace(/\/$/, "") + path;
}
