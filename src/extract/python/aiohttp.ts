// aiohttp server routes: `app.router.add_get(path, handler)` and the other
// `add_*` methods, `add_route(method, path, handler)`, `add_view`,
// `add_static`, `app.add_routes([web.get(...), ...])`, `RouteTableDef`
// decorators, under the prefixes of `app.add_subapp(prefix, subapp)`. An
// application reaches a function through its parameter (`setup_routes(app)`).
import { ownerOf } from "../_syntax/compact_tree.ts";
import {
  joinPaths,
  literal,
  MAX_CALL_SITES,
  underPrefix,
} from "../_value/mod.ts";
import {
  argument,
  attributeObject,
  enclosingFunction,
  isParameter,
  unwrap,
} from "./project.ts";
import { classOf, classVerbs, type HttpPort, toPort } from "./classes.ts";
import { argumentFor, type PyFlow } from "./flow.ts";
import { listItems } from "./route_lists.ts";
import type { Value } from "../_value/mod.ts";
import type { PyModule, PyProject } from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort, PortOwner } from "../types.ts";

/**
 * The names of a class aiohttp exports from `aiohttp.web`: there, and in
 * the module `aiohttp.web_<module>` that defines it.
 */
function webClass(module: string, name: string): ReadonlySet<string> {
  return new Set([`aiohttp.web.${name}`, `aiohttp.web_${module}.${name}`]);
}

const APPLICATIONS = webClass("app", "Application");
const TABLES = webClass("routedef", "RouteTableDef");
const VIEW_BASES = webClass("urldispatcher", "View");
/** `router.add_get` ... and `web.get` ...: the verb of each. */
const ADD_VERBS: ReadonlyMap<string, string> = new Map([
  ["get", "GET"],
  ["post", "POST"],
  ["put", "PUT"],
  ["patch", "PATCH"],
  ["delete", "DELETE"],
  ["head", "HEAD"],
  ["options", "OPTIONS"],
]);
const MAX_DEPTH = 6;

/** A route before its prefixes: what a registration or route def declares. */
interface RouteDef {
  module: PyModule;
  anchor: Node;
  /** Methods, or the view class whose verb methods they are. */
  methods: string[] | Node;
  path: Value;
  raw: string;
  owner: PortOwner;
}

/** The aiohttp routes of a project. */
export function aiohttpPorts(
  project: PyProject,
  flow: PyFlow,
): ExtractedPort[] {
  if (!project.mentions("aiohttp")) return [];
  // application id -> the (parent, prefix) it is mounted under
  const mounts = new Map<string, Array<{ parent: string; prefix: Value }>>();
  // route table id -> the applications it is added to
  const tables = new Map<string, string[]>();
  // each call's parts read once (an alias is looked up in its block)
  const calls = project.list.flatMap((module) =>
    module.calls.map((call) => ({ module, call, ...parts(call) }))
  );
  const appsOf = (expr: Node | undefined): string[] =>
    expr ? applications(project, flow, withoutRouter(expr), 0) : [];
  for (const { method, object, args } of calls) {
    if (method === "add_subapp") {
      const prefix = project.evalString(argument(args, 0, "prefix"));
      for (const child of appsOf(argument(args, 1, "subapp"))) {
        for (const parent of appsOf(object)) {
          const list = mounts.get(child) ?? [];
          list.push({ parent, prefix: prefix ?? literal("") });
          mounts.set(child, list);
        }
      }
    } else if (method === "add_routes") {
      const table = idOf(project, argument(args, 0, "routes"), TABLES);
      if (table) {
        tables.set(table, [...tables.get(table) ?? [], ...appsOf(object)]);
      }
    }
  }
  const prefixesOf = (app: string, depth: number): Value[] => {
    const parents = mounts.get(app);
    if (!parents || depth > MAX_DEPTH) return [literal("")];
    return parents.flatMap(({ parent, prefix }) =>
      prefixesOf(parent, depth + 1).map((p) => joinPaths(p, prefix))
    );
  };
  const ports: HttpPort[] = [];
  const emit = (route: RouteDef, apps: string[]): void => {
    const prefixes = apps.length === 0
      ? [literal("")]
      : apps.flatMap((app) => prefixesOf(app, 0));
    const methods = Array.isArray(route.methods)
      ? route.methods.map((method) => ({ method, owner: route.owner }))
      : viewMethods(project, route.methods, route.owner);
    for (const prefix of prefixes) {
      const path = underPrefix(prefix, route.path);
      for (const { method, owner } of methods) {
        ports.push({
          module: route.module,
          anchor: route.anchor,
          method,
          path,
          raw: route.raw,
          confidence: 1,
          framework: "aiohttp",
          owner,
        });
      }
    }
  };
  for (const { module, call, method, object, args } of calls) {
    if (!method || !object) continue;
    if (method === "add_routes") {
      const apps = appsOf(object);
      if (apps.length === 0) continue;
      for (const item of listItems(project, argument(args, 0, "routes"))) {
        const route = routeDef(project, module, unwrap(item));
        if (route) emit(route, apps);
      }
      continue;
    }
    const table = idOf(project, object, TABLES);
    if (table) {
      // @routes.get("/path") on a handler, @routes.view("/path") on a class
      const route = tableRoute(project, module, call, method, args);
      if (route) emit(route, tables.get(table) ?? []);
      continue;
    }
    if (!method.startsWith("add_")) continue;
    // `app.router.add_get(...)`, or an alias `add = app.router.add_route`
    const apps = appsOf(object);
    if (apps.length === 0) continue;
    const route = routeDef(project, module, call, method.slice(4), args);
    if (route) emit(route, apps);
  }
  return ports.map(toPort);
}

