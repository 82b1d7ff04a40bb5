// `@fastify/autoload`: `app.register(AutoLoad, { dir: path.join(__dirname,
// "routes") })` registers the default-exported plugin of every module under
// that folder, under a prefix made of its folders (`routes/api/tasks/` →
// `/api/tasks`, `_id` → `:id`; none with `dirNameRoutePrefix: false`), the
// `options.prefix` and the module's own `export const autoPrefix`.
import { type Node, stringValue } from "../_syntax/tree.ts";
import { concat, literal, type Value } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import type { JsFacts } from "./facts.ts";
import { argList, optionValue, pairValue } from "./nodes.ts";
import { unwrap } from "./values.ts";

/** One `register(AutoLoad, options)` call. */
export interface AutoloadRec {
  /** The router the plugins are registered on. */
  parent: string;
  /** The folder, relative to the calling file's folder. */
  dir: string;
  /** Whether folders add to the prefix (`dirNameRoutePrefix`). */
  folders: boolean;
  /** `options.prefix`. */
  prefix: Value;
}

/** Records `register(AutoLoad, {...})`; `false` when `plugin` is not AutoLoad. */
export function autoloadCall(
  c: Collector,
  parent: string,
  plugin: Node,
  options: Node | undefined,
): boolean {
  const lib = c.lib(unwrap(plugin));
  if (lib?.source !== "@fastify/autoload") return false;
  const object = options && unwrap(options);
  if (object?.type !== "object") return true;
  const dirNode = pairValue(object, "dir");
  const dir = dirNode && folderOf(unwrap(dirNode));
  if (dir === undefined) return true;
  const inner = pairValue(object, "options");
  (c.facts.autoloads ??= []).push({
    parent,
    dir,
    folders: pairValue(object, "dirNameRoutePrefix")?.type !== "false",
    prefix: optionValue(inner && unwrap(inner), "prefix"),
  });
  return true;
}

/** `"routes"`, `path.join(__dirname, "routes")`, `join(dir, "a", "b")`. */
function folderOf(node: Node): string | undefined {
  const text = stringValue(node);
  if (text !== undefined) return text.replace(/^\.\//, "");
  if (node.type !== "call_expression") return undefined;
  const callee = node.childForFieldName("function")?.text ?? "";
  if (!/(^|\.)(join|resolve)$/.test(callee)) return undefined;
  const parts: string[] = [];
  for (const arg of argList(node).slice(1)) {
    const part = stringValue(unwrap(arg));
    if (part === undefined) return undefined;
    parts.push(part.replace(/^\.\//, ""));
  }
  return parts.length > 0 ? parts.join("/") : undefined;
}

/** A mount the autoload of `file` gives a module of the project. */
export interface AutoloadMount {
  /** The loaded module and its plugin's local (`fn:default`). */
  child: JsFacts;
  local: string;
  parent: string;
  prefix: Value;
}

/** The plugins each autoload of `file` registers, among `files`. */
export function autoloadMounts(
  file: JsFacts,
  files: Iterable<JsFacts>,
): AutoloadMount[] {
  const out: AutoloadMount[] = [];
  const here = file.path.includes("/")
    ? file.path.slice(0, file.path.lastIndexOf("/") + 1)
    : "";
  for (const load of file.autoloads ?? []) {
    const root = normalize(here + load.dir) + "/";
    for (const child of files) {
      if (!child.path.startsWith(root)) continue;
      const local = child.exports.get("default");
      if (!local?.startsWith("fn:")) continue;
      const rest = child.path.slice(root.length).split("/").slice(0, -1);
      const folders = load.folders
        ? rest.map((s) => "/" + (s.startsWith("_") ? `:${s.slice(1)}` : s))
          .join("")
        : "";
      const own = child.consts.get("autoPrefix");
      out.push({
        child,
        local,
        parent: load.parent,
        prefix: concat([load.prefix, literal(folders), own ?? literal("")]),
      });
    }
  }
  return out;
}

/** `a/./b/../c` → `a/c`. */
function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return out.join("/");
}
