// Flask-RESTful resources: `api.add_resource(UserResource, "/users")` and
// `@api.resource(...)`, with the HTTP-verb methods of the resource class,
// under the app or blueprint prefixes and the Api's own `prefix`.
import { namedChildren, ownerOf } from "../_syntax/compact_tree.ts";
import {
  CONFIDENCE,
  hole,
  joinPaths,
  literal,
  underPrefix,
} from "../_value/mod.ts";
import {
  baseClasses,
  classMembers,
  classOf,
  classVerbs,
  LibraryObjects,
  MAX_BASES,
  toPort,
} from "./classes.ts";
import {
  argument,
  decoratorOf,
  keywordArg,
  memberCalls,
  positionalArgs,
} from "./project.ts";
import { flaskRule } from "./route_calls.ts";
import type { Value } from "../_value/mod.ts";
import type { ClassRef, HttpPort } from "./classes.ts";
import type { MemberCall, PyModule, PyProject } from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort, PortOwner } from "../types.ts";

const RESOURCE_BASES: ReadonlySet<string> = new Set([
  "flask_restful.Resource",
  "flask.views.MethodView",
  "flask.views.View",
]);

interface RestfulApi {
  module: PyModule;
  /** The project subclass of `Api` it is made from, if any. */
  subclass: ClassRef | undefined;
  prefix: Value | undefined;
  /** The Flask app or blueprint expressions the Api is bound to. */
  apps: Node[];
}

/**
 * The prefixes of a Flask app or blueprint expression (its own `url_prefix`
 * and those given at `register_blueprint`), or `undefined` when the
 * expression is not a Flask app or blueprint the extractor knows.
 */
export type FlaskPrefixes = (expr: Node) => Value[] | undefined;

/**
 * Routes of Flask-RESTful resources: `api.add_resource(Resource, *urls)`
 * and `@api.resource(*urls)`, with the HTTP-verb methods of the resource
 * class, under the app or blueprint prefixes and the Api's own `prefix`.
 */
export function flaskRestfulPorts(
  project: PyProject,
  flaskPrefixes: FlaskPrefixes,
): ExtractedPort[] {
  if (!project.mentions("flask_restful")) return [];
  const apis = new LibraryObjects<RestfulApi>(project, (call, cls, module) => {
    if (cls !== "flask_restful.Api") return undefined;
    const args = call.childForFieldName("arguments");
    const prefixNode = keywordArg(args, "prefix");
    const app = argument(args, 0, "app");
    const callee = call.childForFieldName("function");
    return {
      module,
      subclass: callee ? classOf(project, callee) : undefined,
      prefix: prefixNode ? project.evalString(prefixNode) ?? hole() : undefined,
      apps: app && app.text !== "None" ? [app] : [],
    };
  });
  const resources: Array<ResourceRoute & { api: RestfulApi }> = [];
  // whether a module's text mentions add_resource: searched once a module
  const mentions = new Map<PyModule, boolean>();
  const mayForward = (module: PyModule): boolean => {
    let found = mentions.get(module);
    if (found === undefined) {
      mentions.set(module, found = module.file.text.includes("add_resource"));
    }
    return found;
  };
  for (const member of memberCalls(project.list)) {
    const { module, call, object, method, args } = member;
    const known = method === "add_resource" || method === "init_app" ||
      method === "resource";
    if (!known && !mayForward(module)) continue;
    const api = apis.of(object);
    if (!api) continue;
    const positional = positionalArgs(args);
    if (!known) {
      // a method of an `Api` subclass that forwards to add_resource
      const forwarded = api.subclass
        ? forwardedResource(project, api.subclass, method, positional)
        : undefined;
      if (forwarded) {
        resources.push({ module, anchor: call, api, ...forwarded });
      }
    } else if (method === "init_app") {
      const app = argument(args, 0, "app");
      if (app) api.apps.push(app);
    } else {
      const route = resourceRoute(member);
      if (route) resources.push({ ...route, api });
    }
  }
  const ports: HttpPort[] = [];
  for (const { module, anchor, api, cls: clsNode, urls } of resources) {
    const cls = clsNode.type === "class_definition"
      ? { module, node: clsNode }
      : classOf(project, clsNode);
    const verbs = cls ? classVerbs(project, cls, RESOURCE_BASES) : undefined;
    const mounts: Array<{ prefix: Value; cap: number }> = [];
    for (const app of api.apps) {
      const prefixes = flaskPrefixes(app);
      if (prefixes) {
        for (const prefix of prefixes) mounts.push({ prefix, cap: 1 });
      } else mounts.push({ prefix: literal(""), cap: CONFIDENCE.partial });
    }
    // an Api bound to no app we can see: at the root, weakly
    if (mounts.length === 0) {
      mounts.push({ prefix: literal(""), cap: CONFIDENCE.weak });
    }
    const owner = (verb: string): PortOwner => {
      const definition = verbs?.definitions.get(verb);
      if (definition) {
        return ownerOf(definition.node, definition.module.file.path, "python");
      }
      return cls
        ? ownerOf(cls.node, cls.module.file.path, "python")
        : ownerOf(anchor, module.file.path, "python");
    };
    for (const urlNode of urls) {
      const url = project.evalString(urlNode);
      if (!url) continue;
      const path = flaskRule(url);
      for (const { prefix, cap } of mounts) {
        const base = api.prefix ? joinPaths(prefix, api.prefix) : prefix;
        const value = underPrefix(base, path);
        const methods = verbs?.known
          ? [...verbs.definitions.keys()].map((v) => v.toUpperCase())
          : ["ANY"];
        const confidence = verbs?.known ? cap : Math.min(cap, CONFIDENCE.weak);
        for (const method of methods) {
          ports.push({
            module,
            anchor,
            method,
            path: value,
            raw: urlNode.text,
            confidence,
            framework: "flask-restful",
            owner: owner(method.toLowerCase()),
          });
        }
      }
    }
  }
  return ports.map(toPort);
}

