// Dropwizard: the `server` paths of a module's configuration YAML
// (`applicationContextPath`, and the Jersey `rootPath` its resources are
// under), and the files an `AssetsBundle` serves (`new
// AssetsBundle("/ui", "/admin")` is `GET /admin/*`).
import type { Node } from "web-tree-sitter";
import type { SourceFile } from "../extractor.ts";
import { routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { walk } from "../_syntax/tree.ts";
import { joinPaths, literal, type Value } from "../_value/mod.ts";
import { isSpringSettings } from "../_spring/settings.ts";
import type { JavaFile } from "./project.ts";
import { typeName } from "./project.ts";

/** Whether a path may be a Dropwizard configuration file. */
export function isDropwizardConfig(path: string): boolean {
  return /\.ya?ml$/.test(path) && !isSpringSettings(path);
}

/** Whether a file uses Dropwizard. */
export function usesDropwizard(text: string): boolean {
  return text.includes("io.dropwizard");
}

/** The server paths of one module. */
interface ServerPaths {
  context: string;
  root: string;
}

/** The server paths of the Dropwizard configurations of a scan, by module. */
export class DropwizardSettings {
  readonly #modules = new Map<string, ServerPaths>();

  /** Reads the `server:` block of each configuration YAML. */
  constructor(files: readonly SourceFile[]) {
    for (const f of files) {
      if (!isDropwizardConfig(f.path)) continue;
      if (!/^server:/m.test(f.text)) continue;
      const paths = serverPaths(f.text.slice(0, 1_000_000));
      if (!paths) continue;
      this.#modules.set(moduleOf(f.path), paths);
    }
  }

  #of(path: string): ServerPaths | undefined {
    let best: string | undefined;
    for (const module of this.#modules.keys()) {
      if (!path.startsWith(module)) continue;
      if (best === undefined || module.length > best.length) best = module;
    }
    return best === undefined ? undefined : this.#modules.get(best);
  }

  /** The `applicationContextPath` the file at `path` is served under. */
  contextPath(path: string): string {
    return this.#of(path)?.context ?? "";
  }

  /** The Jersey `rootPath` (without its `/*`) resources are under. */
  rootPath(path: string): string {
    return this.#of(path)?.root ?? "";
  }
}

/** `applicationContextPath` and `rootPath` of the `server:` block. */
function serverPaths(text: string): ServerPaths | undefined {
  let inServer = false;
  let context = "";
  let root = "";
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\s+#.*$/, "");
    if (/^\S/.test(line)) inServer = /^server:\s*$/.test(line);
    if (!inServer) continue;
    const m = /^\s+(applicationContextPath|rootPath):\s*["']?([^"'\s]*)/
      .exec(line);
    if (!m) continue;
    const value = m[2]!.replace(/\/?\*$/, "").replace(/\/$/, "");
    if (m[1] === "rootPath") root = value;
    else context = value;
  }
  return context || root ? { context, root } : undefined;
}

/** The module of a configuration file: its folder (above `src/main/resources`). */
function moduleOf(path: string): string {
  const at = path.lastIndexOf("src/main/resources/");
  if (at !== -1) return path.slice(0, at);
  return path.slice(0, path.lastIndexOf("/") + 1);
}

/** The `AssetsBundle`s a Dropwizard application adds. */
export function dropwizardAssets(c: JavaFile, root: Node): void {
  walk(root, (node) => {
    if (node.type !== "object_creation_expression") return;
    if (typeName(node.childForFieldName("type")) !== "AssetsBundle") return;
    const args = (node.childForFieldName("arguments")?.namedChildren ?? [])
      .filter((n): n is Node => n !== null);
    // `AssetsBundle(resourcePath, uriPath, ...)`; the URI defaults to the
    // resource path, which defaults to `/assets`
    const uri: Value = args[1]
      ? c.evaluate(args[1])
      : args[0]
      ? c.evaluate(args[0])
      : literal("/assets");
    const head = uri.parts[0];
    if (typeof head !== "string" || !head.startsWith("/")) return;
    const context = c.dropwizard.contextPath(c.file.path);
    c.ports.push(...routePorts({
      methods: ["GET"],
      path: joinPaths(literal(context, context !== ""), uri, literal("/*")),
      prefixed: context !== "",
      node,
      owner: ownerOf(node, c.file.path, "java"),
      filePath: c.file.path,
      framework: "dropwizard",
    }));
  });
}
