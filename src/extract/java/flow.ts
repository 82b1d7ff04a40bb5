// Values that flow into Java methods through their parameters: the calls of
// a method across the root (a client class's `get(String path)` helper
// called by its own methods or by services holding the client), and the URL
// a wrapper builds at each.
import type { Node } from "web-tree-sitter";
import type { Value } from "../_value/mod.ts";
import { type CallIndex, TreeCalls } from "../_syntax/calls.ts";
import type { JavaFile } from "./project.ts";

const METHODS: ReadonlySet<string> = new Set([
  "method_declaration",
  "constructor_declaration",
]);

/** The name a Java method invocation calls. */
export function javaCalledName(node: Node): string | undefined {
  return node.type === "method_invocation"
    ? node.childForFieldName("name")?.text
    : undefined;
}

/**
 * The calls of the root's methods (`name(...)`/`this.name(...)` in the
 * method's class, `C.name(...)` and `x.name(...)` on a receiver of its
 * class), and values through them.
 */
export class JavaCalls extends TreeCalls {
  readonly #file: JavaFile;

  constructor(file: JavaFile, root: Node, index?: CallIndex) {
    super(root, index, METHODS, javaCalledName);
    this.#file = file;
  }

  sitesOf(fn: Node): Node[] {
    const name = fn.childForFieldName("name")?.text ?? "";
    const arity = parameters(fn).length;
    const owner = classOf(fn);
    return this.callsNamed(name).filter((call) => {
      const count = call.childForFieldName("arguments")?.namedChildCount;
      if (count !== arity) return false;
      const object = call.childForFieldName("object");
      if (!object || object.type === "this") return classOf(call) === owner;
      return object.text === owner ||
        this.#file.receiverType(object) === owner;
    });
  }

  argument(fn: Node, site: Node, name: string): Value | undefined {
    const index = parameters(fn).indexOf(name);
    const argument = site.childForFieldName("arguments")?.namedChild(index);
    return index >= 0 && argument ? this.#file.evaluate(argument) : undefined;
  }
}

/** The name of the class (or interface, enum, record) around a node. */
function classOf(node: Node): string | undefined {
  for (let n: Node | null = node.parent; n; n = n.parent) {
    if (/^(class|interface|enum|record)_declaration$/.test(n.type)) {
      return n.childForFieldName("name")?.text;
    }
  }
  return undefined;
}

/** The names of a method's formal parameters, in order. */
function parameters(fn: Node): string[] {
  return (fn.childForFieldName("parameters")?.namedChildren ?? [])
    .filter((p) => p?.type === "formal_parameter")
    .map((p) => p!.childForFieldName("name")?.text ?? "");
}
