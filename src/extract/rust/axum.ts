// axum services and fallbacks: `.route_service(path, svc)` answers every
// method at one path, `.nest_service(prefix, ServeDir::new(..))` every path
// below a prefix, and a router's `.fallback(h)` every path it has no route
// for (under the prefix the router is nested at).
import type { Node } from "../_syntax/tree.ts";
import { joinPaths, literal } from "../_value/mod.ts";
import { argsOf, chainRoot, methodCall, unwrap } from "./nodes.ts";
import type { MethodSite, RustFile, RustScan } from "./project.ts";

/** The router methods {@linkcode axumMount} reads. */
export const AXUM_MOUNTS: ReadonlySet<string> = new Set([
  "route_service",
  "nest_service",
  "fallback",
  "fallback_service",
]);

/** A router type's constructor: `Router::new()`, `ApiRouter::default()`. */
const ROUTER_CONSTRUCTOR = /(^|::)\w*Router(::<[^>]*>)?::(new|default)$/;

/** A type's constructor: `ServeDir::new`, `tower_http::services::ServeFile::new`. */
const CONSTRUCTOR = /(^|::)[A-Z]\w*(::<[^>]*>)?::\w+$/;

/** `.route_service`, `.nest_service` and `.fallback` on an axum router. */
export function axumMount(c: RustScan, f: RustFile, site: MethodSite): void {
  const { call, name, receiver } = site;
  const args = argsOf(call);
  if (name === "route_service") {
    if (args[0] && args[1]) c.emitServer(f, call, args[0], ["ANY"], "axum");
    return;
  }
  if (name === "nest_service") {
    if (!args[0] || !args[1] || !isService(c, args[1])) return;
    const path = joinPaths(c.evaluate(args[0]), literal("/{*rest}"));
    c.emitServerPath(f, call, path, ["ANY"], "axum");
    return;
  }
  if (args.length === 1 && isRouter(c, receiver)) {
    c.emitServerPath(f, call, literal("/{*fallback}"), ["ANY"], "axum");
  }
}

/** The constructor call at the root of a value (through `let` bindings). */
function rootCall(c: RustScan, node: Node, depth = 0): string | undefined {
  const root = chainRoot(node);
  if (root.type === "identifier" && depth < 4) {
    const value = c.letValue(root.text, root);
    return value ? rootCall(c, value, depth + 1) : undefined;
  }
  if (root.type !== "call_expression") return undefined;
  return root.childForFieldName("function")?.text.replace(/\s+/g, "");
}

/** Whether a value is a tower service built by a type (not a router). */
function isService(c: RustScan, node: Node): boolean {
  const fn = rootCall(c, node);
  return fn !== undefined && CONSTRUCTOR.test(fn) &&
    !ROUTER_CONSTRUCTOR.test(fn);
}

/**
 * Whether a receiver is a router (so `.fallback` is the router's, not a
 * method router's): built by `Router::new()`, or a chain with `.route(..)`.
 */
function isRouter(c: RustScan, receiver: Node): boolean {
  const fn = rootCall(c, receiver);
  if (fn !== undefined && ROUTER_CONSTRUCTOR.test(fn)) return true;
  for (let n = unwrap(receiver);;) {
    const m = methodCall(n);
    if (!m) return false;
    if (m.name === "route" || m.name === "nest" || m.name === "merge") {
      return true;
    }
    n = unwrap(m.receiver);
  }
}
