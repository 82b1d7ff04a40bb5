// Values that flow into PHP functions and methods through their parameters:
// the calls of a function or method across the root, the argument each
// passes for a parameter, and the URL a wrapper builds or the group a route
// registrar is called in.
import type { Node } from "web-tree-sitter";
import { namedChildren } from "../_syntax/tree.ts";
import { type Arity, TreeCalls } from "../_syntax/calls.ts";
import {
  callArguments,
  enclosingClass,
  lastName,
  type PhpFile,
} from "./project.ts";
import { propertyValue } from "./clients.ts";

/** Named functions and methods: what callers call by name. */
export const PHP_FUNCTIONS: ReadonlySet<string> = new Set([
  "function_definition",
  "method_declaration",
]);

/** The name a PHP call calls (functions, methods, static methods). */
export function phpCalledName(node: Node): string | undefined {
  switch (node.type) {
    case "function_call_expression":
      return lastName(node.childForFieldName("function")?.text ?? "");
    case "member_call_expression":
    case "nullsafe_member_call_expression":
    case "scoped_call_expression":
      return node.childForFieldName("name")?.text;
    default:
      return undefined;
  }
}

/**
 * The calls of the root's functions (`f(...)`) and methods (`$this->m()`,
 * `self::m()`, `C::m()`, `$x->m()` on a receiver typed with the class), and
 * values through them.
 */
export class PhpCalls extends TreeCalls<PhpFile> {
  constructor(file: PhpFile) {
    super(file, file.kept?.calls(phpCalledName), PHP_FUNCTIONS, phpCalledName);
  }

  arity(fn: Node): Arity {
    const params = parametersOf(fn);
    return {
      min: params.filter((p) => !p.optional).length,
      max: params.length,
    };
  }

  argumentCount(call: Node): number {
    return callArguments(call).length;
  }

  reaches(fn: Node, call: Node): boolean {
    if (fn.type === "function_definition") {
      return call.type === "function_call_expression";
    }
    const owner = enclosingClass(fn);
    if (call.type === "scoped_call_expression") {
      const scope = call.childForFieldName("scope")?.text ?? "";
      return ["self", "static", "parent"].includes(scope)
        ? enclosingClass(call) === owner
        : lastName(scope) === owner;
    }
    if (call.type === "function_call_expression") return false;
    const object = call.childForFieldName("object");
    if (object?.text === "$this") return enclosingClass(call) === owner;
    return owner !== undefined && this.#receiverClass(object) === owner;
  }

  /** The class a receiver is typed with (parameter or property). */
  #receiverClass(object: Node | null): string | undefined {
    if (object?.type === "variable_name") {
      const type = this.file.parameter(object)?.childForFieldName("type");
      return type ? lastName(type.text.replace(/^\?/, "")) : undefined;
    }
    if (
      object?.type === "member_access_expression" &&
      object.childForFieldName("object")?.text === "$this"
    ) {
      const name = object.childForFieldName("name")?.text ?? "";
      const found = propertyValue(this.file, object, name);
      const type = found?.type === "object_creation_expression"
        ? namedChildren(found).find((c) => /name$/.test(c.type))?.text
        : found?.text;
      return type ? lastName(type.replace(/^\?/, "")) : undefined;
    }
    return undefined;
  }

  argumentNode(fn: Node, site: Node, name: string): Node | undefined {
    const index = parametersOf(fn).findIndex((p) => p.name === name);
    if (index === -1) return undefined;
    const args = callArguments(site);
    const bare = name.replace(/^\$/, "");
    return args.find((a) => a.name === bare)?.value ??
      (args.some((a) => a.name) ? undefined : args[index]?.value);
  }
}

/** The parameters of a function or method (`$name`), in order. */
function parametersOf(fn: Node): Array<{ name: string; optional: boolean }> {
  const list = fn.childForFieldName("parameters");
  return (list ? namedChildren(list) : []).map((p) => ({
    name: p.childForFieldName("name")?.text ?? "",
    optional: p.childForFieldName("default_value") !== null ||
      p.type === "variadic_parameter",
  }));
}
