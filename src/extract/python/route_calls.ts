// The route calls of the routers `PyRouters` reads: which method
// of which framework registers a route (`@app.get`, `add_url_rule`, Sanic
// `add_route`, Ninja `api_operation`...), its path, methods and version,
// and each framework's path parameters as `{name}`.
import { CONFIDENCE, exactText, mapText, type Value } from "../_value/mod.ts";
import {
  argument,
  attributeObject,
  classAttribute,
  keywordArg,
  positionalArgs,
  unwrap,
} from "./project.ts";
import { classOf, classVerbs } from "./classes.ts";
import { HTTP_VERBS } from "../_port/http.ts";
import type { PyProject } from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { Router, RouterFramework } from "./routers.ts";

/** The verb method names of routers and clients (`get`, `post`...). */
export const VERBS: ReadonlySet<string> = new Set([...HTTP_VERBS, "trace"]);

/** A route a router call declares. */
export interface Route {
  router: Router;
  path: Value;
  raw: string;
  methods: string[];
  confidence: number;
  version: string | undefined;
}

/**
 * A Flask converter `<name>`, `<int:name>` or `<regex("[a-z]+"):name>`. The
 * converter's arguments are bounded in length, so a rule of many `<a(` with
 * no closing parenthesis is matched in linear time.
 */
const FLASK_CONVERTER = /<(?:[\w.]+(?:\([^)]{0,256}\))?:)?(\w+)>/g;

/** A Django Ninja path with converters (`{int:id}`) as one with `{id}`. */
export function ninjaPath(value: Value): Value {
  return mapText(value, (text) => text.replace(/\{\w+:(\w+)\}/g, "{$1}"));
}

/**
 * A Sanic or Bottle path with parameters (`<id:int>`) as a path with `{id}`
 * ones.
 */
export function sanicRule(value: Value): Value {
  return mapText(value, (text) => text.replace(SANIC_PARAMETER, "{$1}"));
}

/** A Sanic parameter `<name>` or `<name:type>` (a bounded type pattern). */
const SANIC_PARAMETER = /<(\w+)(?::[^<>]{0,256})?>/g;

/** A Flask rule with converters (`<int:id>`) as a path with `{id}` parameters. */
export function flaskRule(value: Value): Value {
  return mapText(value, (text) => text.replace(FLASK_CONVERTER, "{$1}"));
}

/** A Sanic `version=` argument (a number or a string) as text. */
export function versionText(
  project: PyProject,
  node: Node,
): string | undefined {
  if (node.type === "integer" || node.type === "float") return node.text;
  return exactText(project.evalString(node));
}

/**
 * The route-registering methods of each framework: the argument that
 * holds the path (position, keyword) and the one that holds the handler,
 * or "websocket" for a WebSocket route (a GET upgrade).
 */
const ROUTE_METHODS: Readonly<
  Record<
    RouterFramework,
    ReadonlyMap<string, { path: [number, string]; view?: [number, string] }>
  >
> = {
  fastapi: new Map([
    ["api_route", { path: [0, "path"] }],
    ["add_api_route", { path: [0, "path"] }],
    ["websocket", { path: [0, "path"] }],
    ["add_api_websocket_route", { path: [0, "path"] }],
    ["websocket_route", { path: [0, "path"] }],
  ]),
  flask: new Map([
    ["route", { path: [0, "rule"] }],
    ["add_url_rule", { path: [0, "rule"], view: [2, "view_func"] }],
  ]),
  quart: new Map([
    ["route", { path: [0, "rule"] }],
    ["add_url_rule", { path: [0, "rule"], view: [2, "view_func"] }],
    ["websocket", { path: [0, "rule"] }],
    ["add_websocket", { path: [0, "rule"] }],
  ]),
  ninja: new Map([
    ["api_operation", { path: [1, "path"] }],
  ]),
  robyn: new Map([
    ["websocket", { path: [0, "endpoint"] }],
  ]),
  bottle: new Map([
    ["route", { path: [0, "path"] }],
  ]),
  sanic: new Map([
    ["route", { path: [0, "uri"] }],
    ["add_route", { path: [1, "uri"], view: [0, "handler"] }],
    ["websocket", { path: [0, "uri"] }],
    ["add_websocket_route", { path: [1, "uri"] }],
  ]),
};

/** The library bases of class-based views, whose verb methods are routes. */
const VIEW_BASES: ReadonlySet<string> = new Set([
  "flask.views.MethodView",
  "flask.views.View",
  "quart.views.MethodView",
  "quart.views.View",
  "sanic.views.HTTPMethodView",
]);

/** The route a call declares on a router, if it is a route call. */
export function routeOf(
  call: Node,
  routerOf: (expr: Node | null) => Router | undefined,
  project: PyProject,
): Route | undefined {
  const callee = call.childForFieldName("function");
  if (callee?.type !== "attribute") return undefined;
  const name = callee.childForFieldName("attribute")?.text ?? "";
  const isVerb = VERBS.has(name);
  if (!isVerb && !/route|rule|websocket|operation/.test(name)) return undefined;
  const router = routerOf(callee.childForFieldName("object"));
  if (!router) return undefined;
  const generic = ROUTE_METHODS[router.framework].get(name);
  if (!isVerb && !generic) return undefined;
  const args = call.childForFieldName("arguments");
  const [position, keyword] = generic?.path ?? [
    0,
    ROUTE_METHODS[
      router.framework
    ].values().next().value?.path[1] ?? "path",
  ];
  // `add_url_rule(view_func=v, rule="/x")`: the keyword wins
  const pathNode = keywordArg(args, keyword) ??
    (position === 0 ? argument(args, 0, keyword) : positionalArgs(args)[1]);
  if (!pathNode) return undefined;
  const path = project.evalString(pathNode);
  if (!path) return undefined;
  let methods: string[] = [];
  let confidence = 1;
  const versionNode = keywordArg(args, "version");
  const version = versionNode ? versionText(project, versionNode) : undefined;
  if (isVerb) methods = [name.toUpperCase()];
  else if (name.includes("websocket")) methods = ["GET"];
  else {
    const list = router.framework === "ninja"
      ? argument(args, 0, "methods")
      : keywordArg(args, "methods") ??
        (router.framework === "bottle"
          ? keywordArg(args, "method")
          : undefined);
    const view = generic?.view
      ? argument(args, generic.view[0], generic.view[1])
      : undefined;
    if (list) {
      const listed = project.methodList(list);
      methods = listed ?? ["ANY"];
      if (!listed) confidence = CONFIDENCE.weak;
    } else methods = (view && viewMethods(project, view)) ?? ["GET"];
  }
  return { router, path, raw: pathNode.text, methods, confidence, version };
}

/**
 * The methods of a class-based view handler (`View.as_view("name")`, or a
 * name bound to one): its `methods = [...]` attribute, else its verb
 * methods; undefined for a function handler or a class not followed.
 */
function viewMethods(project: PyProject, view: Node): string[] | undefined {
  let made = unwrap(view);
  if (made.type === "identifier") {
    const target = project.resolveExpr(made);
    if (target?.kind !== "value") return undefined;
    made = unwrap(target.node);
  }
  if (made.type !== "call") return undefined;
  const object = attributeObject(made.childForFieldName("function"), "as_view");
  const cls = object ? classOf(project, object) : undefined;
  if (!cls) return undefined;
  const listed = classAttribute(cls.node, "methods");
  if (listed) return project.methodList(listed);
  const verbs = classVerbs(project, cls, VIEW_BASES);
  if (!verbs.known || verbs.definitions.size === 0) return undefined;
  return [...verbs.definitions.keys()].map((v) => v.toUpperCase());
}
