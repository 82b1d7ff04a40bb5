// Routers written as classes that register their routes on themselves:
// `class UsersRouter extends PromiseRouter { mountRoutes() {
// this.route("GET", "/users", handler) } }` (Parse Server's routers and
// the like). The class must extend a base, the method be a literal HTTP
// method and the path a literal starting with `/`.
import { findAncestor, stringValue } from "../_syntax/tree.ts";
import { literal } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import { HTTP_METHODS } from "./nodes.ts";
import type { MemberCall } from "./nodes.ts";
import { unwrap } from "./values.ts";
import { route } from "./routers.ts";

const CLASS_TYPES: ReadonlySet<string> = new Set([
  "class_declaration",
  "class",
]);

/** Records `this.route(method, path, handler)` in a subclass; `false` if none. */
export function classRoute(c: Collector, call: MemberCall): boolean {
  const { node, object, method, args } = call;
  if (method !== "route" || unwrap(object).type !== "this") return false;
  if (args.length < 3) return false;
  const verb = stringValue(unwrap(args[0]!))?.toUpperCase();
  const path = stringValue(unwrap(args[1]!));
  if (!verb || !path?.startsWith("/")) return false;
  if (verb !== "ALL" && !HTTP_METHODS.has(verb)) return false;
  const owner = findAncestor(node, CLASS_TYPES);
  const heritage = owner?.namedChildren.some((n) =>
    n?.type === "class_heritage"
  );
  if (!heritage) return false;
  const methods = [verb === "ALL" ? "ANY" : verb];
  route(c, node, undefined, methods, literal(path), "class-router", args);
  return true;
}
