// The table of a scan's string constants (`static final String X`, `const
// X = '...'`, `NAME = "..."`): each language says which declarations name
// one, this collects them the same way for all (`settleConstants` then fills
// the ones built from others).
import type { Node } from "web-tree-sitter";
import { walk } from "../_syntax/tree.ts";
import { constantInitializer } from "./literals.ts";
import type { Value } from "./value.ts";

/** A scan's string constants, by name (`X`, `C.X`, `C::X`). */
export type ConstantTable = Map<string, Value>;

/** A constant one declaration names. */
export interface DeclaredConstant {
  /** Its initializer. */
  value: Node;
  /** The constant a reference in the initializer names (`C.X`), if any. */
  nameOf: (node: Node) => string | undefined;
  /** The keys it is stored under, in place of an earlier one (`C.X`). */
  keys: readonly string[];
  /** The keys it takes only while no other constant has them (a bare `X`). */
  fallbacks?: readonly string[];
  /** The operator that joins its parts (`+`; PHP's `.`). */
  operator?: string;
}

/**
 * The constants a node declares (`[]`: none, and none below it either), or
 * `undefined` where the search goes on into its children.
 */
export type DeclaredConstants = (node: Node) => DeclaredConstant[] | undefined;

/**
 * Adds the constants `root` declares to a scan's table; one built from
 * others keeps them as `constant` holes until `settleConstants` fills them.
 */
export function collectDeclaredConstants(
  root: Node,
  constants: ConstantTable,
  declared: DeclaredConstants,
): void {
  walk(root, (node) => {
    const found = declared(node);
    if (!found) return;
    for (const constant of found) {
      const { value, nameOf, keys, fallbacks = [], operator } = constant;
      const v = constantInitializer(value, nameOf, operator);
      if (!v) continue;
      for (const key of keys) constants.set(key, v);
      for (const key of fallbacks) {
        if (!constants.has(key)) constants.set(key, v);
      }
    }
    return false;
  });
}

/**
 * A class's constant `X` (Java, C#): stored as `C.X`, and as `X` while no
 * other constant has that name (a reference from another class's file). In
 * its initializer a bare `Y` is the class's own `C.Y`; `qualified` reads a
 * reference through a class (`Paths.API`).
 */
export function memberConstant(
  className: string | undefined,
  name: string,
  value: Node,
  qualified: (node: Node) => string | undefined,
): DeclaredConstant {
  const own = (bare: string) => className ? `${className}.${bare}` : bare;
  const nameOf = (node: Node) =>
    node.type === "identifier" ? own(node.text) : qualified(node);
  return {
    value,
    nameOf,
    keys: className ? [own(name)] : [],
    fallbacks: [name],
  };
}
