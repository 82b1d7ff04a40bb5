// Decorators of TypeScript controllers (NestJS, LoopBack): the
// `@Name(args)` calls a class and its methods carry, by the name they are
// imported under from a framework's module.
import { namedChildren, type Node } from "../_syntax/tree.ts";
import type { Collector } from "./collect.ts";
import { argList } from "./nodes.ts";

/** A decorator call imported from `source`: its imported name and args. */
export function importedDecorator(
  c: Collector,
  decorator: Node,
  source: string,
): { name: string; args: Node[] } | undefined {
  const expr = decorator.namedChild(0);
  if (expr?.type !== "call_expression") return undefined;
  const callee = expr.childForFieldName("function");
  if (callee?.type !== "identifier") return undefined;
  const binding = c.facts.imports.get(callee.text);
  if (binding?.source !== source) return undefined;
  return { name: binding.name, args: argList(expr) };
}

/** A class's decorators, also those written before its `export`. */
export function classDecorators(node: Node): Node[] {
  const decorators = namedChildren(node).filter((n) => n.type === "decorator");
  if (node.parent?.type === "export_statement") {
    decorators.push(
      ...namedChildren(node.parent).filter((n) => n.type === "decorator"),
    );
  }
  return decorators;
}

/** Each method of a class body with the decorators written before it. */
export function decoratedMethods(body: Node): Array<[Node, Node[]]> {
  const out: Array<[Node, Node[]]> = [];
  let pending: Node[] = [];
  for (const member of namedChildren(body)) {
    if (member.type === "decorator") {
      pending.push(member);
      continue;
    }
    if (member.type === "method_definition") out.push([member, pending]);
    pending = [];
  }
  return out;
}
