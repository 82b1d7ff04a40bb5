// Variables read without flow analysis: the last assignment to a local
// before its use in its function (or file), the first one to an instance
// variable in its class.
import type { Node } from "web-tree-sitter";
import { findAncestor, walk } from "./tree.ts";

/**
 * The value of the last `name = value` (an `assignment` node with `left`
 * and `right` fields) before `use` in the nearest of its ancestors whose
 * type is in `scopes`; undefined when there is none.
 */
export function lastAssignment(
  use: Node,
  scopes: ReadonlySet<string>,
  assignment: string,
): Node | undefined {
  const scope = findAncestor(use, scopes);
  if (!scope) return undefined;
  let found: Node | undefined;
  walk(scope, (n) => {
    if (n.startIndex >= use.startIndex) return false;
    if (
      n.type === assignment && n.childForFieldName("left")?.text === use.text
    ) {
      found = n.childForFieldName("right") ?? undefined;
    }
  });
  return found;
}

/**
 * The value of the first `name = value` (an `assignment` node) anywhere in
 * the nearest of the ancestors of `use` whose type is in `scopes` (an
 * instance variable's class), else below `use` itself.
 */
export function firstAssignment(
  use: Node,
  scopes: ReadonlySet<string>,
  assignment: string,
): Node | undefined {
  let found: Node | undefined;
  walk(findAncestor(use, scopes) ?? use, (n) => {
    if (found) return false;
    if (
      n.type === assignment && n.childForFieldName("left")?.text === use.text
    ) found = n.childForFieldName("right") ?? undefined;
  });
  return found;
}
