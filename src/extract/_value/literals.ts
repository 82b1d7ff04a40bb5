// Values of string literal and concatenation nodes, for the extractors that
// walk tree-sitter trees: what they share before their own rules (names,
// constants, formatting calls) take over.
import type { Node } from "web-tree-sitter";
import { stringParts } from "../_syntax/tree.ts";
import { concat, exactText, hole, literal, type Value } from "./value.ts";
import { formatPlaceholders } from "./format.ts";

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

/**
 * The value of a constant's initializer, read before every constant of the
 * scan is known: string literals (interpolations included), joined with
 * `operator`, and the names `nameOf` gives for references to other
 * constants as `constant` holes (filled later by `settleConstants`);
 * undefined for anything else.
 */
export function constantInitializer(
  node: Node,
  nameOf: (node: Node) => string | undefined,
  operator = "+",
  depth = 0,
): Value | undefined {
  if (depth > 8) return undefined;
  if (
    node.type === "parenthesized_expression" ||
    node.type === "parenthesized_statements"
  ) {
    const inner = node.namedChild(0);
    return inner
      ? constantInitializer(inner, nameOf, operator, depth + 1)
      : undefined;
  }
  // `binary_expression` in most grammars, `binary` in Ruby's
  if (node.type === "binary_expression" || node.type === "binary") {
    if (node.childForFieldName("operator")?.text !== operator) return undefined;
    const operands = [
      node.childForFieldName("left"),
      node.childForFieldName("right"),
    ].map((n) =>
      n ? constantInitializer(n, nameOf, operator, depth + 1) : undefined
    );
    return operands.every((v) => v !== undefined)
      ? concat(operands)
      : undefined;
  }
  const name = nameOf(node);
  if (name !== undefined) return hole(name, "constant");
  return evaluateStringNode(node, (e) => {
    const ref = nameOf(e);
    return ref === undefined ? hole(e.text) : hole(ref, "constant");
  });
}

/**
 * The value of a format call whose arguments are not read (`String.format`,
 * `sprintf`, `string.Format`): a format known to the letter with its
 * placeholders as holes, any other format as it is.
 */
export function formatValue(format: Value): Value {
  return exactText(format) === undefined ? format : formatPlaceholders(format);
}

/** Parentheses: `parenthesized_expression`, Ruby's `parenthesized_statements`. */
const PARENTHESIZED: ReadonlySet<string> = new Set([
  "parenthesized_expression",
  "parenthesized_statements",
]);
/** Binary operators: `binary_expression`, Ruby's `binary`. */
const BINARY: ReadonlySet<string> = new Set(["binary_expression", "binary"]);

/**
 * The operators the string evaluators read alike: a parenthesized
 * expression, and a concatenation with `operator` (`+`; PHP's `.`), their
 * operands by `evaluate`; undefined for any other node.
 */
export function evaluateOperators(
  node: Node,
  operator: string,
  evaluate: (operand: Node | null) => Value,
): Value | undefined {
  if (PARENTHESIZED.has(node.type)) return evaluate(node.namedChild(0));
  if (BINARY.has(node.type)) {
    return evaluateConcatenation(node, operator, evaluate);
  }
  return undefined;
}

/**
 * What the string evaluators of C#, PHP and Ruby read alike before their own
 * rules: a string literal, a parenthesized expression, a concatenation with
 * `operator` (see {@linkcode evaluateOperators}), with `evaluate` for what
 * they hold; undefined for any other node.
 */
export function evaluateStringExpression(
  node: Node,
  operator: string,
  evaluate: (expression: Node | null) => Value,
): Value | undefined {
  return evaluateStringNode(node, evaluate) ??
    evaluateOperators(node, operator, evaluate);
}
