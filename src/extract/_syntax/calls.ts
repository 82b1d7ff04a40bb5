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

/** How many arguments a call of a function may pass. */
export interface Arity {
  min: number;
  max: number;
}

/** The file a call graph is read for. */
export interface CallsFile {
  /** The root node of the file's syntax tree, once it is read. */
  readonly rootNode: Node | undefined;
  /** The value of an argument. */
  evaluate(node: Node): Value;
}

/**
 * A language's call graph over syntax trees (see `CallGraph`) for one file
 * (`file`): the function around a position is the nearest node of one of
 * `functions`; the calls of a name are found across the trees of `index`
 * (else in the file's tree), and the values of arguments with the file's
 * `evaluate`. Subclasses tell how many arguments a call passes, which
 * receivers reach a function and what a call passes for a parameter.
 */
export abstract class TreeCalls<F extends CallsFile = CallsFile>
  implements CallGraph<Node, Node> {
  /** The file the graph is read for. */
  protected readonly file: F;
  readonly #index: CallIndex | undefined;
  readonly #functions: ReadonlySet<string>;
  readonly #nameOf: (node: Node) => string | undefined;

  constructor(
    file: F,
    index: CallIndex | undefined,
    functions: ReadonlySet<string>,
    nameOf: (node: Node) => string | undefined,
  ) {
    this.file = file;
    this.#index = index;
    this.#functions = functions;
    this.#nameOf = nameOf;
  }

  enclosing(at: Node): Node | undefined {
    return findAncestor(at, this.#functions) ?? undefined;
  }

  /** The calls of `name` the scan can see. */
  callsNamed(name: string): Node[] {
    const root = this.file.rootNode;
    if (this.#index) return this.#index.calls(name, root);
    const out: Node[] = [];
    if (!root) return out;
    walk(root, (node) => {
      if (this.#nameOf(node) === name) out.push(node);
    });
    return out;
  }

  /**
   * The calls of `fn`: the calls of its name that pass a number of
   * arguments it takes, on a receiver that reaches it.
   */
  sitesOf(fn: Node): Node[] {
    const name = fn.childForFieldName("name")?.text;
    if (!name) return [];
    const { min, max } = this.arity(fn);
    return this.callsNamed(name).filter((call) => {
      const count = this.argumentCount(call);
      return count >= min && count <= max && this.reaches(fn, call);
    });
  }

  /** How many arguments a call of `fn` may pass (matched by position). */
  abstract arity(fn: Node): Arity;
  /** How many arguments `call` passes (matched by position). */
  abstract argumentCount(call: Node): number;
  /** Whether `call`, by its receiver, calls `fn` (and not a namesake). */
  abstract reaches(fn: Node, call: Node): boolean;
  /** The argument node a call passes for the parameter `name` of `fn`. */
  abstract argumentNode(fn: Node, site: Node, name: string): Node | undefined;

  argument(fn: Node, site: Node, name: string): Value | undefined {
    const node = this.argumentNode(fn, site, name);
    return node ? this.file.evaluate(node) : undefined;
  }

  /** The values `value` (read at `at`) takes through the calls. */
  expand(at: Node, value: Value): Flowed<Node>[] {
    return flowThroughCalls(this, at, value);
  }
}
