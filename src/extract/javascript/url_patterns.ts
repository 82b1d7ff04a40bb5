// Web-standard routes of a JavaScript/TypeScript file: `URLPattern` (with
// the method tests around it, and helpers that build patterns) and
// `Bun.serve({ routes })`.
import {
  findAncestor,
  namedChildren,
  type Node,
  stringValue,
} from "../_syntax/tree.ts";
import { literal, type Value } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import { routeGuard } from "./guarded.ts";
import {
  argList,
  constructorName,
  FUNCTION_TYPES,
  HTTP_METHODS,
  isPathish,
  isStringish,
  memberKey,
  methodTest,
  pairValue,
  propertyKey,
} from "./nodes.ts";
import { unwrap, valueOf } from "./values.ts";

export function collectPatternMethods(c: Collector): void {
  // `req.method === "GET" && pattern.test(req.url)`
  for (const node of c.nodes("call_expression")) {
    const callee = unwrap(node.childForFieldName("function")!);
    if (callee.type !== "member_expression") continue;
    const property = callee.childForFieldName("property")?.text;
    const object = unwrap(callee.childForFieldName("object")!);
    if (
      (property !== "test" && property !== "exec") ||
      object.type !== "identifier"
    ) continue;
    let up = node.parent;
    while (up && up.type === "parenthesized_expression") up = up.parent;
    if (
      up?.type !== "binary_expression" ||
      up.childForFieldName("operator")?.text !== "&&"
    ) {
      continue;
    }
    const method = methodTest(up);
    if (method) c.patternMethods.set(object.text, method);
  }
}

export function newExpr(
  c: Collector,
  node: Node,
): void {
  if (constructorName(node) !== "URLPattern") return;
  const binding = c.facts.imports.get("URLPattern");
  if (binding && binding.source !== "urlpattern-polyfill") return;
  const first = argList(node)[0];
  if (!first) return;
  const v = unwrap(first);
  let path: Value | undefined;
  if (v.type === "object") {
    const pathname = pairValue(v, "pathname");
    if (pathname) path = valueOf(pathname);
  } else if (isStringish(v)) {
    path = valueOf(v);
  }
  if (!path) return;
  if (helperParam(node, path) !== undefined) return;
  const head = path.parts[0];
  if (typeof head === "string" && !head.startsWith("/")) return;
  // { method: "GET", pattern: new URLPattern(...), handler }, and
  // [new URLPattern(...), handler] in a route table
  let method: string | undefined;
  let holder: Node | null = node.parent;
  if (holder?.type === "pair") holder = holder.parent;
  let handlers: Node[] = [];
  if (holder?.type === "object") {
    const m = pairValue(holder, "method");
    const mv = m && stringValue(unwrap(m))?.toUpperCase();
    if (mv && (HTTP_METHODS.has(mv) || mv === "ANY")) method = mv;
    handlers = namedChildren(holder).map((p) => p.childForFieldName("value"))
      .filter((n): n is Node => !!n && n.id !== node.id);
    // { pattern, methods: { GET: list, POST: create } }: a route per method
    if (!method) {
      const byMethod = handlers.map(methodHandlers).find((list) =>
        list.length > 0
      );
      if (byMethod) {
        methodRoutes(c, node, path, "urlpattern", byMethod);
        return;
      }
    }
  } else if (holder?.type === "array") {
    handlers = namedChildren(holder).filter((n) => n.id !== node.id);
  }
  if (!method && node.parent?.type === "variable_declarator") {
    const name = node.parent.childForFieldName("name")?.text;
    if (name) method = c.patternMethods.get(name);
  }
  c.facts.routes.push({
    ...c.site(node),
    methods: [method ?? "ANY"],
    path,
    framework: "urlpattern",
    ...(method ? {} : { weakMethod: true }),
    extra: {},
    ...routeGuard(handlers, c.guardScope),
  });
}

/** `{ GET: list, POST: create }`: each HTTP method key with its handler. */
export function methodHandlers(node: Node): Array<[string, Node]> {
  const v = unwrap(node);
  if (v.type !== "object") return [];
  const out: Array<[string, Node]> = [];
  for (const part of namedChildren(v)) {
    const key = memberKey(part);
    if (!key || key !== key.toUpperCase() || !HTTP_METHODS.has(key)) continue;
    out.push([
      key,
      part.type === "pair" ? part.childForFieldName("value")! : part,
    ]);
  }
  return out;
}

/** A route per method of a method map, each with its handler's guard. */
export function methodRoutes(
  c: Collector,
  site: Node,
  path: Value,
  framework: string,
  handlers: ReadonlyArray<readonly [string, Node]>,
): void {
  for (const [method, handler] of handlers) {
    c.facts.routes.push({
      ...c.site(site),
      methods: [method],
      path,
      framework,
      extra: {},
      ...routeGuard([handler], c.guardScope),
    });
  }
}

