// Values that flow into C# methods through their parameters: the calls of
// a method across the scan root (on its class, an instance of it, or as an
// extension method), the argument each passes for a parameter, and the URL a
// wrapper builds at each.
import type { Node } from "web-tree-sitter";
import { type Arity, TreeCalls } from "../_syntax/calls.ts";
import { calledName } from "./index.ts";
import { namedChildren } from "../_syntax/tree.ts";
import type { CSharpFile } from "./project.ts";

const METHODS: ReadonlySet<string> = new Set([
  "method_declaration",
  "constructor_declaration",
  "local_function_statement",
]);

/** The calls of the scan's methods, and values through them. */
export class CSharpCalls extends TreeCalls<CSharpFile> {
  constructor(file: CSharpFile) {
    super(file, file.index?.callIndex, METHODS, calledName);
  }

  /** An extension method's `this` parameter is its receiver. */
  arity(fn: Node): Arity {
    const params = parametersOf(fn);
    const receiver = params[0]?.extension === true ? 1 : 0;
    return {
      min: params.filter((p) => !p.optional).length - receiver,
      max: params.length - receiver,
    };
  }

  argumentCount(call: Node): number {
    return argumentsOf(call).length;
  }

  /**
   * `Name(...)` in its class, `x.Name(...)` on its class or a receiver of
   * its type, any `x.Name(...)` of an extension method.
   */
  reaches(fn: Node, call: Node): boolean {
    const extension = parametersOf(fn)[0]?.extension === true;
    const owner = classOf(fn);
    const callee = call.childForFieldName("function");
    if (callee?.type !== "member_access_expression") {
      return !extension && classOf(call) === owner;
    }
    if (extension) return true;
    const receiver = callee.childForFieldName("expression");
    if (!receiver || receiver.type === "this_expression") {
      return classOf(call) === owner;
    }
    return receiver.text === owner || this.file.typeOf(receiver) === owner;
  }

  /** The argument node a call passes for the parameter `name` of `fn`. */
  argumentNode(fn: Node, site: Node, name: string): Node | undefined {
    const params = parametersOf(fn);
    let index = params.findIndex((p) => p.name === name);
    if (index === -1) return undefined;
    const callee = site.childForFieldName("function");
    if (
      params[0]?.extension && callee?.type === "member_access_expression"
    ) {
      if (index === 0) {
        return callee.childForFieldName("expression") ?? undefined;
      }
      index -= 1;
    }
    const args = argumentsOf(site);
    const named = args.find((a) => a.childForFieldName("name")?.text === name);
    const arg = named ??
      (args.some((a) => a.childForFieldName("name")) ? undefined : args[index]);
    const list = arg ? namedChildren(arg) : [];
    return list[list.length - 1];
  }
}

interface Parameter {
  name: string;
  optional: boolean;
  extension: boolean;
}

/** The parameters of a method, in order. */
export function parametersOf(fn: Node): Parameter[] {
  const list = fn.childForFieldName("parameters") ??
    namedChildren(fn).find((c) => c.type === "parameter_list");
  return (list ? namedChildren(list) : [])
    .filter((p) => p.type === "parameter")
    .map((p) => {
      const children = namedChildren(p);
      const name = p.childForFieldName("name");
      return {
        name: name?.text ?? "",
        // a default value follows the name
        optional: children.some((c) => name && c.startIndex > name.endIndex),
        extension: children.some((c) =>
          c.type === "modifier" && c.text === "this"
        ),
      };
    });
}

function argumentsOf(call: Node): Node[] {
  const list = call.childForFieldName("arguments");
  return list ? namedChildren(list).filter((a) => a.type === "argument") : [];
}

/** The name of the class (or struct, record) around a node. */
function classOf(node: Node): string | undefined {
  for (let n: Node | null = node.parent; n; n = n.parent) {
    if (
      n.type === "class_declaration" || n.type === "struct_declaration" ||
      n.type === "record_declaration"
    ) return n.childForFieldName("name")?.text;
  }
  return undefined;
}
