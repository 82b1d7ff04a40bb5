// A casbin matcher as casbin parses it (expression-eval's jsep, with
// casbin's `in` operator and bracket rewriting), and what the explanation
// needs of it: its top-level terms, its calls, and a printable form.
import expressionEval from "@casbin/expression-eval";
import { Util } from "casbin";
import { isNode, type Node } from "../guard/_policy/matcher.ts";
import { pathOf } from "../guard/_policy/probe.ts";

export { isNode, type Node, pathOf };

const { addBinaryOp, parse } = expressionEval;

/** Parses an escaped matcher (`r_sub == p_sub`) exactly as casbin does. */
export function parseMatcher(text: string): Node {
  addBinaryOp("in", 1, Util.customIn);
  return parse(Util.bracketCompatible(text)) as unknown as Node;
}

/** The operands of a chain of one logical operator: `a && b && c`. */
export function flatten(node: Node, operator: "&&" | "||"): Node[] {
  const terms: Node[] = [];
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next.type === "LogicalExpression" && next.operator === operator) {
      stack.push(next.right as Node, next.left as Node);
    } else {
      terms.push(next);
    }
  }
  return terms;
}

/** Every call of one of `names` in the expression, outermost first. */
export function callsTo(root: Node, names: ReadonlySet<string>): Node[] {
  const calls: Node[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isNode(node)) continue;
    if (node.type === "CallExpression" && names.has(calleeName(node) ?? "")) {
      calls.push(node);
    }
    for (const [field, value] of Object.entries(node)) {
      if (field === "type") continue;
      if (Array.isArray(value)) stack.push(...value);
      else if (isNode(value)) stack.push(value);
    }
  }
  return calls;
}

/** The name of a call's function, when it is a plain identifier. */
export function calleeName(node: Node): string | undefined {
  const callee = node.callee;
  return isNode(callee) && callee.type === "Identifier"
    ? String(callee.name)
    : undefined;
}

/** A matcher name as written in the model: `r_sub` as `r.sub`. */
export function displayName(name: string): string {
  return name.replace(/^([rp]\d*)_/, "$1.");
}

/** An expression as text, close to how the model writes it. */
export function printNode(node: unknown): string {
  if (!isNode(node)) return "?";
  switch (node.type) {
    case "Identifier":
      return displayName(String(node.name));
    case "Literal":
      return typeof node.raw === "string"
        ? node.raw
        : JSON.stringify(node.value);
    case "MemberExpression":
      return node.computed === true
        ? `${printNode(node.object)}[${printNode(node.property)}]`
        : `${printNode(node.object)}.${printNode(node.property)}`;
    case "CallExpression":
      return `${printNode(node.callee)}(${
        (node.arguments as unknown[]).map(printNode).join(", ")
      })`;
    case "BinaryExpression":
    case "LogicalExpression":
      return `${operand(node.left)} ${node.operator} ${operand(node.right)}`;
    case "UnaryExpression":
      return `${node.operator}${operand(node.argument)}`;
    case "ConditionalExpression":
      return `${operand(node.test)} ? ${operand(node.consequent)} : ${
        operand(node.alternate)
      }`;
    case "ArrayExpression":
      return `[${(node.elements as unknown[]).map(printNode).join(", ")}]`;
    default:
      return node.type;
  }
}

function operand(node: unknown): string {
  const text = printNode(node);
  return isNode(node) &&
      ["BinaryExpression", "LogicalExpression", "ConditionalExpression"]
        .includes(node.type)
    ? `(${text})`
    : text;
}
