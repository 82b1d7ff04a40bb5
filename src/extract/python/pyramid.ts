// Pyramid routes: `config.add_route(name, pattern)` joined by route name to
// the views that serve them (`@view_config(route_name=..., request_method=
// ...)`, on a function or on a method of a class whose `@view_defaults`
// gives the route name, and `config.add_view(view, route_name=...)`), and
// `config.add_static_view(name, path)`. A route with no view is not served.
import { namedChildren, ownerOf } from "../_syntax/compact_tree.ts";
import { CONFIDENCE, exactText, joinPaths, mapText } from "../_value/mod.ts";
import { argument, keywordArg, unwrap } from "./project.ts";
import { type HttpPort, toPort } from "./classes.ts";
import type { Value } from "../_value/mod.ts";
import type { PyModule, PyProject } from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort, PortOwner } from "../types.ts";

const VIEW_CONFIG = /^pyramid\.view\.(view_config|view_defaults)$/;

interface PyramidRoute {
  module: PyModule;
  anchor: Node;
  path: Value;
  raw: string;
}

interface PyramidView {
  module: PyModule;
  routeName: string;
  methods: string[];
  confidence: number;
  owner: PortOwner;
}

/** The Pyramid routes of a project that some view serves. */
export function pyramidPorts(project: PyProject): ExtractedPort[] {
  if (!project.mentions("pyramid")) return [];
  const routes = new Map<string, PyramidRoute[]>();
  const views: PyramidView[] = [];
  const ports: HttpPort[] = [];
  for (const module of project.list) {
    for (const call of module.calls) {
      const callee = call.childForFieldName("function");
      const name = callee ? project.externalName(callee) ?? "" : "";
      const args = call.childForFieldName("arguments");
      const decorator = call.parent?.type === "decorator"
        ? call.parent
        : undefined;
      if (/^pyramid\.view\.view_config$/.test(name) && decorator) {
        const view = decoratedView(project, module, call, decorator);
        if (view) views.push(view);
        continue;
      }
      const method = callee?.type === "attribute"
        ? callee.childForFieldName("attribute")?.text
        : undefined;
      if (method === "add_route") {
        const routeName = exactText(
          project.evalString(argument(args, 0, "name")),
        );
        const pattern = argument(args, 1, "pattern");
        const path = pattern ? project.evalString(pattern) : undefined;
        if (!routeName || !pattern || !path) continue;
        const list = routes.get(routeName) ?? [];
        list.push({
          module,
          anchor: call,
          path: pyramidPattern(path),
          raw: pattern.text,
        });
        routes.set(routeName, list);
      } else if (method === "add_view") {
        const routeName = exactText(
          project.evalString(keywordArg(args, "route_name")),
        );
        if (!routeName) continue;
        views.push({
          module,
          routeName,
          ...requestMethods(project, args),
          owner: ownerOf(call, module.file.path, "python"),
        });
      } else if (method === "add_static_view") {
        const nameNode = argument(args, 0, "name");
        const staticName = nameNode ? project.evalString(nameNode) : undefined;
        const text = exactText(staticName);
        if (!nameNode || !staticName || (text && /^[a-z]+:\/\//.test(text))) {
          continue;
        }
        ports.push({
          module,
          anchor: call,
          method: "GET",
          path: joinPaths(joinPaths("/", staticName), "{subpath}"),
          raw: nameNode.text,
          confidence: 1,
          framework: "pyramid",
          owner: ownerOf(call, module.file.path, "python"),
        });
      }
    }
  }
  for (const view of views) {
    for (
      const route of closest(routes.get(view.routeName) ?? [], view.module)
    ) {
      for (const method of view.methods) {
        ports.push({
          module: route.module,
          anchor: route.anchor,
          method,
          path: route.path,
          raw: route.raw,
          confidence: view.confidence,
          framework: "pyramid",
          owner: view.owner,
        });
      }
    }
  }
  return ports.map(toPort);
}

/** A `@view_config` view, with the `@view_defaults` of its class. */
function decoratedView(
  project: PyProject,
  module: PyModule,
  call: Node,
  decorator: Node,
): PyramidView | undefined {
  const args = call.childForFieldName("arguments");
  const definition = decorator.parent?.childForFieldName("definition");
  if (!definition) return undefined;
  let routeNode = keywordArg(args, "route_name");
  if (!routeNode) {
    // a method: the route name of its class's @view_defaults
    let cls: Node | null = definition.parent;
    while (cls && cls.type !== "class_definition") cls = cls.parent;
    const wrapper = cls?.parent?.type === "decorated_definition"
      ? cls.parent
      : undefined;
    for (const d of wrapper ? namedChildren(wrapper) : []) {
      const defaults = d.type === "decorator"
        ? unwrap(namedChildren(d)[0] ?? d)
        : undefined;
      const fn = defaults?.type === "call"
        ? defaults.childForFieldName("function")
        : undefined;
      if (fn && VIEW_CONFIG.test(project.externalName(fn) ?? "")) {
        routeNode = keywordArg(
          defaults!.childForFieldName("arguments"),
          "route_name",
        );
      }
    }
  }
  const routeName = exactText(project.evalString(routeNode));
  if (!routeName) return undefined;
  return {
    module,
    routeName,
    ...requestMethods(project, args),
    owner: ownerOf(definition, module.file.path, "python"),
  };
}

/** The `request_method=` of a view: one, several, or any (weakly). */
function requestMethods(
  project: PyProject,
  args: Node | null,
): { methods: string[]; confidence: number } {
  const node = keywordArg(args, "request_method");
  if (!node) return { methods: ["ANY"], confidence: 1 };
  const methods = project.methodList(node);
  return methods
    ? { methods, confidence: 1 }
    : { methods: ["ANY"], confidence: CONFIDENCE.weak };
}

/**
 * The routes of a name a view in `module` serves: those of its own module,
 * else of its directory tree, else all (route names are per application).
 */
function closest(routes: PyramidRoute[], module: PyModule): PyramidRoute[] {
  const same = routes.filter((r) => r.module === module);
  if (same.length > 0) return same;
  let dir = module.file.path;
  while (dir.includes("/")) {
    dir = dir.slice(0, dir.lastIndexOf("/"));
    const near = routes.filter((r) => r.module.file.path.startsWith(`${dir}/`));
    if (near.length > 0) return near;
  }
  return routes;
}

/** A Pyramid pattern (`{id:\d+}`, `*subpath`) as a path with `{id}` parameters. */
function pyramidPattern(value: Value): Value {
  return mapText(
    value,
    (text) =>
      text.replace(/\{(\w+):[^{}]{0,128}\}/g, "{$1}").replace(
        /\*(\w+)$/,
        "{$1}",
      ),
  );
}
