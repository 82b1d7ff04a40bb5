// This library's guarded handlers among route arguments: the permission a
// route requires, for the report.
import { namedChildren, type Node, stringValue } from "../_syntax/tree.ts";
import { argList, FUNCTION_TYPES } from "./nodes.ts";
import { unwrap } from "./values.ts";

/**
 * The permission of this library's guarded handlers among route
 * arguments: `guard.requirePermission("post", "read")(handler)`, the
 * wrapper as middleware (also inside an adapter such as
 * `honoGuard(guard.requirePermission(...))` or with `.withErrorFactory()`),
 * or a constant holding one. `authRequired()` alone gives `auth: required`.
 */
export function permissionOf(
  args: Node[],
  handlers?: ReadonlyMap<string, Node>,
): Record<string, string> {
  let authRequired = false;
  for (const arg of args) {
    let v = unwrap(arg);
    // const listPosts = guard.requirePermission("post", "read")(...)
    if (v.type === "identifier" && handlers?.has(v.text)) {
      v = unwrap(handlers.get(v.text)!);
    }
    const found = guardCall(v, 0);
    if (found === "auth") authRequired = true;
    else if (found) return found;
  }
  return authRequired ? { auth: "required" } : {};
}

/** Searches an expression (not nested function bodies) for a guard call. */
export function guardCall(
  node: Node,
  depth: number,
): Record<string, string> | "auth" | undefined {
  if (depth > 8 || FUNCTION_TYPES.has(node.type)) return undefined;
  let auth = false;
  if (node.type === "call_expression") {
    const fn = unwrap(node.childForFieldName("function")!);
    if (fn.type === "member_expression") {
      const property = fn.childForFieldName("property")?.text;
      if (property === "requirePermission") {
        const params = argList(node);
        const object = params[0] && stringValue(unwrap(params[0]));
        const action = params[1] && stringValue(unwrap(params[1]));
        if (object !== undefined && action !== undefined) {
          return { object, action, permission: `${object}:${action}` };
        }
      } else if (property === "authRequired") auth = true;
    }
  }
  for (const child of namedChildren(node)) {
    const found = guardCall(child, depth + 1);
    if (found && found !== "auth") return found;
    if (found === "auth") auth = true;
  }
  return auth ? "auth" : undefined;
}
