// What a Go call or function reference names: the called name (`f(...)`,
// `x.M(...)`), the receiver of a method call, the package function an
// identifier refers to.
import type { Node } from "../_syntax/compact_tree.ts";
import type { GoProject } from "./project.ts";

/** The name a call calls: `f(...)` → `f`, `x.M(...)` → `M`. */
export function calledName(call: Node): string | undefined {
  const callee = call.childForFieldName("function");
  return callee?.type === "identifier"
    ? callee.text
    : callee?.type === "selector_expression"
    ? callee.childForFieldName("field")?.text
    : undefined;
}

/** Adds calls to the lists of a map by the name each calls. */
export function addCallsByName(
  calls: Iterable<Node>,
  into: Map<string, Node[]>,
): void {
  for (const call of calls) {
    const name = calledName(call);
    if (!name) continue;
    let list = into.get(name);
    if (!list) into.set(name, list = []);
    list.push(call);
  }
}

/** The receiver `x` of a method call `x.<method>(...)`, else `undefined`. */
export function receiverOf(call: Node, method: string): Node | undefined {
  const callee = call.childForFieldName("function");
  return callee?.type === "selector_expression" &&
      callee.childForFieldName("field")?.text === method
    ? callee.childForFieldName("operand") ?? undefined
    : undefined;
}

/** The function of the package an identifier names (`ChargeCard`). */
export function localFunction(
  node: Node | null | undefined,
  project: GoProject,
): Node | undefined {
  return node?.type === "identifier"
    ? project.functionNamed(node, node.text)
    : undefined;
}