/** A resource class and the URLs it is routed at, by a call in `module`. */
export interface ResourceRoute {
  module: PyModule;
  anchor: Node;
  cls: Node;
  urls: Node[];
}

/**
 * The resource route of `api.add_resource(Resource, *urls)`, or of a
 * decorator `@api.resource(*urls)` (Flask-RESTX: `@ns.route(*urls)`) on a
 * resource class.
 */
export function resourceRoute(member: MemberCall): ResourceRoute | undefined {
  const { module, call } = member;
  const positional = positionalArgs(member.args);
  if (member.method === "add_resource") {
    const [cls, ...urls] = positional;
    return cls ? { module, anchor: call, cls, urls } : undefined;
  }
  const decorated = decoratorOf(call);
  if (decorated?.definition.type !== "class_definition") return undefined;
  const { decorator: anchor, definition: cls } = decorated;
  return { module, anchor, cls, urls: positional };
}

/**
 * The resource and URLs of a call of a method of an `Api` subclass that
 * forwards its parameters to `self.add_resource(resource, *urls)`, mapped
 * from the call's positional arguments.
 */
function forwardedResource(
  project: PyProject,
  subclass: ClassRef,
  method: string,
  args: Node[],
): { cls: Node; urls: Node[] } | undefined {
  let current: ClassRef | undefined = subclass;
  for (let depth = 0; current && depth <= MAX_BASES; depth++) {
    const found = classMembers(current.node).find(({ definition }) =>
      definition.childForFieldName("name")?.text === method
    );
    if (found) return forwardedIn(found.definition, args);
    const base: Node | undefined = baseClasses(current.node)[0];
    current = base ? classOf(project, base) : undefined;
  }
  return undefined;
}

function forwardedIn(
  fn: Node,
  args: Node[],
): { cls: Node; urls: Node[] } | undefined {
  // positional parameters after `self`, and the `*urls` one
  const parameters = fn.childForFieldName("parameters");
  const names: string[] = [];
  let rest: string | undefined;
  for (const parameter of parameters ? namedChildren(parameters) : []) {
    if (parameter.type === "identifier") names.push(parameter.text);
    else if (parameter.type === "list_splat_pattern") {
      rest = namedChildren(parameter)[0]?.text;
      break;
    } else if (parameter.type !== "typed_parameter") break;
  }
  names.shift();
  const body = fn.childForFieldName("body");
  const inner = body ? findSelfAddResource(body) : undefined;
  if (!inner) return undefined;
  const innerArgs = inner.childForFieldName("arguments");
  const [resource, ...urls] = (innerArgs ? namedChildren(innerArgs) : [])
    .filter((n) => n.type !== "keyword_argument" && n.type !== "comment");
  const at = resource ? names.indexOf(resource.text) : -1;
  const cls = at >= 0 ? args[at] : undefined;
  if (!cls) return undefined;
  const out: Node[] = [];
  for (const url of urls) {
    const splat = url.type === "list_splat"
      ? namedChildren(url)[0]?.text
      : undefined;
    if (splat !== undefined && splat === rest) {
      out.push(...args.slice(names.length));
    } else {
      const index = names.indexOf(url.text);
      const arg = index >= 0 ? args[index] : undefined;
      if (arg) out.push(arg);
    }
  }
  return { cls, urls: out };
}

/** The first `self.add_resource(...)` call in a function body. */
function findSelfAddResource(node: Node, depth = 0): Node | undefined {
  if (depth > 64) return undefined;
  if (node.type === "call") {
    const callee = node.childForFieldName("function");
    if (
      callee?.type === "attribute" &&
      callee.childForFieldName("object")?.text === "self" &&
      callee.childForFieldName("attribute")?.text === "add_resource"
    ) return node;
  }
  for (const child of namedChildren(node)) {
    const found = findSelfAddResource(child, depth + 1);
    if (found) return found;
  }
  return undefined;
}