/** `app` for `app.router`. */
function withoutRouter(expr: Node): Node {
  return attributeObject(expr, "router") ?? expr;
}

/** The method name, receiver and arguments of a method call (or alias). */
function parts(call: Node): {
  method: string | undefined;
  object: Node | undefined;
  args: Node | null;
} {
  const args = call.childForFieldName("arguments");
  let callee = call.childForFieldName("function") ?? undefined;
  if (callee?.type === "identifier") {
    // `add_route = app.router.add_route; add_route("GET", ...)`
    const assigned = aliasOf(callee);
    if (assigned) callee = assigned;
  }
  if (callee?.type !== "attribute") {
    return { method: undefined, object: undefined, args };
  }
  return {
    method: callee.childForFieldName("attribute")?.text,
    object: callee.childForFieldName("object") ?? undefined,
    args,
  };
}

/** The attribute an identifier is assigned in the same block, if any. */
function aliasOf(name: Node): Node | undefined {
  let block = name.parent;
  while (block && block.type !== "block" && block.type !== "module") {
    block = block.parent;
  }
  for (let i = 0; block && i < block.namedChildCount && i < 512; i++) {
    const statement = block.namedChild(i);
    const assignment = statement?.namedChild(0);
    if (
      assignment?.type === "assignment" &&
      assignment.childForFieldName("left")?.text === name.text &&
      assignment.childForFieldName("right")?.type === "attribute" &&
      assignment.endIndex <= name.startIndex
    ) return assignment.childForFieldName("right") ?? undefined;
  }
  return undefined;
}

/** The id of the object of a library class an expression holds. */
function idOf(
  project: PyProject,
  expr: Node | undefined,
  classes: ReadonlySet<string>,
): string | undefined {
  if (!expr) return undefined;
  const target = project.resolveExpr(unwrap(expr));
  if (target?.kind !== "value") return undefined;
  const made = unwrap(target.node);
  const maker = made.type === "call"
    ? made.childForFieldName("function")
    : undefined;
  if (!maker || !classes.has(project.externalName(maker) ?? "")) {
    return undefined;
  }
  return `${target.module.name}:${made.startIndex}`;
}

/** The applications an expression holds, through the callers' arguments. */
function applications(
  project: PyProject,
  flow: PyFlow,
  expr: Node,
  depth: number,
): string[] {
  const direct = idOf(project, expr, APPLICATIONS);
  if (direct) return [direct];
  const module = project.moduleOf(expr);
  const value = unwrap(expr);
  if (
    !module || depth > MAX_DEPTH || value.type !== "identifier" ||
    !isParameter(module, value)
  ) return [];
  const fn = enclosingFunction(module, value);
  if (!fn) return [];
  const out: string[] = [];
  for (const site of flow.sitesOf(fn).slice(0, MAX_CALL_SITES)) {
    const passed = argumentFor(fn, site.call, value.text);
    if (passed) out.push(...applications(project, flow, passed, depth + 1));
  }
  return [...new Set(out)];
}

