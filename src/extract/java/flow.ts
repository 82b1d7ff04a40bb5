// Values that flow into Java methods through their parameters: the calls of
// a method across the root (a client class's `get(String path)` helper
// called by its own methods or by services holding the client), and the URL
// a wrapper builds at each.
import type { Node } from "web-tree-sitter";
import { type Arity, TreeCalls } from "../_syntax/calls.ts";
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
export class JavaCalls extends TreeCalls<JavaFile> {
  constructor(file: JavaFile) {
    super(file, file.kept?.calls(javaCalledName), METHODS, javaCalledName);
  }

  arity(fn: Node): Arity {
    const count = parameters(fn).length;
    return { min: count, max: count };
  }

  argumentCount(call: Node): number {
    return call.childForFieldName("arguments")?.namedChildCount ?? -1;
  }

  reaches(fn: Node, call: Node): boolean {
    const owner = classOf(fn);
    const object = call.childForFieldName("object");
    if (!object || object.type === "this") return classOf(call) === owner;
    return object.text === owner || this.file.receiverType(object) === owner;
  }

  argumentNode(fn: Node, site: Node, name: string): Node | undefined {
    const index = parameters(fn).indexOf(name);
    if (index < 0) return undefined;
    return site.childForFieldName("arguments")?.namedChild(index) ?? undefined;
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
