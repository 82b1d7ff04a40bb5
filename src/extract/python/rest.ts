// Routes generated from classes: Django REST framework routers
// (`router.register("users", UserViewSet)` mounted with `router.urls`) and
// Flask-RESTful resources (`api.add_resource(UserResource, "/users")`).
// The HTTP methods come from the viewset or resource class, followed across
// modules and through project base classes.
import { httpBoundaryKey } from "../../boundary/http_path.ts";
import {
  findAll,
  namedChildren,
  type Node,
  ownerOf,
  positionOf,
} from "../_syntax/compact_tree.ts";
import {
  argument,
  classAttribute,
  keywordArg,
  positionalArgs,
  type PyModule,
  type PyProject,
  unwrap,
} from "./project.ts";
import {
  composed,
  CONFIDENCE,
  exactText,
  HOLE,
  hole,
  isEmpty,
  joinPaths,
  keyText,
  literal,
  mapText,
  routePath,
  type Value,
} from "../_value/mod.ts";
import type { ExtractedPort, PortOwner } from "../types.ts";

/** What the Django URLconf support knows, for routers mounted in URLconfs. */
export interface DjangoUrls {
  /** The prefixes a URLconf module is included under (`""` when none). */
  modulePrefixes(name: string): Value[];
  /** The external name of a Django route call (`django.urls.path`...), if it is one. */
  routeKind(call: Node): string | undefined;
}

/** A Django route (`users/<int:pk>/` or a `re_path` regex) as a path with `{name}` parameters. */
export function djangoRoute(value: Value, regex: boolean): Value {
  return mapText(
    value,
    (text) =>
      regex
        ? text.replace(/^\^/, "").replace(/\$$/, "")
          .replace(/\(\?P<(\w+)>[^)]*\)/g, "{$1}")
          .replace(/\([^)]*\)/g, HOLE)
          .replace(/\\(.)/g, "$1")
        : text.replace(/<(?:\w+:)?(\w+)>/g, "{$1}"),
  );
}

/**
 * The prefix given to `node` by the Django route calls enclosing it in its
 * own file: `path("api/", include([path("users/", ...)]))`.
 */
export function enclosingRoutePrefix(
  node: Node,
  project: PyProject,
  urls: DjangoUrls,
): Value {
  let inline = literal("");
  for (let current = node.parent; current; current = current.parent) {
    if (current.type !== "call") continue;
    const kind = urls.routeKind(current);
    if (!kind) continue;
    const [outer] = positionalArgs(current.childForFieldName("arguments"));
    const value = outer ? project.evalString(outer) : undefined;
    if (value) {
      inline = joinPaths(
        djangoRoute(value, kind !== "django.urls.path"),
        inline,
      );
    }
  }
  return inline;
}

/** A Flask rule with converters (`<int:id>`) as a path with `{id}` parameters. */
export function flaskRule(value: Value): Value {
  return mapText(
    value,
    (text) => text.replace(/<(?:[\w.]+(?:\([^)]*\))?:)?(\w+)>/g, "{$1}"),
  );
}

interface HttpPort {
  module: PyModule;
  anchor: Node;
  method: string;
  path: Value;
  raw: string;
  confidence: number;
  framework: string;
  owner: PortOwner;
}

function toPort(port: HttpPort): ExtractedPort {
  const result = routePath(port.path);
  const { line, col } = positionOf(port.anchor);
  return {
    ref: {
      mechanism: "http",
      role: "server",
      key: httpBoundaryKey(port.method, result.path),
      line,
      col,
      confidence: Math.min(result.confidence, port.confidence),
      detail: {
        method: port.method,
        path: result.path,
        raw: port.raw,
        framework: port.framework,
      },
    },
    owner: port.owner,
    filePath: port.module.file.path,
  };
}

/** A class found in the project, with the module that defines it. */
interface ClassRef {
  module: PyModule;
  node: Node;
}

/** The project class an expression names, if any. */
function classOf(project: PyProject, expr: Node): ClassRef | undefined {
  const target = project.resolveExpr(unwrap(expr));
  return target?.kind === "class"
    ? { module: target.module, node: target.node }
    : undefined;
}

