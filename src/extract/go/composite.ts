// Composite literals: the `Key: value` fields of `T{Key: value}` or of an
// element `{Key: value}` of a slice literal.
import { namedChildren, type Node } from "../_syntax/compact_tree.ts";

/** `Key: value` elements of a composite literal, by key. */
export function fieldsOf(node: Node): Map<string, Node> {
  const body = node.type === "composite_literal"
    ? node.childForFieldName("body")
    : node;
  const out = new Map<string, Node>();
  for (const element of body ? namedChildren(body) : []) {
    if (element.type !== "keyed_element") continue;
    const [key, value] = namedChildren(element).map((n) =>
      n.type === "literal_element" ? namedChildren(n)[0] ?? n : n
    );
    if (key && value) out.set(key.text, value);
  }
  return out;
}
