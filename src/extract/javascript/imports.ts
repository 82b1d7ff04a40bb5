// The names an ES `import` statement binds, read from either tree: the
// collector reads WASM trees, the Temporal reader compact ones.
import type { ImportBinding } from "./facts.ts";

/** What the import reader reads of a node of either tree. */
export interface ImportNode<N> {
  readonly type: string;
  readonly text: string;
  childForFieldName(name: string): N | null;
}

/** The readers of the tree a statement is in (WASM or compact). */
export interface TreeReaders<N> {
  namedChildren(node: N): N[];
  stringValue(node: N): string | undefined;
}

/**
 * The local names an `import` statement binds, each with its module and the
 * name it has there (`default`; `*` for a namespace): `import a, * as b from
 * "m"`, `import { c, d as e } from "m"`. None when the module is no literal.
 */
export function importedNames<N extends ImportNode<N>>(
  statement: N,
  tree: TreeReaders<N>,
): Array<[string, ImportBinding]> {
  const source = statement.childForFieldName("source");
  const from = source ? tree.stringValue(source) : undefined;
  const out: Array<[string, ImportBinding]> = [];
  if (from === undefined) return out;
  for (const clause of tree.namedChildren(statement)) {
    if (clause.type !== "import_clause") continue;
    for (const part of tree.namedChildren(clause)) {
      if (part.type === "identifier") {
        out.push([part.text, { source: from, name: "default" }]);
      } else if (part.type === "namespace_import") {
        const id = tree.namedChildren(part).find((n) =>
          n.type === "identifier"
        );
        if (id) out.push([id.text, { source: from, name: "*" }]);
      } else if (part.type === "named_imports") {
        for (const spec of tree.namedChildren(part)) {
          if (spec.type !== "import_specifier") continue;
          const name = spec.childForFieldName("name")?.text;
          const alias = spec.childForFieldName("alias")?.text ?? name;
          if (name && alias) out.push([alias, { source: from, name }]);
        }
      }
    }
  }
  return out;
}