/** The definitions (methods, or decorated methods) of a class body. */
function classMembers(
  cls: Node,
): Array<{ definition: Node; decorators: Node[] }> {
  const body = cls.childForFieldName("body");
  const out: Array<{ definition: Node; decorators: Node[] }> = [];
  for (const statement of body ? namedChildren(body) : []) {
    if (statement.type === "function_definition") {
      out.push({ definition: statement, decorators: [] });
    } else if (statement.type === "decorated_definition") {
      const definition = statement.childForFieldName("definition");
      if (definition?.type !== "function_definition") continue;
      out.push({
        definition,
        decorators: namedChildren(statement).filter((n) =>
          n.type === "decorator"
        ),
      });
    }
  }
  return out;
}

/** The base class expressions of a class definition. */
function baseClasses(cls: Node): Node[] {
  return positionalArgs(cls.childForFieldName("superclasses"));
}

const MAX_BASES = 8;

/**
 * The external class a constructor expression names, directly or through
 * project subclasses (`class VersionedRouter(DefaultRouter)`): the first
 * external base found, depth first.
 */
function libraryClass(
  project: PyProject,
  callee: Node,
  depth = 0,
): string | undefined {
  const target = project.resolveExpr(callee);
  if (target?.kind === "external") return target.name;
  if (target?.kind !== "class" || depth > MAX_BASES) return undefined;
  for (const base of baseClasses(target.node)) {
    const name = libraryClass(project, unwrap(base), depth + 1);
    if (name) return name;
  }
  return undefined;
}

// ------------------------------------------------------- Django REST framework

const DRF_ROUTERS: ReadonlyMap<string, boolean> = new Map([
  ["rest_framework.routers.DefaultRouter", true],
  ["rest_framework.routers.SimpleRouter", false],
]);

/** DRF viewset actions: the route they serve and the HTTP method. */
const DRF_ACTIONS: ReadonlyMap<string, { detail: boolean; method: string }> =
  new Map([
    ["list", { detail: false, method: "GET" }],
    ["create", { detail: false, method: "POST" }],
    ["retrieve", { detail: true, method: "GET" }],
    ["update", { detail: true, method: "PUT" }],
    ["partial_update", { detail: true, method: "PATCH" }],
    ["destroy", { detail: true, method: "DELETE" }],
  ]);

/** DRF base classes (by last name) and the actions they bring. */
const DRF_BASES: ReadonlyMap<string, readonly string[]> = new Map([
  ["ModelViewSet", [
    "list",
    "create",
    "retrieve",
    "update",
    "partial_update",
    "destroy",
  ]],
  ["ReadOnlyModelViewSet", ["list", "retrieve"]],
  ["GenericViewSet", []],
  ["ViewSet", []],
  ["ViewSetMixin", []],
  ["GenericAPIView", []],
  ["APIView", []],
  ["ListModelMixin", ["list"]],
  ["CreateModelMixin", ["create"]],
  ["RetrieveModelMixin", ["retrieve"]],
  ["UpdateModelMixin", ["update", "partial_update"]],
  ["DestroyModelMixin", ["destroy"]],
]);

const DRF_ACTION_DECORATORS: ReadonlyMap<string, boolean | undefined> = new Map(
  [
    ["rest_framework.decorators.action", undefined],
    ["rest_framework.decorators.detail_route", true],
    ["rest_framework.decorators.list_route", false],
  ],
);

interface DrfRouter {
  module: PyModule;
  node: Node;
  isDefault: boolean;
  trailing: string;
  /** Where `router.urls` is mounted: the URLconf module and the prefix. */
  mounts: Value[];
  registrations: Array<{ module: PyModule; call: Node }>;
}

interface DrfExtra {
  name: string;
  detail: boolean | undefined;
  path: Value;
  methods: string[];
  confidence: number;
  definition: ClassRef;
}

interface Viewset {
  /** Whether every base class was understood. */
  known: boolean;
  /** Action name → its method definition in the project (when written). */
  actions: Map<string, ClassRef | undefined>;
  extras: DrfExtra[];
  lookup: string;
}

/**
 * Routes of Django REST framework routers: per `register(prefix, viewset)`
 * a list route `<prefix>/` and a detail route `<prefix>/{pk}/` with the
 * viewset's methods, its `@action` routes, and `DefaultRouter`'s API root,
 * under the prefixes of the URLconfs that mount `router.urls`.
 */
