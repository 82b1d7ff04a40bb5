// LoopBack 4 controllers: methods decorated with `@get(path)`, `@post`,
// `@put`, `@patch`, `@del` or `@operation(verb, path)` from
// `@loopback/rest`, under the class's `@api({ basePath })`.
import type { Node } from "../_syntax/tree.ts";
import { literal, type Value } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import { methodLiteral, pairValue } from "./nodes.ts";
import { unwrap, valueOf } from "./values.ts";
import {
  classDecorators,
  decoratedMethods,
  importedDecorator,
} from "./decorators.ts";

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
  return importedDecorator(c, decorator, "@loopback/rest");
}

/** Reads the routes of a LoopBack controller class. */
export function loopbackClass(c: Collector, node: Node): void {
  const body = node.childForFieldName("body");
  if (!body) return;
  const decorators = classDecorators(node);
  let prefix: Value = literal("");
  for (const decorator of decorators) {
    const d = restDecorator(c, decorator);
    const spec = d?.name === "api" && d.args[0] ? unwrap(d.args[0]) : undefined;
    const base = spec?.type === "object"
      ? pairValue(spec, "basePath")
      : undefined;
    if (base) prefix = valueOf(base);
  }
  for (const [member, pending] of decoratedMethods(body)) {
    for (const decorator of pending) {
      const d = restDecorator(c, decorator);
      if (!d) continue;
      let method = DECORATORS[d.name];
      let path = d.args[0];
      if (d.name === "operation") {
        method = methodLiteral(d.args[0] ?? decorator);
        path = d.args[1];
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
}
