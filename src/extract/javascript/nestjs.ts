// NestJS controllers: `@Controller(prefix)` classes and their
// `@Get`/`@Post`... methods.
import { namedChildren, type Node } from "../_syntax/tree.ts";
import { literal, type Value } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import { argList, NEST_DECORATORS, pairValue, pathValues } from "./nodes.ts";
import { unwrap } from "./values.ts";

export function nestName(
  c: Collector,
  decorator: Node,
): { name: string; args: Node[] } | undefined {
  const expr = decorator.namedChild(0);
  if (expr?.type !== "call_expression") return undefined;
  const callee = expr.childForFieldName("function");
  if (callee?.type !== "identifier") return undefined;
  const binding = c.facts.imports.get(callee.text);
  if (binding?.source !== "@nestjs/common") return undefined;
  return { name: binding.name, args: argList(expr) };
}

export function nestClass(
  c: Collector,
  node: Node,
): void {
  const decorators = namedChildren(node).filter((n) => n.type === "decorator");
  if (node.parent?.type === "export_statement") {
    decorators.push(
      ...namedChildren(node.parent).filter((n) => n.type === "decorator"),
    );
  }
  let prefixes: Value[] | undefined;
  for (const decorator of decorators) {
    const d = nestName(c, decorator);
    if (d?.name !== "Controller") continue;
    const arg = d.args[0];
    if (!arg) prefixes = [literal("")];
    else if (unwrap(arg).type === "object") {
      const path = pairValue(unwrap(arg), "path");
      prefixes = path ? pathValues(path) : [literal("")];
    } else prefixes = pathValues(arg);
  }
  if (!prefixes) return;
  const body = node.childForFieldName("body");
  if (!body) return;
  let pending: Node[] = [];
  for (const member of namedChildren(body)) {
    if (member.type === "decorator") {
      pending.push(member);
      continue;
    }
    if (member.type === "method_definition") {
      for (const decorator of pending) {
        const d = nestName(c, decorator);
        const method = d && NEST_DECORATORS[d.name];
        if (!d || !method) continue;
        const paths = d.args[0] ? pathValues(d.args[0]) : [literal("")];
        for (const prefix of prefixes) {
          for (const path of paths) {
            c.facts.routes.push({
              ...c.site(decorator, member),
              methods: [method],
              path,
              prefix,
              framework: "nestjs",
              nest: true,
              extra: {},
            });
          }
        }
      }
    }
    pending = [];
  }
}

// ---- Next.js ------------------------------------------------------
