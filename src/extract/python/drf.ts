// Django REST framework routers: `router.register("users", UserViewSet)`
// mounted with `router.urls`, with the methods of the viewset class
// (followed through project base classes) and its `@action` routes.
import { ownerOf } from "../_syntax/compact_tree.ts";
import { findAll, namedChildren } from "../_syntax/compact_tree.ts";
import {
  composed,
  CONFIDENCE,
  exactText,
  hole,
  joinPaths,
  keyText,
  literal,
} from "../_value/mod.ts";
import {
  baseClasses,
  classMembers,
  classOf,
  LibraryObjects,
  MAX_BASES,
  toPort,
} from "./classes.ts";
import { djangoRoute, enclosingRoutePrefix } from "./django.ts";
import {
  argument,
  classAttribute,
  keywordArg,
  memberCalls,
  unwrap,
} from "./project.ts";
import type { Value } from "../_value/mod.ts";
import type { ClassRef, HttpPort } from "./classes.ts";
import type { DjangoUrls } from "./django.ts";
import type { PyModule, PyProject } from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort, PortOwner } from "../types.ts";

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
  if (!project.mentions("rest_framework")) return [];
  const routers = new LibraryObjects<DrfRouter>(
    project,
    (call, cls, module) => {
      const isDefault = DRF_ROUTERS.get(cls);
      if (isDefault === undefined) return undefined;
      const slash = keywordArg(
        call.childForFieldName("arguments"),
        "trailing_slash",
      );
      return {
        module,
        node: call,
        isDefault,
        trailing: slash?.text === "False" ? "" : "/",
        mounts: [],
        registrations: [],
      };
    },
  );
  for (const { module, call, object, method } of memberCalls(project.list)) {
    if (method !== "register") continue;
    routers.of(object)?.registrations.push({ module, call });
  }
  if (routers.size === 0) return [];
  const attributes: ReadonlySet<string> = new Set(["attribute"]);
  for (const module of project.list) {
    if (!module.file.text.includes(".urls")) continue;
    for (const attr of findAll(module.tree.rootNode, attributes)) {
      if (attr.childForFieldName("attribute")?.text !== "urls") continue;
      const router = routers.of(attr.childForFieldName("object"));
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
    const listed = project.methodList(list);
    methods = listed ? [...new Set(listed)] : ["ANY"];
    if (!listed) confidence = CONFIDENCE.weak;
  }
  return { name, detail, path, methods, confidence, definition };
}