/** The URLPattern's pathname as one parameter of the enclosing function. */
export function helperParam(
  node: Node,
  path: Value,
): { name: string; index: number } | undefined {
  const only = path.parts.length === 1 ? path.parts[0] : undefined;
  if (!only || typeof only === "string" || only.hole !== "constant") {
    return undefined;
  }
  const fn = findAncestor(node, FUNCTION_TYPES);
  if (!fn) return undefined;
  const name = fn.childForFieldName("name")?.text ??
    (fn.parent?.type === "variable_declarator"
      ? fn.parent.childForFieldName("name")?.text
      : undefined);
  const params = fn.childForFieldName("parameters");
  if (!name || !params) return undefined;
  const list = namedChildren(params);
  for (let i = 0; i < list.length; i++) {
    const p = list[i]!;
    const id = p.type === "identifier" ? p : p.childForFieldName("pattern");
    if (id?.text === only.text) return { name, index: i };
  }
  return undefined;
}

export function patternHelper(
  c: Collector,
  node: Node,
): void {
  if (constructorName(node) !== "URLPattern") return;
  const first = argList(node)[0];
  if (!first) return;
  const v = unwrap(first);
  let pathname: Node | undefined;
  if (v.type === "object") pathname = pairValue(v, "pathname");
  else if (v.type === "identifier") pathname = v;
  if (!pathname) return;
  const helper = helperParam(node, valueOf(pathname));
  if (helper) c.patternHelpers.set(helper.name, helper.index);
}

/** `route("/posts", { GET: listPosts, POST: createPost })`. */
export function helperRoute(
  c: Collector,
  node: Node,
  args: Node[],
  index: number,
): void {
  const pathArg = args[index];
  if (!pathArg || !isPathish(pathArg)) return;
  const path = valueOf(pathArg);
  const head = path.parts[0];
  if (typeof head === "string" && !head.startsWith("/")) return;
  let found = false;
  for (const arg of args) {
    const o = unwrap(arg);
    if (o.type !== "object") continue;
    for (const pair of namedChildren(o)) {
      const key = memberKey(pair);
      const method = key?.toUpperCase();
      if (!method || key !== method || !HTTP_METHODS.has(method)) continue;
      const value = pair.type === "pair"
        ? pair.childForFieldName("value") ?? pair
        : pair;
      found = true;
      c.facts.routes.push({
        ...c.site(node),
        methods: [method],
        path,
        framework: "urlpattern",
        extra: {},
        ...routeGuard([value], c.guardScope),
      });
    }
  }
  if (!found) {
    c.facts.routes.push({
      ...c.site(node),
      methods: ["ANY"],
      path,
      framework: "urlpattern",
      weakMethod: true,
      extra: {},
    });
  }
}

export function bunRoutes(
  c: Collector,
  options: Node | undefined,
): void {
  if (!options) return;
  const o = unwrap(options);
  if (o.type !== "object") return;
  const fetch = pairValue(o, "fetch");
  if (fetch) serveRoute(c, fetch, fetch, "bun");
  const routes = localObject(c, pairValue(o, "routes"));
  if (!routes) return;
  for (const pair of namedChildren(routes)) {
    if (pair.type !== "pair") continue;
    const key = pair.childForFieldName("key");
    const path = key ? stringValue(key) : undefined;
    const value = pair.childForFieldName("value");
    if (path === undefined || !path.startsWith("/") || !value) continue;
    const v = unwrap(value);
    if (v.type === "object") {
      for (const inner of namedChildren(v)) {
        const name = inner.type === "pair"
          ? propertyKey(inner.childForFieldName("key"))
          : inner.type === "method_definition"
          ? inner.childForFieldName("name")?.text
          : undefined;
        const method = name?.toUpperCase();
        if (!method || !HTTP_METHODS.has(method)) continue;
        c.facts.routes.push({
          ...c.site(inner),
          methods: [method],
          path: literal(path),
          framework: "bun",
          extra: {},
          ...routeGuard(
            [inner.childForFieldName("value") ?? inner],
            c.guardScope,
          ),
        });
      }
    } else {
      c.facts.routes.push({
        ...c.site(pair),
        methods: ["ANY"],
        path: literal(path),
        framework: "bun",
        extra: {},
        ...routeGuard([v], c.guardScope),
      });
    }
  }
}

/** An object literal, written in place or held by a `const` of the file. */
function localObject(c: Collector, node: Node | undefined): Node | undefined {
  if (!node) return undefined;
  const v = unwrap(node);
  if (v.type === "object") return v;
  if (v.type !== "identifier" && v.type !== "shorthand_property_identifier") {
    return undefined;
  }
  const found = c.nodes("variable_declarator").filter((d) =>
    d.childForFieldName("name")?.text === v.text &&
    unwrap(d.childForFieldName("value") ?? d).type === "object"
  );
  return found.length === 1
    ? unwrap(found[0]!.childForFieldName("value")!)
    : undefined;
}

/**
 * A whole server's handler (`Deno.serve(h)`, `Bun.serve({ fetch: h })`,
 * the node adapter's `serve(h)`): a catch-all route when `h` is guarded,
 * since every path then needs its permission; nothing otherwise (an
 * application's own router is not one route).
 */
export function serveRoute(
  c: Collector,
  node: Node,
  handler: Node,
  framework: string,
): void {
  const guard = routeGuard([handler], c.guardScope);
  if (!guard.guard) return;
  c.facts.routes.push({
    ...c.site(node),
    methods: ["ANY"],
    path: literal("/*"),
    framework,
    extra: {},
    ...guard,
    onlyGuarded: true,
  });
}
