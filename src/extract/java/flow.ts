// Values that flow into Java methods through their parameters: the calls of
// a method in the same file (a client class's private `get(String path)`
// helper called by its public methods), and the URL a wrapper builds at each.
import type { Node } from "web-tree-sitter";
import {
  type CallGraph,
  type Flowed,
  flowThroughCalls,
  type Value,
} from "../_value/mod.ts";
import { walk } from "../_syntax/tree.ts";
import type { JavaFile } from "./project.ts";

const METHODS: ReadonlySet<string> = new Set([
  "method_declaration",
  "constructor_declaration",
]);

/** The calls of a file's methods, and values through them. */
export class JavaCalls implements CallGraph<Node, Node> {
  readonly #file: JavaFile;
  readonly #root: Node;
  #byName: Map<string, Node[]> | undefined;

  constructor(file: JavaFile, root: Node) {
    this.#file = file;
    this.#root = root;
  }

  enclosing(at: Node): Node | undefined {
    let n: Node | null = at.parent;
    while (n && !METHODS.has(n.type)) n = n.parent;
    return n ?? undefined;
  }

  /** Calls by the method's name on `this` or no receiver, same arity. */
  sitesOf(fn: Node): Node[] {
    if (!this.#byName) {
      this.#byName = new Map();
      walk(this.#root, (node) => {
        if (node.type !== "method_invocation") return;
        const object = node.childForFieldName("object");
        if (object && object.type !== "this") return;
        const name = node.childForFieldName("name")?.text ?? "";
        this.#byName!.set(name, [...this.#byName!.get(name) ?? [], node]);
      });
    }
    const name = fn.childForFieldName("name")?.text ?? "";
    const arity = parameters(fn).length;
    return (this.#byName.get(name) ?? []).filter((call) =>
      (call.childForFieldName("arguments")?.namedChildCount ?? -1) === arity
    );
  }

  argument(fn: Node, site: Node, name: string): Value | undefined {
    const index = parameters(fn).indexOf(name);
    const argument = site.childForFieldName("arguments")?.namedChild(index);
    return index >= 0 && argument ? this.#file.evaluate(argument) : undefined;
  }

  /** The values `value` (read at `at`) takes through the file's calls. */
  expand(at: Node, value: Value): Flowed<Node>[] {
    return flowThroughCalls(this, at, value);
  }
}

/** The names of a method's formal parameters, in order. */
function parameters(fn: Node): string[] {
  return (fn.childForFieldName("parameters")?.namedChildren ?? [])
    .filter((p) => p?.type === "formal_parameter")
    .map((p) => p!.childForFieldName("name")?.text ?? "");
}
