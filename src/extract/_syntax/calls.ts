// The calls of a root's files by the name they call, over the trees a
// two-pass extractor keeps: where a function's callers are looked for, and
// the call graph values flow through.
import type { Node } from "web-tree-sitter";
import type { KeptTrees } from "./passes.ts";
import { findAncestor, walk } from "./tree.ts";
import {
  type CallGraph,
  type Flowed,
  flowThroughCalls,
} from "../_value/flow.ts";
import type { Value } from "../_value/value.ts";

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

/**
 * A language's call graph over syntax trees (see `CallGraph`): the
 * function around a position is the nearest node of one of `functions`;
 * the calls of a name are found across the kept trees (else in the tree
 * being read). Subclasses tell which calls reach a function and what a call
 * passes for a parameter.
 */
export abstract class TreeCalls implements CallGraph<Node, Node> {
  readonly #root: Node | undefined;
  readonly #index: CallIndex | undefined;
  readonly #functions: ReadonlySet<string>;
  readonly #nameOf: (node: Node) => string | undefined;

  constructor(
    root: Node | undefined,
    index: CallIndex | undefined,
    functions: ReadonlySet<string>,
    nameOf: (node: Node) => string | undefined,
  ) {
    this.#root = root;
    this.#index = index;
    this.#functions = functions;
    this.#nameOf = nameOf;
  }

  enclosing(at: Node): Node | undefined {
    return findAncestor(at, this.#functions) ?? undefined;
  }

  /** The calls of `name` the scan can see. */
  callsNamed(name: string): Node[] {
    if (this.#index) return this.#index.calls(name, this.#root);
    const out: Node[] = [];
    if (!this.#root) return out;
    walk(this.#root, (node) => {
      if (this.#nameOf(node) === name) out.push(node);
    });
    return out;
  }

  abstract sitesOf(fn: Node): readonly Node[];
  abstract argument(fn: Node, site: Node, name: string): Value | undefined;

  /** The values `value` (read at `at`) takes through the calls. */
  expand(at: Node, value: Value): Flowed<Node>[] {
    return flowThroughCalls(this, at, value);
  }
}