export function drfPorts(
  project: PyProject,
  urls: DjangoUrls,
): ExtractedPort[] {
  if (!project.list.some((m) => m.file.text.includes("rest_framework"))) {
    return [];
  }
  const routers = new Map<string, DrfRouter>();
  const routerOf = (expr: Node | null | undefined): DrfRouter | undefined => {
    if (!expr) return undefined;
    const target = project.resolveExpr(unwrap(expr));
    if (target?.kind !== "value") return undefined;
    const value = unwrap(target.node);
    if (value.type !== "call") return undefined;
    const callee = value.childForFieldName("function");
    const isDefault = callee
      ? DRF_ROUTERS.get(libraryClass(project, callee) ?? "")
      : undefined;
    if (isDefault === undefined) return undefined;
    const id = `${target.module.name}:${value.startIndex}`;
    let router = routers.get(id);
    if (!router) {
      const slash = keywordArg(
        value.childForFieldName("arguments"),
        "trailing_slash",
      );
      router = {
        module: target.module,
        node: value,
        isDefault,
        trailing: slash?.text === "False" ? "" : "/",
        mounts: [],
        registrations: [],
      };
      routers.set(id, router);
    }
    return router;
  };
  for (const module of project.list) {
    for (const call of module.calls) {
      const callee = call.childForFieldName("function");
      if (
        callee?.type !== "attribute" ||
        callee.childForFieldName("attribute")?.text !== "register"
      ) continue;
      const router = routerOf(callee.childForFieldName("object"));
      router?.registrations.push({ module, call });
    }
  }
  if (routers.size === 0) return [];
  const attributes: ReadonlySet<string> = new Set(["attribute"]);
  for (const module of project.list) {
    if (!module.file.text.includes(".urls")) continue;
    for (const attr of findAll(module.tree.rootNode, attributes)) {
      if (attr.childForFieldName("attribute")?.text !== "urls") continue;
      const router = routerOf(attr.childForFieldName("object"));
      if (!router) continue;
      const inline = drfMount(attr, project, urls);
      if (!inline) continue;
      for (const prefix of urls.modulePrefixes(module.name)) {
        router.mounts.push(joinPaths(prefix, inline));
      }
    }
  }
  const ports: HttpPort[] = [];
  const viewsets = new Map<Node, Viewset | undefined>();
  for (const router of routers.values()) {
    // a router whose urls are mounted nowhere we can see: at the root, weakly
    const mounted = router.mounts.length > 0;
    const mounts = mounted ? router.mounts : [literal("")];
    const cap = mounted ? 1 : CONFIDENCE.weak;
    if (router.isDefault) {
      const seen = new Set<string>();
      for (const mount of mounts) {
        if (seen.has(keyText(mount))) continue;
        seen.add(keyText(mount));
        ports.push({
          module: router.module,
          anchor: router.node,
          method: "GET",
          path: composed(joinPaths(mount, literal(router.trailing))),
          raw: router.node.text,
          confidence: cap,
          framework: "django-rest-framework",
          owner: ownerOf(router.node, router.module.file.path, "python"),
        });
      }
    }
    for (const { module, call } of router.registrations) {
      const args = call.childForFieldName("arguments");
      const prefixNode = argument(args, 0, "prefix");
      const viewsetNode = argument(args, 1, "viewset");
      if (!prefixNode || !viewsetNode) continue;
      const prefix = djangoRoute(
        project.evalString(prefixNode) ?? hole(),
        true,
      );
      const cls = classOf(project, viewsetNode);
      let viewset: Viewset | undefined;
      if (cls) {
        if (!viewsets.has(cls.node)) {
          viewsets.set(cls.node, analyzeViewset(project, cls));
        }
        viewset = viewsets.get(cls.node);
      }
      const callOwner = ownerOf(call, module.file.path, "python");
      const classOwner = cls
        ? ownerOf(cls.node, cls.module.file.path, "python")
        : callOwner;
      const push = (
        path: Value,
        method: string,
        confidence: number,
        owner: PortOwner,
      ): void => {
        for (const mount of mounts) {
          ports.push({
            module,
            anchor: call,
            method,
            path: composed(joinPaths(mount, path)),
            raw: prefixNode.text,
            confidence: Math.min(confidence, cap),
            framework: "django-rest-framework",
            owner,
          });
        }
      };
      const lookup = `{${viewset?.lookup ?? "pk"}}`;
      const listPath = joinPaths(prefix, literal(router.trailing));
      const detailPath = joinPaths(
        joinPaths(prefix, literal(lookup)),
        literal(router.trailing),
      );
      if (!viewset?.known) {
        push(listPath, "ANY", CONFIDENCE.weak, classOwner);
        push(detailPath, "ANY", CONFIDENCE.weak, classOwner);
      } else {
        for (const [name, definition] of viewset.actions) {
          const action = DRF_ACTIONS.get(name);
          if (!action) continue;
          const owner = definition
            ? ownerOf(definition.node, definition.module.file.path, "python")
            : classOwner;
          push(
            action.detail ? detailPath : listPath,
            action.method,
            1,
            owner,
          );
        }
      }
      for (const extra of viewset?.extras ?? []) {
        const owner = ownerOf(
          extra.definition.node,
          extra.definition.module.file.path,
          "python",
        );
        const details = extra.detail === undefined
          ? [false, true]
          : [extra.detail];
        for (const detail of details) {
          const path = joinPaths(
            joinPaths(
              detail ? joinPaths(prefix, literal(lookup)) : prefix,
              extra.path,
            ),
            literal(router.trailing),
          );
          const confidence = extra.detail === undefined
            ? CONFIDENCE.weak
            : extra.confidence;
          for (const method of extra.methods) {
            push(path, method, confidence, owner);
          }
        }
      }
    }
  }
  return ports.map(toPort);
}

