// Flask-RESTX resources: `@ns.route("/users/<int:id>")` on a `Resource`
// class of a `Namespace`, under the namespace path (given to
// `api.add_namespace(ns, path)`, else its own `path=`, else `/<name>`), the
// `Api`'s `prefix` and the app or blueprint the `Api` is bound to; also
// `@api.route(...)` and `api.add_resource(...)` directly on the `Api`.
import { ownerOf } from "../_syntax/compact_tree.ts";
import {
  CONFIDENCE,
  exactText,
  joinPaths,
  literal,
  underPrefix,
} from "../_value/mod.ts";
import { classOf, classVerbs, LibraryObjects, toPort } from "./classes.ts";
import { argument, keywordArg, memberCalls } from "./project.ts";
import { flaskRule } from "./route_calls.ts";
import type { Value } from "../_value/mod.ts";
import type { HttpPort } from "./classes.ts";
import type { PyProject } from "./project.ts";
import { resourceRoute } from "./flask_restful.ts";
import type { FlaskPrefixes, ResourceRoute } from "./flask_restful.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";

const RESOURCE_BASES: ReadonlySet<string> = new Set([
  "flask_restx.Resource",
  "flask_restplus.Resource",
]);

interface RestxApi {
  prefix: Value;
  /** The Flask app or blueprint expressions the Api is bound to. */
  apps: Node[];
}

interface RestxNamespace {
  /** Its own path: `path=`, else `/<name>`. */
  path: Value;
  /** The Apis it is added to, with the path given there, if any. */
  mounts: Array<{ api: RestxApi; path: Value | undefined }>;
}

/** The Flask-RESTX routes of a project. */
export function flaskRestxPorts(
  project: PyProject,
  flaskPrefixes: FlaskPrefixes,
): ExtractedPort[] {
  if (!project.mentions(/flask_rest(x|plus)/)) return [];
  const evalOr = (node: Node | undefined, fallback: Value): Value =>
    (node ? project.evalString(node) : undefined) ?? fallback;
  const apis = new LibraryObjects<RestxApi>(project, (call, cls) => {
    if (!/^flask_rest(x|plus)\.Api$/.test(cls)) return undefined;
    const args = call.childForFieldName("arguments");
    const app = argument(args, 0, "app");
    return {
      prefix: evalOr(keywordArg(args, "prefix"), literal("")),
      apps: app && app.text !== "None" ? [app] : [],
    };
  });
  const namespaces = new LibraryObjects<RestxNamespace>(
    project,
    (call, cls) => {
      if (!/^flask_rest(x|plus)\.Namespace$/.test(cls)) return undefined;
      const args = call.childForFieldName("arguments");
      const name = exactText(project.evalString(argument(args, 0, "name")));
      const path = keywordArg(args, "path");
      return {
        path: evalOr(path, literal(name ? `/${name}` : "")),
        mounts: [],
      };
    },
  );
  const routes: Array<ResourceRoute & { on: RestxApi | RestxNamespace }> = [];
  for (const member of memberCalls(project.list)) {
    const { object, method, args } = member;
    if (method === "add_namespace" || method === "init_app") {
      const api = apis.of(object);
      if (!api) continue;
      if (method === "init_app") {
        const app = argument(args, 0, "app");
        if (app) api.apps.push(app);
        continue;
      }
      const ns = namespaces.of(argument(args, 0, "ns"));
      const path = argument(args, 1, "path");
      ns?.mounts.push({
        api,
        path: path ? evalOr(path, literal("")) : undefined,
      });
    } else if (method === "route" || method === "add_resource") {
      const on = namespaces.of(object) ?? apis.of(object);
      if (!on) continue;
      const route = resourceRoute(member);
      if (route) routes.push({ ...route, on });
    }
  }
  const apiBases = (api: RestxApi): Array<{ base: Value; cap: number }> => {
    const out: Array<{ base: Value; cap: number }> = [];
    for (const app of api.apps) {
      for (const prefix of flaskPrefixes(app) ?? []) {
        out.push({ base: joinPaths(prefix, api.prefix), cap: 1 });
      }
    }
    return out.length > 0 ? out : [{
      base: api.prefix,
      cap: api.apps.length > 0 ? CONFIDENCE.partial : 1,
    }];
  };
  const ports: HttpPort[] = [];
  for (const { module, anchor, cls: clsNode, urls, on } of routes) {
    const bases: Array<{ base: Value; cap: number }> = [];
    if ("mounts" in on) {
      for (const { api, path } of on.mounts) {
        for (const { base, cap } of apiBases(api)) {
          bases.push({ base: joinPaths(base, path ?? on.path), cap });
        }
      }
      // a namespace added to no Api we can see: under its own path, weakly
      if (on.mounts.length === 0) {
        bases.push({ base: on.path, cap: CONFIDENCE.weak });
      }
    } else bases.push(...apiBases(on));
    const cls = clsNode.type === "class_definition"
      ? { module, node: clsNode }
      : classOf(project, clsNode);
    const verbs = cls ? classVerbs(project, cls, RESOURCE_BASES) : undefined;
    const methods = verbs?.known && verbs.definitions.size > 0
      ? [...verbs.definitions]
      : undefined;
    for (const urlNode of urls) {
      const url = project.evalString(urlNode);
      if (!url) continue;
      for (const { base, cap } of bases) {
        const path = underPrefix(base, flaskRule(url));
        for (
          const [verb, definition] of methods ?? [["ANY", undefined] as const]
        ) {
          ports.push({
            module,
            anchor,
            method: verb.toUpperCase(),
            path,
            raw: urlNode.text,
            confidence: methods ? cap : Math.min(cap, CONFIDENCE.weak),
            framework: "flask-restx",
            owner: definition
              ? ownerOf(definition.node, definition.module.file.path, "python")
              : ownerOf(anchor, module.file.path, "python"),
          });
        }
      }
    }
  }
  return ports.map(toPort);
}
