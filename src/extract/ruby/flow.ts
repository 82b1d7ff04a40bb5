// Values that flow into Ruby methods through their parameters: the calls of
// a method across the root (`get(path)` in its class, `Client.get(path)`,
// `client.get(path)` on an instance made with `Client.new`), the argument
// each passes for a parameter, and the URL a wrapper builds at each.
import type { Node } from "web-tree-sitter";
import { namedChildren } from "../_syntax/tree.ts";
import { type Arity, TreeCalls } from "../_syntax/calls.ts";
import type { RubyFile } from "./project.ts";
import { instanceValue } from "./clients.ts";

const METHODS: ReadonlySet<string> = new Set(["method", "singleton_method"]);

/** The name a Ruby call calls. */
export function rubyCalledName(node: Node): string | undefined {
  return node.type === "call"
    ? node.childForFieldName("method")?.text
    : undefined;
}

interface Parameter {
  name: string;
  keyword: boolean;
  optional: boolean;
}

/** The parameters of a method, in order (splats and blocks left out). */
function parametersOf(fn: Node): Parameter[] {
  const list = fn.childForFieldName("parameters");
  const out: Parameter[] = [];
  for (const p of list ? namedChildren(list) : []) {
    if (p.type === "identifier") {
      out.push({ name: p.text, keyword: false, optional: false });
    } else if (
      p.type === "optional_parameter" || p.type === "keyword_parameter"
    ) {
      out.push({
        name: p.childForFieldName("name")?.text ?? "",
        keyword: p.type === "keyword_parameter",
        optional: p.childForFieldName("value") !== null,
      });
    }
  }
  return out;
}

/**
 * The position of a method parameter an identifier names (keyword ones
 * included), or undefined when it names none.
 */
export function parameterIndex(identifier: Node): number | undefined {
  for (let n: Node | null = identifier.parent; n; n = n.parent) {
    if (n.type === "do_block" || n.type === "block" || n.type === "lambda") {
      const params = n.childForFieldName("parameters");
      if (
        params && namedChildren(params).some((p) => p.text === identifier.text)
      ) {
        return undefined;
      }
    }
    if (!METHODS.has(n.type)) continue;
    const index = parametersOf(n).findIndex((p) => p.name === identifier.text);
    return index === -1 ? undefined : index;
  }
  return undefined;
}

/** The calls of the root's methods, and values through them. */
export class RubyCalls extends TreeCalls<RubyFile> {
  constructor(file: RubyFile) {
    super(file, file.kept?.calls(rubyCalledName), METHODS, rubyCalledName);
  }

  arity(fn: Node): Arity {
    const positional = parametersOf(fn).filter((p) => !p.keyword);
    return {
      min: positional.filter((p) => !p.optional).length,
      max: positional.length,
    };
  }

  argumentCount(call: Node): number {
    return argumentsOf(call).filter((a) => a.type !== "pair").length;
  }

  reaches(fn: Node, call: Node): boolean {
    const owner = classOf(fn);
    const receiver = call.childForFieldName("receiver");
    if (!receiver || receiver.type === "self") return classOf(call) === owner;
    return owner !== undefined && this.#receiverClass(receiver) === owner;
  }

  /** The class a receiver is: `Client`, or a value made by `Client.new`. */
  #receiverClass(receiver: Node): string | undefined {
    if (receiver.type === "constant" || receiver.type === "scope_resolution") {
      return lastName(receiver.text);
    }
    const value = receiver.type === "identifier"
      ? this.file.localValue(receiver)
      : receiver.type === "instance_variable"
      ? instanceValue(receiver)
      : undefined;
    if (
      value?.type === "call" &&
      value.childForFieldName("method")?.text === "new"
    ) {
      return lastName(value.childForFieldName("receiver")?.text ?? "");
    }
    return undefined;
  }

  argumentNode(fn: Node, site: Node, name: string): Node | undefined {
    const params = parametersOf(fn);
    const param = params.find((p) => p.name === name);
    if (!param) return undefined;
    const args = argumentsOf(site);
    let node: Node | undefined;
    if (param.keyword) {
      node = args.find((a) =>
        a.type === "pair" &&
        a.childForFieldName("key")?.text.replace(/:$/, "") === name
      )?.childForFieldName("value") ?? undefined;
    } else {
      const index = params.filter((p) => !p.keyword).indexOf(param);
      node = args.filter((a) => a.type !== "pair")[index];
    }
    return node;
  }
}

function argumentsOf(call: Node): Node[] {
  const list = call.childForFieldName("arguments");
  return list ? namedChildren(list) : [];
}

function lastName(text: string): string {
  return text.slice(text.lastIndexOf("::") + 1).replace(/^:/, "");
}

/** The name of the class or module around a node. */
function classOf(node: Node): string | undefined {
  for (let n: Node | null = node.parent; n; n = n.parent) {
    if (n.type === "class" || n.type === "module") {
      return lastName(n.childForFieldName("name")?.text ?? "");
    }
  }
  return undefined;
}