/**
 * The URLconf prefix under which a `router.urls` expression is mounted:
 * `path("api/", include(router.urls))`, `urlpatterns = router.urls`,
 * `urlpatterns += router.urls`, `urlpatterns = [...] + router.urls`,
 * `urlpatterns.extend(router.urls)`; `undefined` for any other use.
 */
function drfMount(
  attr: Node,
  project: PyProject,
  urls: DjangoUrls,
): Value | undefined {
  let node = attr;
  for (let parent = node.parent; parent; node = parent, parent = node.parent) {
    switch (parent.type) {
      case "list":
      case "tuple":
      case "list_splat":
      case "parenthesized_expression":
      case "argument_list":
        continue;
      case "binary_operator":
        if (parent.childForFieldName("operator")?.text !== "+") {
          return undefined;
        }
        continue;
      case "call": {
        const callee = parent.childForFieldName("function");
        if (!callee) return undefined;
        if (
          callee.type === "attribute" &&
          callee.childForFieldName("attribute")?.text === "extend" &&
          callee.childForFieldName("object")?.text === "urlpatterns"
        ) return enclosingRoutePrefix(parent, project, urls);
        const name = project.externalName(callee);
        if (name === "rest_framework.urlpatterns.format_suffix_patterns") {
          continue;
        }
        if (
          name !== "django.urls.include" && name !== "django.conf.urls.include"
        ) return undefined;
        const route = parent.parent?.parent;
        if (
          parent.parent?.type !== "argument_list" || route?.type !== "call" ||
          !urls.routeKind(route)
        ) return undefined;
        return enclosingRoutePrefix(parent, project, urls);
      }
      case "assignment":
      case "augmented_assignment": {
        const left = parent.childForFieldName("left");
        if (
          left?.text !== "urlpatterns" ||
          parent.childForFieldName("right")?.startIndex !== node.startIndex
        ) return undefined;
        if (
          parent.type === "augmented_assignment" &&
          parent.childForFieldName("operator")?.text !== "+="
        ) return undefined;
        return enclosingRoutePrefix(parent, project, urls);
      }
      default:
        return undefined;
    }
  }
  return undefined;
}

