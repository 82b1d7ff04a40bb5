// utoipa-axum: handlers carry their method and path in
// `#[utoipa::path(get, path = "/x")]` and are registered with
// `OpenApiRouter::new().routes(routes!(h, module::h2))`, under the prefixes
// the router is nested at.
import { HTTP_VERBS } from "../_port/http.ts";
import { namedChildren, type Node, walk } from "../_syntax/tree.ts";
import { joinPaths, literal } from "../_value/mod.ts";
import { stringValue } from "../_syntax/tree.ts";
import { argsOf, chainRoot, lastSegment } from "./nodes.ts";
import { prefixes, rootPrefixes } from "./mounts.ts";
import {
  hasPath,
  moduleName,
  type RustFile,
  type RustScan,
} from "./project.ts";
import { crateOf } from "./rocket.ts";
import { isTestItem } from "./test_code.ts";

/** A handler documented by `#[utoipa::path(...)]`. */
interface UtoipaHandler {
  file: RustFile;
  fn: Node;
  attribute: Node;
  verbs: string[];
  path: string;
}

/** The methods and path of a `#[utoipa::path(...)]` attribute item. */
function utoipaPath(item: Node): { verbs: string[]; path: string } | undefined {
  const attribute = namedChildren(item).find((c) => c.type === "attribute");
  const head = attribute ? namedChildren(attribute)[0] : undefined;
  if (!head || !/^(::)?utoipa::path$/.test(head.text)) return undefined;
  const tokens = attribute!.childForFieldName("arguments");
  if (!tokens) return undefined;
  const parts = namedChildren(tokens);
  const verbs: string[] = [];
  let path: string | undefined;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const next = parts[i + 1];
    if (p.type !== "identifier") continue;
    if (p.text === "path" && next?.type === "string_literal") {
      path = stringValue(next);
    } else if (p.text === "method" && next?.type === "token_tree") {
      // `method(get, post)`
      for (const v of namedChildren(next)) {
        if (v.type === "identifier" && HTTP_VERBS.has(v.text)) {
          verbs.push(v.text.toUpperCase());
        }
      }
    } else if (HTTP_VERBS.has(p.text)) verbs.push(p.text.toUpperCase());
  }
  return path !== undefined && verbs.length > 0 ? { verbs, path } : undefined;
}

/** Every `#[utoipa::path]` handler of the scan, by function name. */
function indexHandlers(c: RustScan): Map<string, UtoipaHandler[]> {
  const index = new Map<string, UtoipaHandler[]>();
  for (const file of c.files) {
    if (!file.file.text.includes("utoipa")) continue;
    walk(file.tree.rootNode, (n) => {
      if (isTestItem(n)) return false;
      if (n.type !== "attribute_item") return;
      const route = utoipaPath(n);
      if (!route) return false;
      let fn: Node | null = n.nextNamedSibling;
      while (fn?.type === "attribute_item") fn = fn.nextNamedSibling;
      const name = fn?.type === "function_item"
        ? fn.childForFieldName("name")?.text
        : undefined;
      if (!fn || !name) return false;
      let list = index.get(name);
      if (!list) index.set(name, list = []);
      list.push({ file, fn, attribute: n, ...route });
      return false;
    });
  }
  return index;
}

const HANDLERS = new WeakMap<RustScan, Map<string, UtoipaHandler[]>>();

/** `.routes(routes!(h, module::h2))` on a utoipa-axum `OpenApiRouter`. */
export function utoipaRoutes(c: RustScan, f: RustFile, call: Node): void {
  const macro = argsOf(call)[0];
  if (
    macro?.type !== "macro_invocation" ||
    lastSegment(macro.childForFieldName("macro")) !== "routes"
  ) return;
  let index = HANDLERS.get(c);
  if (!index) HANDLERS.set(c, index = indexHandlers(c));
  const tokens = namedChildren(macro).find((n) => n.type === "token_tree");
  if (!tokens || index.size === 0) return;
  const above = prefixes(c, call);
  const own = rootPrefixes(c, chainRoot(call), 0);
  for (const item of tokens.text.slice(1, -1).split(",")) {
    const segments = item.split("::").map((s) => s.trim());
    const name = segments.pop() ?? "";
    const module = segments.at(-1);
    for (const h of index.get(name) ?? []) {
      if (crateOf(h.file.file.path) !== crateOf(f.file.path)) continue;
      if (module && !["crate", "self", "super"].includes(module)) {
        if (moduleName(h.file.file.path) !== module) continue;
      } else if (h.file !== f && module === undefined) continue;
      const seen = new Set<string>();
      for (const a of above) {
        for (const o of own) {
          const prefix = joinPaths(a, o);
          c.emitComposed(
            h.file,
            h.fn,
            joinPaths(prefix, literal(h.path)),
            h.verbs,
            "axum",
            seen,
            h.attribute,
            hasPath(prefix),
          );
        }
      }
    }
  }
}
