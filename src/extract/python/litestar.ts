// Litestar routes: handlers decorated `@get("/path")` (the other verbs,
// `@route(..., http_method=[...])`, `@websocket`), with one path or a list,
// under the paths of the `Controller` classes that hold them and of the
// `Router(path=..., route_handlers=[...])`s and `Litestar(route_handlers=
// [...])` that register them. A handler registered nowhere is at the root.
import { namedChildren, ownerOf } from "../_syntax/compact_tree.ts";
import { joinPaths, literal, mapText, underPrefix } from "../_value/mod.ts";
import {
  argument,
  classAttribute,
  decoratorOf,
  keywordArg,
  unwrap,
} from "./project.ts";
import { classMembers, type HttpPort, toPort } from "./classes.ts";
import { listItems } from "./route_lists.ts";
import type { Value } from "../_value/mod.ts";
import type { Decorated, PyModule, PyProject } from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";

const HANDLER =
  /^litestar(?:\.handlers(?:\.\w+)*)?\.(get|post|put|patch|delete|head|route|websocket|websocket_listener|websocket_stream)$/;
const APP = /^litestar(?:\.app)?\.Litestar$/;
const ROUTER = /^litestar(?:\.router)?\.Router$/;
const MAX_DEPTH = 8;

interface Handler {
  module: PyModule;
  decorator: Node;
  definition: Node;
  methods: string[];
  paths: Array<{ value: Value; raw: string }>;
}

/** The Litestar routes of a project. */
export function litestarPorts(project: PyProject): ExtractedPort[] {
  if (!project.mentions("litestar")) return [];
  // handler definitions by position, found from their decorators
  const handlers = new Map<string, Handler>();
  const roots: Node[] = [];
  for (const module of project.list) {
    for (const call of module.calls) {
      const name = project.calleeName(call);
      if (!name) continue;
      if (APP.test(name)) roots.push(call);
      const kind = HANDLER.exec(name)?.[1];
      const decorated = decoratorOf(call);
      if (!kind || !decorated) continue;
      const handler = handlerOf(project, module, call, kind, decorated);
      if (handler) handlers.set(key(module, decorated.definition), handler);
    }
  }
  const ports: HttpPort[] = [];
  const reached = new Set<Handler>();
  const emit = (handler: Handler, prefix: Value): void => {
    reached.add(handler);
    for (const { value, raw } of handler.paths) {
      const path = underPrefix(prefix, value);
      for (const method of handler.methods) {
        ports.push({
          module: handler.module,
          anchor: handler.decorator,
          method,
          path,
          raw,
          confidence: 1,
          framework: "litestar",
          owner: ownerOf(
            handler.definition,
            handler.module.file.path,
            "python",
          ),
        });
      }
    }
  };
  const controller = (
    cls: { module: PyModule; node: Node },
    prefix: Value,
  ): void => {
    const pathNode = classAttribute(cls.node, "path");
    const own = pathNode ? project.evalString(pathNode) : undefined;
    const inner = joinPaths(prefix, litestarPath(own ?? literal("")));
    for (const { definition } of classMembers(cls.node)) {
      const handler = handlers.get(key(cls.module, definition));
      if (handler) emit(handler, inner);
    }
  };
  const walk = (list: Node | undefined, prefix: Value, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    for (const item of listItems(project, list)) {
      const value = unwrap(item);
      const made = value.type === "call" ? value : undefined;
      const target = made ? undefined : project.resolveExpr(value);
      if (target?.kind === "function") {
        const handler = handlers.get(key(target.module, target.node));
        if (handler) emit(handler, prefix);
      } else if (target?.kind === "class") {
        controller({ module: target.module, node: target.node }, prefix);
      } else {
        const router = made ??
          (target?.kind === "value" ? unwrap(target.node) : undefined);
        if (
          router?.type !== "call" ||
          !ROUTER.test(project.calleeName(router) ?? "")
        ) continue;
        const args = router.childForFieldName("arguments");
        const pathNode = argument(args, 0, "path");
        const path = pathNode ? project.evalString(pathNode) : undefined;
        walk(
          keywordArg(args, "route_handlers"),
          joinPaths(prefix, litestarPath(path ?? literal(""))),
          depth + 1,
        );
      }
    }
  };
  for (const root of roots) {
    const args = root.childForFieldName("arguments");
    walk(argument(args, 0, "route_handlers"), literal(""), 0);
  }
  // handlers no app registers that we can see: at their own paths
  for (const handler of handlers.values()) {
    if (reached.has(handler)) continue;
    if (handler.definition.parent?.parent?.type === "class_definition") {
      continue;
    }
    emit(handler, literal(""));
  }
  return ports.map(toPort);
}

function handlerOf(
  project: PyProject,
  module: PyModule,
  call: Node,
  kind: string,
  { decorator, definition }: Decorated,
): Handler | undefined {
  const args = call.childForFieldName("arguments");
  let methods: string[];
  if (kind.startsWith("websocket")) methods = ["GET"];
  else if (kind === "route") {
    const list = keywordArg(args, "http_method");
    if (!list) return undefined;
    methods = project.methodList(list) ?? ["ANY"];
  } else methods = [kind.toUpperCase()];
  const pathNode = argument(args, 0, "path");
  const nodes = !pathNode
    ? []
    : unwrap(pathNode).type === "list" || unwrap(pathNode).type === "tuple"
    ? namedChildren(unwrap(pathNode))
    : [pathNode];
  const paths: Handler["paths"] = [];
  for (const node of nodes) {
    const value = project.evalString(node);
    if (value) paths.push({ value: litestarPath(value), raw: node.text });
  }
  // `@get()`: the path of its controller or router
  if (!pathNode) paths.push({ value: literal("/"), raw: "" });
  return paths.length > 0
    ? { module, decorator, definition, methods, paths }
    : undefined;
}

function key(module: PyModule, definition: Node): string {
  return `${module.name}:${definition.startIndex}`;
}

/** A Litestar path with typed parameters (`{id:int}`) as one with `{id}`. */
function litestarPath(value: Value): Value {
  return mapText(value, (text) => text.replace(/\{(\w+):[\w.]+\}/g, "{$1}"));
}
