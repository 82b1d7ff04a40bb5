// Values that flow into Rust functions through their parameters: `format!`
// arguments (positional, named and captured), the calls of a function or
// method across the root, the argument each passes for a parameter, and the
// URL a client wrapper builds at each.
import { namedChildren, type Node } from "../_syntax/tree.ts";
import {
  type CallGraph,
  type Flowed,
  flowThroughCalls,
  formatBraces,
  hole,
  type Value,
} from "../_value/mod.ts";
import { argsOf, methodCall, unwrap } from "./nodes.ts";
import type { RustScan } from "./project.ts";

/**
 * `format!("{}/users/{id}", base, id = x)`: the format string's fields
 * take the arguments that are single tokens (a literal or a name; other
 * expressions are holes), named arguments, and names captured from scope.
 */
export function formatMacro(
  scan: RustScan,
  tokens: Node,
  depth: number,
): Value | undefined {
  const groups: Node[][] = [[]];
  for (let i = 1; i < tokens.childCount - 1; i++) {
    const token = tokens.child(i);
    if (!token) continue;
    if (token.type === ",") groups.push([]);
    else groups[groups.length - 1]!.push(token);
  }
  const [format, ...rest] = groups;
  if (format?.length !== 1) return undefined;
  const template = scan.evaluate(format[0], depth + 1);
  const args: Array<Value | undefined> = [];
  const named = new Map<string, Value | undefined>();
  for (const group of rest) {
    if (group.length === 3 && group[1]?.type === "=") {
      named.set(group[0]!.text, single(scan, group[2]!, depth));
    } else {
      args.push(
        group.length === 1 ? single(scan, group[0]!, depth) : undefined,
      );
    }
  }
  // names captured from scope: `format!("/users/{id}")`
  for (const part of template.parts) {
    if (typeof part !== "string") continue;
    for (const m of part.matchAll(/\{([A-Za-z_]\w*)(?::[^}]*)?\}/g)) {
      if (!named.has(m[1]!)) {
        named.set(m[1]!, scan.nameValue(m[1]!, tokens, depth));
      }
    }
  }
  return formatBraces(template, args, named);
}

function single(scan: RustScan, token: Node, depth: number): Value | undefined {
  return token.type === "identifier"
    ? scan.nameValue(token.text, token, depth)
    : /literal$/.test(token.type)
    ? scan.evaluate(token, depth + 1)
    : undefined;
}

/** A function's parameters by name (the `self` parameter left out). */
export function parameterNames(fn: Node): string[] {
  const list = fn.childForFieldName("parameters");
  return (list ? namedChildren(list) : [])
    .filter((p) => p.type === "parameter")
    .map((p) => p.childForFieldName("pattern")?.text ?? "");
}

/** Whether a function takes `self` (a method of an `impl`). */
function isMethod(fn: Node): boolean {
  const list = fn.childForFieldName("parameters");
  return (list ? namedChildren(list) : []).some((p) =>
    p.type === "self_parameter"
  );
}

/** The type an `impl` block around a node is for (`Api` of `impl Api`). */
export function implType(node: Node): string | undefined {
  for (let n: Node | null = node.parent; n; n = n.parent) {
    if (n.type === "impl_item") {
      const type = n.childForFieldName("type")?.text ?? "";
      return type.replace(/<.*$/s, "").split("::").pop();
    }
  }
  return undefined;
}

/**
 * The calls of the root's functions (`f(...)`, `module::f(...)` where the
 * use refers to it) and methods (`self.m(...)` in the same `impl`,
 * `x.m(...)` on a receiver of its type), and values through them.
 */
export class RustCalls implements CallGraph<Node, Node> {
  readonly #scan: RustScan;

  constructor(scan: RustScan) {
    this.#scan = scan;
  }

  enclosing(at: Node): Node | undefined {
    return this.#scan.enclosingFunction(at);
  }

  sitesOf(fn: Node): Node[] {
    const name = fn.childForFieldName("name")?.text ?? "";
    const arity = parameterNames(fn).length;
    const home = this.#scan.fileOf(fn);
    if (!home) return [];
    if (!isMethod(fn)) {
      return this.#scan.uses(name).flatMap((use) => {
        const site = use.parent?.type === "scoped_identifier"
          ? use.parent
          : use;
        const call = site.parent;
        return call?.type === "call_expression" &&
            argsOf(call).length === arity && this.#scan.refersTo(use, home)
          ? [call]
          : [];
      });
    }
    const owner = implType(fn);
    return this.#scan.methodCalls(name).filter((call) => {
      if (argsOf(call).length !== arity) return false;
      const receiver = unwrap(methodCall(call)!.receiver);
      if (receiver.type === "self") return implType(call) === owner;
      const type = this.#scan.typeOf(receiver);
      return owner !== undefined &&
        type?.replace(/<.*$/s, "").split("::").pop() === owner;
    });
  }

  argument(fn: Node, site: Node, name: string): Value | undefined {
    const index = parameterNames(fn).indexOf(name);
    const arg = index === -1 ? undefined : argsOf(site)[index];
    return arg ? this.#scan.evaluate(arg) : undefined;
  }

  /** The values `value` (read at `at`) takes through the root's calls. */
  expand(at: Node, value: Value): Flowed<Node>[] {
    return flowThroughCalls(this, at, value);
  }
}

/** A parameter hole, or undefined when `name` is no parameter of `fn`. */
export function parameterValue(
  fn: Node | undefined,
  name: string,
): Value | undefined {
  return fn && parameterNames(fn).includes(name)
    ? hole(name, "parameter")
    : undefined;
}
