// The calls of a root's files by the name they call, over the trees a
// two-pass extractor keeps: where a function's callers are looked for.
import type { Node } from "web-tree-sitter";
import type { KeptTrees } from "./passes.ts";
import { walk } from "./tree.ts";

/** Calls by callee name, across the kept trees and the file being read. */
export class CallIndex {
  readonly #kept: KeptTrees;
  readonly #nameOf: (node: Node) => string | undefined;
  #byName: Map<string, Node[]> | undefined;
  #ownTree: unknown;
  #own = new Map<string, Node[]>();

  /** `nameOf` gives the name a node calls, or undefined for other nodes. */
  constructor(kept: KeptTrees, nameOf: (node: Node) => string | undefined) {
    this.#kept = kept;
    this.#nameOf = nameOf;
  }

  /**
   * The calls of `name` in the kept trees, and in the tree of `root` when
   * it is not kept (a file beyond the memory budget sees its own calls).
   */
  calls(name: string, root?: Node): Node[] {
    if (!this.#byName) {
      this.#byName = new Map();
      for (const kept of this.#kept.roots()) {
        this.#collect(kept.root, this.#byName);
      }
    }
    const found = this.#byName.get(name) ?? [];
    if (!root || this.#kept.fileOf(root)) return found;
    if (this.#ownTree !== root.tree) {
      this.#ownTree = root.tree;
      this.#own = new Map();
      this.#collect(root, this.#own);
    }
    return [...found, ...this.#own.get(name) ?? []];
  }

  #collect(root: Node, into: Map<string, Node[]>): void {
    walk(root, (node) => {
      const name = this.#nameOf(node);
      if (name === undefined) return;
      const list = into.get(name);
      if (list) list.push(node);
      else into.set(name, [node]);
    });
  }
}
