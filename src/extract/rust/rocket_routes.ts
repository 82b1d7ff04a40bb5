// Rocket handlers: each `#[get("/x")]` once per `routes![...]` list that
// mounts it (with that `.mount` prefix, followed through `let` bindings and
// functions returning the list).
import { httpPort } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { namedChildren, type Node, walk } from "../_syntax/tree.ts";
import {
  CONFIDENCE,
  joinPaths,
  literal,
  routePath,
  type Value,
} from "../_value/mod.ts";
import { chainRoot, methodCall, unwrap } from "./nodes.ts";
import { bindingUses, callsOf, returnedBy } from "./value_uses.ts";

/** Methods adding a list's routes to another list. */
const APPENDS = new Set(["append", "extend"]);
import {
  hasPath,
  MAX_DEPTH,
  moduleName,
  type RocketMount,
  type RustFile,
  type RustScan,
} from "./project.ts";
import {
  importsForeign,
  rocketReceiver,
  type RocketRoute,
  rocketRoute,
  routesList,
} from "./rocket.ts";

/**
 * A Rocket `#[get("/x")]` / `#[route(GET, uri = "/x")]` handler, once per
 * `routes!` list that mounts it (with that `.mount` prefix); a handler no
 * list of the scan mounts gets its bare path at confidence 0.8. An
 * unqualified attribute counts in files that use Rocket (or whose crate
 * has `#[macro_use] extern crate rocket`) or when a `routes!` list names
 * the handler, never in files that use actix-web or import the attribute
 * from another crate.
 */
export function rocketAttribute(
  c: RustScan,
  f: RustFile,
  item: Node,
): void {
  // Without any file naming the `rocket` crate, no attribute is Rocket's.
  if (!c.anyRocket) return;
  const route = rocketRoute(item);
  if (!route) return;
  let fn: Node | null = item.nextNamedSibling;
  while (fn && fn.type === "attribute_item") fn = fn.nextNamedSibling;
  if (fn?.type !== "function_item") return;
  const handler = fn.childForFieldName("name")?.text;
  if (!handler) return;
  if (
    !route.qualified &&
    (f.actix || importsForeign(f.useTexts, route.name))
  ) return;
  const mounts = rocketMounts(c, handler, f);
  if (!route.qualified && !c.rocketFile(f) && mounts.length === 0) {
    return;
  }
  emitRocket(c, f, fn, item, route, mounts);
}

export function emitRocket(
  c: RustScan,
  f: RustFile,
  fn: Node,
  item: Node,
  route: RocketRoute,
  mounts: readonly RocketMount[],
): void {
  const path = literal(route.path);
  if (mounts.length > 0) {
    const seen = new Set<string>();
    for (const mount of mounts) {
      c.emitComposed(
        f,
        fn,
        joinPaths(mount.prefix, path),
        route.verbs,
        "rocket",
        seen,
        item,
        hasPath(mount.prefix),
      );
    }
    return;
  }
  for (const verb of route.verbs) {
    const port = httpPort({
      role: "server",
      method: verb,
      path: routePath(literal(route.path)).path,
      node: item,
      owner: ownerOf(fn, f.file.path, "rust"),
      filePath: f.file.path,
      confidence: CONFIDENCE.partial,
      framework: "rocket",
      extra: { mounted: "false" },
    });
    if (port) c.ports.push(port);
  }
}

/** The `routes!` entries of the scan that name the handler of `home`. */
export function rocketMounts(
  c: RustScan,
  handler: string,
  home: RustFile,
): RocketMount[] {
  if (!c.mounts) c.mounts = indexMounts(c);
  const module = moduleName(home.file.path);
  return (c.mounts.get(handler) ?? []).filter((m) => {
    const q = m.qualifier.filter((s) => s !== "self" && s !== "super");
    if (q.length > 0 && q[q.length - 1] !== "crate") {
      return q[q.length - 1] === module;
    }
    if (m.site.file.path === home.file.path) return true;
    if (q[0] === "crate") return module === "crate";
    return m.site.useTexts.some((text) =>
      text.includes(`${module}::`) &&
      (text.split(/[^A-Za-z0-9_*]+/).includes(handler) ||
        text.includes(`${module}::*`))
    );
  });
}

/** Every `routes![...]` list of the scan, by handler name. */
export function indexMounts(c: RustScan): Map<string, RocketMount[]> {
  const index = new Map<string, RocketMount[]>();
  for (const f of c.files) {
    if (!c.rocketFile(f) && !f.file.text.includes("routes!")) continue;
    walk(f.tree.rootNode, (n) => {
      if (n.type !== "macro_invocation") return;
      const handlers = routesList(n);
      if (!handlers) return;
      const prefixes = mountPrefixes(c, n, 0);
      for (const segments of handlers) {
        const name = segments[segments.length - 1]!;
        let list = index.get(name);
        if (!list) index.set(name, list = []);
        for (const prefix of prefixes) {
          list.push({ qualifier: segments.slice(0, -1), site: f, prefix });
        }
      }
      return false;
    });
  }
  return index;
}

/**
 * The prefixes a `routes!` list (or a value holding it) is mounted
 * with: `.mount(prefix, value)` on a Rocket instance, followed through
 * `let` bindings and functions returning the list.
 */
export function mountPrefixes(
  c: RustScan,
  node: Node,
  depth: number,
): Value[] {
  if (depth > MAX_DEPTH) return [];
  const parent = node.parent;
  if (!parent) return [];
  switch (parent.type) {
    case "arguments": {
      const call = parent.parent;
      const m = call ? methodCall(call) : undefined;
      const args = namedChildren(parent);
      if (call && m && APPENDS.has(m.name) && args[0]?.id === node.id) {
        // `r.append(&mut more_routes())`: mounted where `r` is
        const r = unwrap(m.receiver);
        const value = r.type === "identifier"
          ? c.letValue(r.text, r)
          : undefined;
        return value ? mountPrefixes(c, value, depth + 1) : [];
      }
      if (
        !call || m?.name !== "mount" || args.length !== 2 ||
        args[1]!.id !== node.id || !rocketReceiver(chainRoot(m.receiver))
      ) return [];
      return [c.evaluate(args[0])];
    }
    case "reference_expression":
    case "parenthesized_expression":
      return mountPrefixes(c, parent, depth + 1);
    case "let_declaration":
      return bindingUses(parent).flatMap((n) => mountPrefixes(c, n, depth + 1));
    case "block":
    case "return_expression": {
      const fn = returnedBy(c, node);
      return fn
        ? callsOf(c, fn).flatMap((call) => mountPrefixes(c, call, depth + 1))
        : [];
    }
    default:
      return [];
  }
}
