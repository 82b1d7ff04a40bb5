// The methods a catch-all handler answers when it tells them apart by the
// request's method: `if (req.method === "POST")`, `req.method !== "GET"`
// (a guard that lets one through), `switch (req.method) { case "PUT": }`.
// A Next.js `pages/api` handler or an Express `all` route that does so is
// one route per method it tests, not one for any method.
import type { Node } from "../_syntax/tree.ts";
import type { Collector } from "./collect.ts";
import { FUNCTION_TYPES, methodLiteral } from "./nodes.ts";
import { unwrap } from "./values.ts";

/** The most tests read in one handler. */
const MAX_TESTS = 500;

const TEST_TYPES = ["binary_expression", "switch_statement"];

/** Whether a node reads a request's method: `req.method`, `request.method`. */
function isMethodRead(node: Node): boolean {
  const v = unwrap(node);
  return v.type === "member_expression" &&
    v.childForFieldName("property")?.text === "method";
}

/** The methods a handler's body tests the request's method against, if any. */
export function handledMethods(handler: Node): string[] | undefined {
  const found = new Set<string>();
  let seen = 0;
  for (const node of handler.descendantsOfType(TEST_TYPES)) {
    if (!node || ++seen > MAX_TESTS) break;
    if (node.type === "binary_expression") {
      const operator = node.childForFieldName("operator")?.text ?? "";
      if (!["===", "==", "!==", "!="].includes(operator)) continue;
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      if (!left || !right) continue;
      const method = isMethodRead(left)
        ? methodLiteral(right)
        : isMethodRead(right)
        ? methodLiteral(left)
        : undefined;
      if (method) found.add(method);
      continue;
    }
    const value = node.childForFieldName("value");
    if (!value || !isMethodRead(value)) continue;
    const body = node.childForFieldName("body");
    for (const branch of body?.namedChildren ?? []) {
      if (branch?.type !== "switch_case") continue;
      const test = branch.childForFieldName("value");
      const method = test && methodLiteral(test);
      if (method) found.add(method);
    }
  }
  return found.size > 0 ? [...found].sort() : undefined;
}

/**
 * The function a handler expression stands for: itself, a function of the
 * file named by it, or the first such argument of a wrapper call
 * (`withAuth(handler)`).
 */
export function handlerFunction(
  c: Collector,
  node: Node,
  depth = 0,
): Node | undefined {
  const v = unwrap(node);
  if (FUNCTION_TYPES.has(v.type)) return v;
  if (v.type === "identifier") {
    for (const fn of c.nodes("function_declaration")) {
      if (fn.childForFieldName("name")?.text === v.text) return fn;
    }
    for (const d of c.nodes("variable_declarator")) {
      if (d.childForFieldName("name")?.text !== v.text) continue;
      const value = d.childForFieldName("value");
      if (value && FUNCTION_TYPES.has(unwrap(value).type)) return unwrap(value);
    }
    return undefined;
  }
  if (v.type === "call_expression" && depth < 3) {
    for (const arg of v.childForFieldName("arguments")?.namedChildren ?? []) {
      const fn = arg && handlerFunction(c, arg, depth + 1);
      if (fn) return fn;
    }
  }
  return undefined;
}