/** The actions of a viewset class, through its project base classes. */
function analyzeViewset(project: PyProject, cls: ClassRef): Viewset {
  const viewset: Viewset = {
    known: true,
    actions: new Map(),
    extras: [],
    lookup: "pk",
  };
  for (const attr of ["lookup_url_kwarg", "lookup_field"]) {
    const value = classAttribute(cls.node, attr);
    const text = value ? exactText(project.evalString(value)) : undefined;
    if (text && /^\w+$/.test(text)) {
      viewset.lookup = text;
      break;
    }
  }
  const visit = (current: ClassRef, seen: Set<Node>, depth: number): void => {
    if (seen.has(current.node) || depth > MAX_BASES) {
      viewset.known = false;
      return;
    }
    seen.add(current.node);
    const members = classMembers(current.node);
    for (const { definition, decorators } of members) {
      const name = definition.childForFieldName("name")?.text ?? "";
      const ref = { module: current.module, node: definition };
      if (DRF_ACTIONS.has(name) && !viewset.actions.get(name)) {
        viewset.actions.set(name, ref);
      }
      for (const decorator of decorators) {
        const extra = drfAction(project, decorator, name, ref);
        if (extra && !viewset.extras.some((e) => e.name === name)) {
          viewset.extras.push(extra);
        }
      }
    }
    // @follow.mapping.delete: one more method on the action `follow`
    for (const { decorators } of members) {
      for (const decorator of decorators) {
        const expr = namedChildren(decorator)[0];
        if (expr?.type !== "attribute") continue;
        const object = expr.childForFieldName("object");
        const verb = expr.childForFieldName("attribute")?.text ?? "";
        if (
          object?.type !== "attribute" ||
          object.childForFieldName("attribute")?.text !== "mapping" ||
          !/^(get|post|put|patch|delete|head|options|trace)$/.test(verb)
        ) continue;
        const target = object.childForFieldName("object")?.text;
        const extra = viewset.extras.find((e) => e.name === target);
        const method = verb.toUpperCase();
        if (extra && !extra.methods.includes(method)) {
          extra.methods.push(method);
        }
      }
    }
    for (const base of baseClasses(current.node)) {
      if (base.text === "object") continue;
      const target = project.resolveExpr(unwrap(base));
      if (target?.kind === "class") {
        visit({ module: target.module, node: target.node }, seen, depth + 1);
        continue;
      }
      const name = target?.kind === "external" ? target.name : "";
      const actions = name.startsWith("rest_framework.")
        ? DRF_BASES.get(name.slice(name.lastIndexOf(".") + 1))
        : undefined;
      if (!actions) {
        viewset.known = false;
        continue;
      }
      for (const action of actions) {
        if (!viewset.actions.has(action)) {
          viewset.actions.set(action, undefined);
        }
      }
    }
  };
  visit(cls, new Set(), 0);
  return viewset;
}

/** The route an `@action(...)` decorator adds to a viewset. */
function drfAction(
  project: PyProject,
  decorator: Node,
  name: string,
  definition: ClassRef,
): DrfExtra | undefined {
  const expr = namedChildren(decorator)[0];
  if (!expr) return undefined;
  const call = expr.type === "call" ? expr : undefined;
  const callee = call ? call.childForFieldName("function") : expr;
  if (!callee) return undefined;
  const external = project.externalName(callee) ?? "";
  if (!DRF_ACTION_DECORATORS.has(external)) return undefined;
  const args = call?.childForFieldName("arguments") ?? null;
  let detail = DRF_ACTION_DECORATORS.get(external);
  if (detail === undefined) {
    const flag = keywordArg(args, "detail")?.text;
    detail = flag === "True" ? true : flag === "False" ? false : undefined;
  }
  let confidence = 1;
  const pathNode = keywordArg(args, "url_path");
  let path = literal(name);
  if (pathNode) {
    const value = project.evalString(pathNode);
    if (value) path = djangoRoute(value, true);
    else {
      path = hole();
      confidence = CONFIDENCE.partial;
    }
  }
  let methods = ["GET"];
  const list = keywordArg(args, "methods");
  if (list) {
    methods = [];
    const items =
      list.type === "list" || list.type === "tuple" || list.type === "set"
        ? namedChildren(list).map((n) => project.evalString(n))
        : [undefined];
    for (const item of items) {
      const text = exactText(item);
      if (text && /^[A-Za-z]+$/.test(text)) {
        const method = text.toUpperCase();
        if (!methods.includes(method)) methods.push(method);
      } else {
        methods = ["ANY"];
        confidence = CONFIDENCE.weak;
        break;
      }
    }
  }
  return { name, detail, path, methods, confidence, definition };
}

// ------------------------------------------------------------- Flask-RESTful

