// Values of JavaScript/TypeScript expressions: string literals, templates,
// `+` concatenations, names of constants (a `constant` hole the project
// resolves later, possibly across files) and environment reads.
import { type Node, stringParts } from "../_syntax/tree.ts";
import { composed, concat, hole, literal, type Value } from "../_value/mod.ts";

const WRAPPERS: ReadonlySet<string> = new Set([
  "parenthesized_expression",
  "as_expression",
  "satisfies_expression",
  "non_null_expression",
  "type_assertion",
]);

/** Strips parentheses and TypeScript-only wrappers (`as`, `!`, `satisfies`). */
export function unwrap(node: Node): Node {
  let current = node;
  while (WRAPPERS.has(current.type)) {
    // `(x)`, `x as T`, `x!`, `x satisfies T`, `<T>x`: the expression is the
    // first named child (a type assertion's is the type)
    const inner = current.type === "type_assertion"
      ? current.namedChild(1)
      : current.namedChild(0);
    if (!inner) break;
    current = inner;
  }
  return current;
}

/**
 * The value of an expression: string literals, templates, `+`
 * concatenations, identifiers and `A.b` member references (holes of a
 * `constant` named `A.b`), `process.env.X` (an `env` hole) and
 * `process.env.X ?? "default"` (the default, resolved from elsewhere).
 */
export function valueOf(node: Node, depth = 0): Value {
  const expr = unwrap(node);
  if (depth > 16) return hole(expr.text);
  const parts = stringParts(expr);
  if (parts) {
    return concat(
      parts.map((part) =>
        typeof part === "string" ? literal(part) : valueOf(part, depth + 1)
      ),
    );
  }
  switch (expr.type) {
    case "identifier":
    case "shorthand_property_identifier":
      return hole(expr.text, "constant");
    case "member_expression": {
      if (isEnvRead(expr)) return hole(expr.text, "env");
      const object = expr.childForFieldName("object");
      const property = expr.childForFieldName("property");
      if (
        object?.type === "identifier" &&
        property?.type === "property_identifier"
      ) {
        return hole(`${object.text}.${property.text}`, "constant");
      }
      return hole(expr.text);
    }
    case "binary_expression": {
      const operator = expr.childForFieldName("operator")?.text;
      const left = expr.childForFieldName("left");
      const right = expr.childForFieldName("right");
      if (!left || !right) return hole(expr.text);
      if (operator === "+") return plusChain(expr, depth);
      if ((operator === "??" || operator === "||") && isEnvRead(left)) {
        return composed(valueOf(right, depth + 1));
      }
      return hole(expr.text);
    }
    default:
      return isEnvRead(expr) ? hole(expr.text, "env") : hole(expr.text);
  }
}

/**
 * `a + b + c + ...`: the left-nested chain the parser builds is walked down
 * its left spine in a loop, so a chain of any length (a generated
 * `"/x" + "a" + "a" + ...` of 50,000 terms) keeps its value instead of
 * ending in a hole at the depth limit.
 */
function plusChain(expr: Node, depth: number): Value {
  const rights: Node[] = [];
  let node = expr;
  for (;;) {
    const right = node.childForFieldName("right");
    const left = node.childForFieldName("left");
    if (!left || !right) return hole(expr.text);
    rights.push(right);
    const next = unwrap(left);
    if (
      next.type !== "binary_expression" ||
      next.childForFieldName("operator")?.text !== "+"
    ) {
      node = left;
      break;
    }
    node = next;
  }
  const values = [valueOf(node, depth + 1)];
  for (let i = rights.length - 1; i >= 0; i--) {
    values.push(valueOf(rights[i]!, depth + 1));
  }
  return concat(values);
}

/** `process.env.X`, `process.env["X"]`, `Deno.env.get("X")`, `Bun.env.X`. */
export function isEnvRead(node: Node): boolean {
  const text = unwrap(node).text;
  return /^(process\.env|Bun\.env|import\.meta\.env)(\.|\[)/.test(text) ||
    /^Deno\.env\.get\(/.test(text);
}
