// LoopBack 4 controllers: methods decorated with `@get(path)`, `@post`,
// `@put`, `@patch`, `@del` or `@operation(verb, path)` from
// `@loopback/rest`, under the class's `@api({ basePath })`.
import { namedChildren, type Node, stringValue } from "../_syntax/tree.ts";
import { literal, type Value } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import { argList, HTTP_METHODS, pairValue } from "./nodes.ts";
import { unwrap, valueOf } from "./values.ts";

const DECORATORS: Readonly<Record<string, string>> = {
  get: "GET",
  post: "POST",
  put: "PUT",
  patch: "PATCH",
  del: "DELETE",
};

/** A `@name(args)` decorator of `@loopback/rest`: its imported name and args. */
function restDecorator(
  c: Collector,
  decorator: Node,
): { name: string; args: Node[] } | undefined {
  const expr = decorator.namedChild(0);
  if (expr?.type !== "call_expression") return undefined;
  const callee = expr.childForFieldName("function");
  if (callee?.type !== "identifier") return undefined;
  const binding = c.facts.imports.get(callee.text);
  if (binding?.source !== "@loopback/rest") return undefined;
  return { name: binding.name, args: argList(expr) };
}

/** Reads the routes of a LoopBack controller class. */
export function loopbackClass(c: Collector, node: Node): void {
  const body = node.childForFieldName("body");
  if (!body) return;
  const decorators = namedChildren(node).filter((n) => n.type === "decorator");
  if (node.parent?.type === "export_statement") {
    decorators.push(
      ...namedChildren(node.parent).filter((n) => n.type === "decorator"),
    );
  }
  let prefix: Value = literal("");
  for (const decorator of decorators) {
    const d = restDecorator(c, decorator);
    const spec = d?.name === "api" && d.args[0] ? unwrap(d.args[0]) : undefined;
    const base = spec?.type === "object"
      ? pairValue(spec, "basePath")
      : undefined;
    if (base) prefix = valueOf(base);
  }
  let pending: Node[] = [];
  for (const member of namedChildren(body)) {
    if (member.type === "decorator") {
      pending.push(member);
      continue;
    }
    if (member.type === "method_definition") {
      for (const decorator of pending) {
        const d = restDecorator(c, decorator);
        if (!d) continue;
        let method = DECORATORS[d.name];
        let path = d.args[0];
        if (d.name === "operation") {
          method = stringValue(unwrap(d.args[0] ?? decorator))?.toUpperCase();
          path = d.args[1];
          if (method && !HTTP_METHODS.has(method)) method = undefined;
        }
        if (!method || !path) continue;
        c.facts.routes.push({
          ...c.site(decorator, member),
          methods: [method],
          path: valueOf(path),
          prefix,
          framework: "loopback",
          extra: {},
        });
      }
    }
    pending = [];
  }
}