const RESOURCE_VERBS: ReadonlySet<string> = new Set([
  "get",
  "post",
  "put",
  "patch",
  "delete",
  "head",
  "options",
]);
const RESOURCE_BASES: ReadonlySet<string> = new Set([
  "flask_restful.Resource",
  "flask.views.MethodView",
  "flask.views.View",
]);

interface RestfulApi {
  module: PyModule;
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
  if (!project.list.some((m) => m.file.text.includes("flask_restful"))) {
    return [];
  }
  const apis = new Map<string, RestfulApi>();
  const apiOf = (expr: Node | null | undefined): RestfulApi | undefined => {
    if (!expr) return undefined;
    const target = project.resolveExpr(unwrap(expr));
    if (target?.kind !== "value") return undefined;
    const value = unwrap(target.node);
    if (value.type !== "call") return undefined;
    const callee = value.childForFieldName("function");
    if (!callee || libraryClass(project, callee) !== "flask_restful.Api") {
      return undefined;
    }
    const id = `${target.module.name}:${value.startIndex}`;
    let api = apis.get(id);
    if (!api) {
      const args = value.childForFieldName("arguments");
      const prefixNode = keywordArg(args, "prefix");
      const app = argument(args, 0, "app");
      api = {
        module: target.module,
        prefix: prefixNode
          ? project.evalString(prefixNode) ?? hole()
          : undefined,
        apps: app && app.text !== "None" ? [app] : [],
      };
      apis.set(id, api);
    }
    return api;
  };
  const resources: Array<
    { module: PyModule; anchor: Node; api: RestfulApi; cls: Node; urls: Node[] }
  > = [];
  for (const module of project.list) {
    for (const call of module.calls) {
      const callee = call.childForFieldName("function");
      if (callee?.type !== "attribute") continue;
      const method = callee.childForFieldName("attribute")?.text;
      if (
        method !== "add_resource" && method !== "init_app" &&
        method !== "resource"
      ) continue;
      const api = apiOf(callee.childForFieldName("object"));
      if (!api) continue;
      const args = call.childForFieldName("arguments");
      const positional = positionalArgs(args);
      if (method === "init_app") {
        const app = argument(args, 0, "app");
        if (app) api.apps.push(app);
      } else if (method === "add_resource") {
        const [cls, ...urls] = positional;
        if (cls) resources.push({ module, anchor: call, api, cls, urls });
      } else {
        // @api.resource("/users") on a class
        const decorator = call.parent;
        const definition = decorator?.type === "decorator"
          ? decorator.parent?.childForFieldName("definition")
          : undefined;
        if (definition?.type !== "class_definition" || !decorator) continue;
        resources.push({
          module,
          anchor: decorator,
          api,
          cls: definition,
          urls: positional,
        });
      }
    }
  }
  const ports: HttpPort[] = [];
  for (const { module, anchor, api, cls: clsNode, urls } of resources) {
    const cls = clsNode.type === "class_definition"
      ? { module, node: clsNode }
      : classOf(project, clsNode);
    const verbs = cls ? resourceVerbs(project, cls) : undefined;
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
        const full = joinPaths(base, path);
        const value = isEmpty(base) ? full : composed(full);
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

/** The HTTP-verb methods of a resource class, through its project bases. */
function resourceVerbs(
  project: PyProject,
  cls: ClassRef,
): { known: boolean; definitions: Map<string, ClassRef> } {
  const result = { known: true, definitions: new Map<string, ClassRef>() };
  const visit = (current: ClassRef, seen: Set<Node>, depth: number): void => {
    if (seen.has(current.node) || depth > MAX_BASES) {
      result.known = false;
      return;
    }
    seen.add(current.node);
    for (const { definition } of classMembers(current.node)) {
      const name = definition.childForFieldName("name")?.text ?? "";
      if (RESOURCE_VERBS.has(name) && !result.definitions.has(name)) {
        result.definitions.set(name, {
          module: current.module,
          node: definition,
        });
      }
    }
    for (const base of baseClasses(current.node)) {
      if (base.text === "object") continue;
      const target = project.resolveExpr(unwrap(base));
      if (target?.kind === "class") {
        visit({ module: target.module, node: target.node }, seen, depth + 1);
      } else if (
        target?.kind !== "external" || !RESOURCE_BASES.has(target.name)
      ) result.known = false;
    }
  };
  visit(cls, new Set(), 0);
  return result;
}
