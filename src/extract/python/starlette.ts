// Starlette routes: the `Route`, `WebSocketRoute` and `Mount` trees of
// `Starlette(routes=...)` and `Router(routes=...)` (mounted sub-apps and
// `StaticFiles` too), and the routes added to an app or router with
// `add_route` / `add_websocket_route` / `@app.route(...)`.
import { ownerOf } from "../_syntax/compact_tree.ts";
import { joinPaths, literal, mapText, underPrefix } from "../_value/mod.ts";
import { argument, keywordArg, unwrap } from "./project.ts";
import { classOf, classVerbs, type HttpPort, toPort } from "./classes.ts";
import { listItems } from "./route_lists.ts";
import type { Value } from "../_value/mod.ts";
import type { PyModule, PyProject } from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";

const APPS: ReadonlySet<string> = new Set([
  "starlette.applications.Starlette",
  "starlette.routing.Router",
]);
const ENDPOINT_BASES: ReadonlySet<string> = new Set([
  "starlette.endpoints.HTTPEndpoint",
]);
const MAX_DEPTH = 8;

/** The Starlette routes of a project. */
export function starlettePorts(project: PyProject): ExtractedPort[] {
  if (!project.mentions("starlette")) return [];
  // apps mounted in another app: walked from there, not as roots
  const mounted = new Set<string>();
  // app id -> the routes added to it by method calls
  const added = new Map<string, Array<{ module: PyModule; call: Node }>>();
  const roots: Array<{ module: PyModule; call: Node }> = [];
  for (const module of project.list) {
    for (const call of module.calls) {
      const name = project.calleeName(call);
      if (name && APPS.has(name)) roots.push({ module, call });
      else if (name === "starlette.routing.Mount") {
        const app = appId(
          project,
          argument(call.childForFieldName("arguments"), 1, "app"),
        );
        if (app) mounted.add(app);
      }
      const callee = call.childForFieldName("function");
      const method = callee?.type === "attribute"
        ? callee.childForFieldName("attribute")?.text
        : undefined;
      if (
        method === "add_route" || method === "add_websocket_route" ||
        method === "route" || method === "websocket_route"
      ) {
        const app = appId(project, callee?.childForFieldName("object"));
        if (app) added.set(app, [...added.get(app) ?? [], { module, call }]);
      }
    }
  }
  const ports: HttpPort[] = [];
  const walkApp = (call: Node, prefix: Value, depth: number): void => {
    const module = project.moduleOf(call);
    const id = module ? `${module.name}:${call.startIndex}` : "";
    const routes = argument(call.childForFieldName("arguments"), 0, "routes");
    walkList(routes, prefix, depth + 1);
    for (const { module, call: add } of added.get(id) ?? []) {
      ports.push(...addedRoute(project, module, add, prefix));
    }
  };
  const walkList = (
    list: Node | undefined,
    prefix: Value,
    depth: number,
  ): void => {
    if (depth > MAX_DEPTH) return;
    for (const item of listItems(project, list)) {
      const route = unwrap(item);
      if (route.type !== "call") continue;
      const module = project.moduleOf(route);
      const name = project.calleeName(route);
      const args = route.childForFieldName("arguments");
      const pathNode = argument(args, 0, "path");
      const path = pathNode ? project.evalString(pathNode) : undefined;
      if (!module || !pathNode || !path) continue;
      if (name === "starlette.routing.Mount") {
        const mountPath = starletteRoute(path);
        const inner = joinPaths(prefix, mountPath);
        const app = argument(args, 1, "app");
        const routes = keywordArg(args, "routes");
        if (routes) walkList(routes, inner, depth + 1);
        const made = app ? project.heldCall(app) : undefined;
        const maker = made ? project.calleeName(made) : undefined;
        if (made && maker && APPS.has(maker)) walkApp(made, inner, depth + 1);
        else if (maker && /(^|\.)StaticFiles$/.test(maker)) {
          const files = joinPaths(underPrefix(prefix, mountPath), "{path}");
          ports.push(port(module, route, "GET", files, pathNode.text));
        }
        continue;
      }
      const full = underPrefix(prefix, starletteRoute(path));
      if (name === "starlette.routing.WebSocketRoute") {
        ports.push(port(module, route, "GET", full, pathNode.text));
      } else if (name === "starlette.routing.Route") {
        for (const method of routeMethods(project, args, 1)) {
          ports.push(port(module, route, method, full, pathNode.text));
        }
      }
    }
  };
  for (const { module, call } of roots) {
    if (!mounted.has(`${module.name}:${call.startIndex}`)) {
      walkApp(call, literal(""), 0);
    }
  }
  return ports.map(toPort);
}

/** The methods of a `Route`: `methods=[...]`, an endpoint class's verbs, or GET. */
function routeMethods(
  project: PyProject,
  args: Node | null,
  endpointAt: number,
): string[] {
  const list = keywordArg(args, "methods");
  if (list) return project.methodList(list) ?? ["ANY"];
  const endpoint = argument(args, endpointAt, "endpoint");
  const cls = endpoint ? classOf(project, endpoint) : undefined;
  if (!cls) return ["GET"];
  const verbs = classVerbs(project, cls, ENDPOINT_BASES);
  return verbs.definitions.size > 0
    ? [...verbs.definitions.keys()].map((v) => v.toUpperCase())
    : ["ANY"];
}

/** The ports of `app.add_route(path, endpoint, methods=...)` and kin. */
function addedRoute(
  project: PyProject,
  module: PyModule,
  call: Node,
  prefix: Value,
): HttpPort[] {
  const callee = call.childForFieldName("function");
  const method = callee?.childForFieldName("attribute")?.text ?? "";
  const args = call.childForFieldName("arguments");
  const pathNode = argument(args, 0, "path");
  const path = pathNode ? project.evalString(pathNode) : undefined;
  if (!pathNode || !path) return [];
  const full = underPrefix(prefix, starletteRoute(path));
  const decorator = call.parent?.type === "decorator" ? call.parent : call;
  const methods = method.includes("websocket")
    ? ["GET"]
    : routeMethods(project, args, method === "route" ? 99 : 1);
  return methods.map((m) => port(module, decorator, m, full, pathNode.text));
}

function port(
  module: PyModule,
  anchor: Node,
  method: string,
  path: Value,
  raw: string,
): HttpPort {
  return {
    module,
    anchor,
    method,
    path,
    raw,
    confidence: 1,
    framework: "starlette",
    owner: ownerOf(anchor, module.file.path, "python"),
  };
}

/** The id of the Starlette app or router an expression holds. */
function appId(
  project: PyProject,
  expr: Node | undefined | null,
): string | undefined {
  const made = expr ? project.heldCall(expr) : undefined;
  const name = made ? project.calleeName(made) : undefined;
  const module = made ? project.moduleOf(made) : undefined;
  return made && module && name && APPS.has(name)
    ? `${module.name}:${made.startIndex}`
    : undefined;
}

/** A Starlette path with convertors (`{id:int}`) as one with `{id}`. */
function starletteRoute(value: Value): Value {
  return mapText(value, (text) => text.replace(/\{(\w+):\w+\}/g, "{$1}"));
}