/**
 * A route of `router.add_<kind>(...)` (kind `get`, `route`, `view`,
 * `static`...) or of a route def `web.get(...)` in an `add_routes` list.
 */
function routeDef(
  project: PyProject,
  module: PyModule,
  call: Node,
  kind?: string,
  args?: Node | null,
): RouteDef | undefined {
  if (kind === undefined) {
    if (call.type !== "call") return undefined;
    const callee = call.childForFieldName("function");
    const name = callee ? project.externalName(callee) ?? "" : "";
    const match = /^aiohttp\.web\.(\w+)$/.exec(name);
    if (!match) return undefined;
    kind = match[1]!;
    args = call.childForFieldName("arguments");
  }
  args ??= null;
  const owner = ownerOf(call, module.file.path, "python");
  const verb = ADD_VERBS.get(kind);
  let methods: string[] | Node | undefined;
  let pathNode: Node | undefined;
  if (verb) {
    methods = [verb];
    pathNode = argument(args, 0, "path");
  } else if (kind === "route") {
    const method = project.evalString(argument(args, 0, "method"));
    const text =
      method?.parts.length === 1 && typeof method.parts[0] === "string"
        ? method.parts[0]
        : undefined;
    if (!text || !/^(\*|[A-Za-z]+)$/.test(text)) return undefined;
    methods = [text === "*" ? "ANY" : text.toUpperCase()];
    pathNode = argument(args, 1, "path");
  } else if (kind === "view") {
    // the view class: the second argument, or the class decorated
    methods = argument(args, 1, "handler") ?? call;
    pathNode = argument(args, 0, "path");
  } else if (kind === "static") {
    methods = ["GET"];
    pathNode = argument(args, 0, "prefix");
  } else return undefined;
  const path = pathNode ? project.evalString(pathNode) : undefined;
  if (!pathNode || !path || !methods) return undefined;
  return {
    module,
    anchor: call,
    methods,
    path: kind === "static" ? joinPaths(path, "{filename}") : path,
    raw: pathNode.text,
    owner,
  };
}

/** A route of a `RouteTableDef` decorator, on the handler it decorates. */
function tableRoute(
  project: PyProject,
  module: PyModule,
  call: Node,
  method: string,
  args: Node | null,
): RouteDef | undefined {
  const decorator = call.parent?.type === "decorator" ? call.parent : undefined;
  const definition = decorator?.parent?.childForFieldName("definition");
  if (method === "static") return routeDef(project, module, call, method, args);
  if (!decorator || !definition) return undefined;
  const route = method === "view"
    ? routeDef(project, module, call, "route", null) ?? viewRoute()
    : routeDef(project, module, call, method, args);
  function viewRoute(): RouteDef | undefined {
    const pathNode = argument(args, 0, "path");
    const path = pathNode ? project.evalString(pathNode) : undefined;
    const name = definition?.childForFieldName("name");
    if (
      !pathNode || !path || definition?.type !== "class_definition" || !name
    ) {
      return undefined;
    }
    return {
      module,
      anchor: decorator!,
      methods: name,
      path,
      raw: pathNode.text,
      owner: ownerOf(definition, module.file.path, "python"),
    };
  }
  if (!route) return undefined;
  return {
    ...route,
    anchor: decorator,
    owner: ownerOf(definition, module.file.path, "python"),
  };
}

/** The verb methods of a class-based view (`web.View`), or a weak ANY. */
function viewMethods(
  project: PyProject,
  view: Node,
  owner: PortOwner,
): Array<{ method: string; owner: PortOwner }> {
  const cls = classOf(project, view);
  const verbs = cls ? classVerbs(project, cls, VIEW_BASES) : undefined;
  if (!verbs || verbs.definitions.size === 0) return [{ method: "ANY", owner }];
  return [...verbs.definitions].map(([verb, definition]) => ({
    method: verb.toUpperCase(),
    owner: ownerOf(definition.node, definition.module.file.path, "python"),
  }));
}
