// Tornado routes: the URL specs of `tornado.web.Application([...])` and
// `app.add_handlers(host, [...])` (tuples, `url(...)`, `URLSpec(...)`), a
// regex path each, with the verb methods of the `RequestHandler` class.
import { literal } from "../_value/mod.ts";
import { namedChildren } from "../_syntax/compact_tree.ts";
import {
  argument,
  positionalArgs,
  type PyModule,
  type PyProject,
  unwrap,
} from "./project.ts";
import { djangoRoute } from "./django.ts";
import { baseClasses, HANDLER_VERBS, libraryClass } from "./classes.ts";
import {
  classRoutePorts,
  type HandlerClasses,
  listItems,
} from "./route_lists.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";

const APPLICATIONS: ReadonlySet<string> = new Set([
  "tornado.web.Application",
]);
const URL_SPECS: ReadonlySet<string> = new Set([
  "tornado.web.url",
  "tornado.web.URLSpec",
  "tornado.routing.URLSpec",
]);
const HANDLERS: HandlerClasses = {
  framework: "tornado",
  bases: new Set([
    "tornado.web.RequestHandler",
    "tornado.websocket.WebSocketHandler",
    "tornado.web.StaticFileHandler",
    "tornado.web.RedirectHandler",
  ]),
  // RequestHandler.SUPPORTED_METHODS
  verb: (method) => HANDLER_VERBS.has(method) ? method : undefined,
  // a WebSocket handler answers the GET upgrade
  fallback: () => ["GET"],
};

/** The routes of the Tornado applications of a project. */
export function tornadoPorts(project: PyProject): ExtractedPort[] {
  if (!project.mentions("tornado")) return [];
  const ports: ExtractedPort[] = [];
  const seen = new Set<string>();
  const add = (item: Node, module: PyModule): void => {
    const key = `${module.name}:${item.startIndex}:${item.endIndex}`;
    if (seen.has(key)) return;
    seen.add(key);
    ports.push(...specPorts(project, module, item));
  };
  for (const module of project.list) {
    for (const call of module.calls) {
      const table = routeTable(project, call);
      for (const item of listItems(project, table)) {
        add(item, project.moduleOf(item) ?? module);
      }
    }
  }
  // module-level handler lists registered elsewhere (`default_handlers =
  // [(r"/users", UserHandler)]`): tuples whose handler is a RequestHandler
  for (const module of project.list) {
    for (const list of moduleLists(module)) {
      for (const item of listItems(project, list)) {
        const handler = item.type === "tuple"
          ? positionalArgs(item)[1]
          : undefined;
        if (handler && isHandlerClass(project, handler)) add(item, module);
      }
    }
  }
  return ports;
}

/** The lists assigned to names at the top level of a module. */
function moduleLists(module: PyModule): Node[] {
  const out: Node[] = [];
  for (const statement of namedChildren(module.tree.rootNode)) {
    if (statement.type !== "expression_statement") continue;
    const assignment = namedChildren(statement)[0];
    const right = assignment?.type === "assignment"
      ? assignment.childForFieldName("right")
      : undefined;
    if (right?.type === "list") out.push(right);
  }
  return out;
}

/** Whether an expression names a project subclass of a Tornado handler. */
function isHandlerClass(project: PyProject, expr: Node): boolean {
  const target = project.resolveExpr(unwrap(expr));
  if (target?.kind !== "class") return false;
  return baseClasses(target.node).some((base) =>
    HANDLERS.bases.has(libraryClass(project, unwrap(base)) ?? "")
  );
}

/** The route list of `Application(handlers)` or `add_handlers(host, handlers)`. */
function routeTable(project: PyProject, call: Node): Node | undefined {
  const callee = call.childForFieldName("function");
  if (!callee) return undefined;
  const args = call.childForFieldName("arguments");
  if (APPLICATIONS.has(project.externalName(callee) ?? "")) {
    return argument(args, 0, "handlers");
  }
  // `class App(tornado.web.Application)`: `super().__init__(handlers)`
  if (
    callee.type === "attribute" &&
    callee.childForFieldName("attribute")?.text === "__init__" &&
    /^super\(\s*\)$/.test(callee.childForFieldName("object")?.text ?? "")
  ) {
    const cls = enclosingClass(call);
    const bases = cls ? baseClasses(cls) : [];
    if (
      bases.some((b) =>
        APPLICATIONS.has(libraryClass(project, unwrap(b)) ?? "")
      )
    ) return argument(args, 0, "handlers");
  }
  if (
    callee.type !== "attribute" ||
    callee.childForFieldName("attribute")?.text !== "add_handlers"
  ) return undefined;
  const object = callee.childForFieldName("object");
  const made = object ? project.madeBy(object) : undefined;
  const maker = made?.childForFieldName("function");
  if (!maker || !APPLICATIONS.has(project.externalName(maker) ?? "")) {
    return undefined;
  }
  return argument(args, 1, "host_handlers");
}

function enclosingClass(node: Node): Node | undefined {
  for (let at = node.parent; at; at = at.parent) {
    if (at.type === "class_definition") return at;
  }
  return undefined;
}

/** The ports of one URL spec: `(r"/path", Handler, ...)` or `url(...)`. */
function specPorts(
  project: PyProject,
  module: PyModule,
  item: Node,
): ExtractedPort[] {
  const spec = unwrap(item);
  let parts: Node[];
  if (spec.type === "tuple" || spec.type === "list") {
    parts = positionalArgs(spec);
  } else if (spec.type === "call") {
    const callee = spec.childForFieldName("function");
    if (!URL_SPECS.has(callee ? project.externalName(callee) ?? "" : "")) {
      return [];
    }
    const args = spec.childForFieldName("arguments");
    parts = [argument(args, 0, "pattern"), argument(args, 1, "handler")]
      .filter((n): n is Node => n !== undefined);
  } else return [];
  const [pattern, handler] = parts;
  const path = pattern ? project.evalString(pattern) : undefined;
  if (!pattern || !path || !handler) return [];
  return classRoutePorts(project, {
    module,
    anchor: spec,
    handler,
    prefix: literal(""),
    path: djangoRoute(path, true),
    raw: pattern.text,
  }, HANDLERS);
}
