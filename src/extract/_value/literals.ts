// Values of string literal and concatenation nodes, for the extractors that
// walk tree-sitter trees: what they share before their own rules (names,
// constants, formatting calls) take over.
import type { Node } from "web-tree-sitter";
import { stringParts } from "../_syntax/tree.ts";
import { concat, exactText, hole, literal, type Value } from "./value.ts";

/**
 * Evaluates a string literal node with `evaluate` for its interpolated
 * expressions, or undefined when the node is not a string literal.
 */
export function evaluateStringNode(
  node: Node,
  evaluate: (expression: Node) => Value,
): Value | undefined {
  const parts = stringParts(node);
  if (!parts) return undefined;
  return concat(
    parts.map((part) =>
      typeof part === "string" ? literal(part) : evaluate(part)
    ),
  );
}

/**
 * The value of a string literal without interpolated parts (what a string
 * constant may hold), or undefined.
 */
export function literalString(node: Node): Value | undefined {
  const value = evaluateStringNode(node, (e) => hole(e.text));
  return value && exactText(value) !== undefined ? value : undefined;
}

/**
 * Evaluates a binary string concatenation (`a + b`, PHP's `a . b`) with
 * `evaluate` for its operands; another operator leaves the whole expression
 * unresolved.
 */
export function evaluateConcatenation(
  node: Node,
  operator: string,
  evaluate: (operand: Node | null) => Value,
): Value {
  if (node.childForFieldName("operator")?.text !== operator) {
    return hole(node.text);
  }
  return concat([
    evaluate(node.childForFieldName("left")),
    evaluate(node.childForFieldName("right")),
  ]);
}
