// AdonisJS routes (`start/routes.ts`): `router.get(path, handler)` and the
// other verbs, `any`, `route(path, methods, handler)`, `on(path).render()`
// (GET), groups with `.prefix("/x")` (nested groups compose),
// `.prefix()` on one route, and `resource("posts.comments", Controller)`
// with `apiOnly()`, `only([...])` and `except([...])`. The router is the
// default import of `@adonisjs/core/services/router` (AdonisJS 6) or
// `@ioc:Adonis/Core/Route` (AdonisJS 5).
import { namedChildren, type Node, stringValue } from "../_syntax/tree.ts";
import { concat, literal, type Value } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import { argList, FUNCTION_TYPES, isPathish, pathValues } from "./nodes.ts";
import type { MemberCall } from "./nodes.ts";
import { unwrap, valueOf } from "./values.ts";
import { route } from "./routers.ts";

const ROUTER_MODULES: ReadonlySet<string> = new Set([
  "@adonisjs/core/services/router",
  "@ioc:Adonis/Core/Route",
]);

const VERBS: Readonly<Record<string, string[]>> = {
  get: ["GET"],
  post: ["POST"],
  put: ["PUT"],
  patch: ["PATCH"],
  delete: ["DELETE"],
  any: ["ANY"],
};

/** Resource actions: name, methods, path after the resource's own. */
const RESOURCE: ReadonlyArray<[string, string[], string]> = [
  ["index", ["GET"], ""],
  ["create", ["GET"], "/create"],
  ["store", ["POST"], ""],
  ["show", ["GET"], "/:id"],
  ["edit", ["GET"], "/:id/edit"],
  ["update", ["PUT", "PATCH"], "/:id"],
  ["destroy", ["DELETE"], "/:id"],
];

/** The most groups a route is nested in that are followed. */
const MAX_GROUPS = 32;

/** Whether `object` is the AdonisJS router. */
function isRouter(c: Collector, object: Node): boolean {
  const binding = c.lib(unwrap(object));
  return binding !== undefined && binding.name === "default" &&
    ROUTER_MODULES.has(binding.source);
}

/** The calls chained on `call`: `call.prefix("/x").middleware(...)`. */
function chained(call: Node): Array<{ name: string; args: Node[] }> {
  const out: Array<{ name: string; args: Node[] }> = [];
  let current = call;
  while (current.parent?.type === "member_expression") {
    const member = current.parent;
    const next = member.parent;
    if (next?.type !== "call_expression") break;
    const name = member.childForFieldName("property")?.text ?? "";
    out.push({ name, args: argList(next) });
    current = next;
  }
  return out;
}

/** The prefixes of a chain (`.prefix("/a")`), outermost last. */
function chainPrefix(chain: Array<{ name: string; args: Node[] }>): Value[] {
  const out: Value[] = [];
  for (const { name, args } of chain) {
    if (name === "prefix" && args[0] && isPathish(args[0])) {
      out.unshift(valueOf(args[0]));
    }
  }
  return out;
}

/** The prefixes of the groups a route call sits in, outermost first. */
function groupPrefix(c: Collector, node: Node): Value[] {
  const out: Value[] = [];
  let depth = 0;
  for (let at = node.parent; at && depth < MAX_GROUPS; at = at.parent) {
    if (!FUNCTION_TYPES.has(at.type)) continue;
    const args = at.parent;
    const call = args?.parent;
    if (args?.type !== "arguments" || call?.type !== "call_expression") {
      continue;
    }
    const callee = unwrap(call.childForFieldName("function")!);
    if (
      callee.type !== "member_expression" ||
      callee.childForFieldName("property")?.text !== "group" ||
      !isRouter(c, callee.childForFieldName("object")!)
    ) continue;
    depth++;
    out.unshift(...chainPrefix(chained(call)));
  }
  return out;
}

/** Records an AdonisJS route call; `false` when it is none. */
export function adonisCall(c: Collector, call: MemberCall): boolean {
  const { node, object, method, args } = call;
  if (!isRouter(c, object)) return false;
  const first = args[0];
  if (!first) return true;
  const chain = chained(node);
  let routes: Array<{ methods: string[]; path: Value }> = [];
  if (method in VERBS && args.length >= 2 && isPathish(first)) {
    routes = pathValues(first).map((path) => ({
      methods: VERBS[method]!,
      path,
    }));
  } else if (method === "route" && args[1] && isPathish(first)) {
    const list = unwrap(args[1]);
    const methods = (list.type === "array" ? namedChildren(list) : [list])
      .map((m) => stringValue(unwrap(m))?.toUpperCase())
      .filter((m): m is string => m !== undefined);
    if (methods.length > 0) routes = [{ methods, path: valueOf(first) }];
  } else if (method === "on" && isPathish(first)) {
    routes = [{ methods: ["GET"], path: valueOf(first) }];
  } else if (method === "resource") {
    routes = resourceRoutes(first, chain);
  } else return true;
  const prefix = [
    ...groupPrefix(c, node),
    ...chainPrefix(chain),
  ];
  for (const { methods, path } of routes) {
    route(
      c,
      node,
      undefined,
      methods,
      concat([...prefix, path]),
      "adonisjs",
      args,
    );
  }
  return true;
}

/** The routes of `resource("posts.comments", C).apiOnly()`. */
function resourceRoutes(
  name: Node,
  chain: Array<{ name: string; args: Node[] }>,
): Array<{ methods: string[]; path: Value }> {
  const text = stringValue(unwrap(name));
  if (!text) return [];
  const parts = text.split(".").filter((p) => p !== "");
  const base = parts.map((part, i) =>
    i < parts.length - 1 ? `/${part}/:${singular(part)}_id` : `/${part}`
  ).join("");
  let actions = RESOURCE.map(([action]) => action);
  for (const { name: call, args } of chain) {
    const listed = args[0] && unwrap(args[0]).type === "array"
      ? namedChildren(unwrap(args[0])).map((n) => stringValue(unwrap(n)))
      : [];
    if (call === "apiOnly") {
      actions = actions.filter((a) => a !== "create" && a !== "edit");
    } else if (call === "only") {
      actions = actions.filter((a) => listed.includes(a));
    } else if (call === "except") {
      actions = actions.filter((a) => !listed.includes(a));
    }
  }
  return RESOURCE.filter(([action]) => actions.includes(action)).map((
    [, methods, tail],
  ) => ({ methods, path: literal(base + tail) }));
}

/** `posts` → `post` (the parameter name AdonisJS gives a parent resource). */
function singular(word: string): string {
  return word.endsWith("s") ? word.slice(0, -1) : word;
}
