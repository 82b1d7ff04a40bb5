// Local variables of the function around a call: `var url = "/api/cart/" +
// id; $http({ url: url })` reads the URL from the declaration in the same
// function (or an enclosing one) when the function never assigns the name
// again. File-wide constants are one name for the whole file; locals of
// the same name in different functions are told apart here.
import { fillHoles, type Value } from "../_value/mod.ts";
import type { Node } from "../_syntax/tree.ts";
import { isStringish } from "./nodes.ts";
import { unwrap, valueOf } from "./values.ts";

const FUNCTIONS: ReadonlySet<string> = new Set([
  "function_declaration",
  "function_expression",
  "function",
  "arrow_function",
  "method_definition",
  "generator_function_declaration",
]);

/** Nodes one lookup may visit in a function body (a bound on hostile input). */
const MAX_VISITS = 20_000;

/** The declaration of `name` made directly in `fn` (not in a nested function). */
function declared(fn: Node, name: string): Node | undefined {
  let found: Node | undefined;
  let assigned = 0;
  let visits = 0;
  const visit = (node: Node): void => {
    if (++visits > MAX_VISITS) return;
    for (let i = 0; i < node.namedChildCount; i++) {
      const child = node.namedChild(i);
      if (!child || FUNCTIONS.has(child.type)) continue;
      if (
        child.type === "variable_declarator" &&
        child.childForFieldName("name")?.text === name
      ) {
        found = found === undefined ? child : undefined;
        assigned++;
      } else if (
        (child.type === "assignment_expression" ||
          child.type === "augmented_assignment_expression") &&
        child.childForFieldName("left")?.text === name
      ) assigned += 2;
      visit(child);
    }
  };
  const body = fn.childForFieldName("body");
  if (body) visit(body);
  if (visits > MAX_VISITS || assigned !== 1 || !found) return undefined;
  const value = found.childForFieldName("value");
  return value && isStringish(unwrap(value)) ? value : undefined;
}

/** `url` with the `constant` holes that name locals of the functions around `at` filled. */
export function withLocals(at: Node, url: Value, depth = 0): Value {
  if (depth > 4) return url;
  return fillHoles(url, "constant", (name) => {
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) return undefined;
    for (let scope = at.parent; scope; scope = scope.parent) {
      if (!FUNCTIONS.has(scope.type)) continue;
      const value = declared(scope, name);
      if (value) return withLocals(value, valueOf(value), depth + 1);
    }
    return undefined;
  });
}
