// The routers of a Python project (FastAPI, Flask, Quart, Sanic, Bottle,
// Django Ninja): applications, `APIRouter`s, blueprints and Ninja routers,
// the prefixes they get through `include_router`, `register_blueprint`,
// `blueprint`, `add_router` and `mount` across modules, and their routes.
import { httpPort } from "../_port/http.ts";
import {
  flaskRule,
  ninjaPath,
  routeOf,
  sanicRule,
  versionText,
} from "./route_calls.ts";
import { namedChildren, ownerOf } from "../_syntax/compact_tree.ts";
import {
  exactText,
  hole,
  isEmpty,
  joinPaths,
  literal,
  mapText,
  MAX_CALL_SITES,
  routePath,
  type Value,
} from "../_value/mod.ts";
import {
  argument,
  keywordArg,
  positionalArgs,
  type PyModule,
  type PyProject,
  type PyTarget,
  unwrap,
} from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";
import { argumentFor, type PyFlow } from "./flow.ts";
import { enclosingFunction, isParameter } from "./module.ts";

/** The frameworks whose applications and routers {@linkcode PyRouters} reads. */
export type RouterFramework =
  | "fastapi"
  | "flask"
  | "quart"
  | "sanic"
  | "bottle"
  | "ninja"
  | "robyn";
const ROUTER_CONSTRUCTORS: ReadonlyMap<string, RouterFramework> = new Map([
  ["fastapi.FastAPI", "fastapi"],
  ["fastapi.APIRouter", "fastapi"],
  ["fastapi.routing.APIRouter", "fastapi"],
  ["fastapi.applications.FastAPI", "fastapi"],
  ["flask.Flask", "flask"],
  ["flask.Blueprint", "flask"],
  ["flask.blueprints.Blueprint", "flask"],
  ["quart.Quart", "quart"],
  ["quart.Blueprint", "quart"],
  ["quart.blueprints.Blueprint", "quart"],
  ["sanic.Sanic", "sanic"],
  ["sanic.app.Sanic", "sanic"],
  ["sanic.Blueprint", "sanic"],
  ["sanic.blueprints.Blueprint", "sanic"],
  ["bottle.Bottle", "bottle"],
  ["ninja.NinjaAPI", "ninja"],
  ["robyn.Robyn", "robyn"],
  ["robyn.SubRouter", "robyn"],
  ["ninja.Router", "ninja"],
  ["ninja.router.Router", "ninja"],
]);
/** A FastAPI/Flask/Quart/Sanic application, router or blueprint. */
export interface Router {
  id: string;
  framework: RouterFramework;
  prefix: Value | undefined;
  mounts: Mount[];
  /** Sanic's `version=`: routes get a `/v<version>` prefix. */
  version?: string | undefined;
}

const SANIC_GROUPS: ReadonlySet<string> = new Set([
  "sanic.Blueprint.group",
  "sanic.blueprints.Blueprint.group",
]);

interface Mount {
  parent: Router;
  prefix: Value | undefined;
}

/** The routers of a project, found from the expressions that use them. */
export class PyRouters {
  readonly #project: PyProject;
  readonly #flow: PyFlow;
  readonly #routers = new Map<string, Router>();

  constructor(project: PyProject, flow: PyFlow) {
    this.#project = project;
    this.#flow = flow;
    // mounts first, so every route sees all of its prefixes
    for (const module of project.list) {
      for (const call of module.calls) {
        this.#mount(call);
        this.#djangoMount(call);
      }
    }
  }

  /** A Django Ninja router given as an expression or a dotted name. */
  #ninjaRouter(expr: Node | undefined): Router | undefined {
    if (expr?.type !== "string") return this.routerOf(expr);
    const name = exactText(this.#project.evalString(expr)) ?? "";
    const dot = name.lastIndexOf(".");
    const module = this.#project.findModule(name.slice(0, dot));
    const target = module
      ? this.#project.resolveName(module, name.slice(dot + 1))
      : undefined;
    return target ? this.routerOf(expr, target) : undefined;
  }

  /** Django `path("api/", api.urls)` of a Ninja API: its prefix. */
  #djangoMount(call: Node): void {
    // the cheap test first: this runs on every call of the project
    const args = call.childForFieldName("arguments");
    const view = argument(args, 1, "view");
    if (
      view?.type !== "attribute" ||
      view.childForFieldName("attribute")?.text !== "urls"
    ) return;
    const name = this.#project.calleeName(call);
    if (name !== "django.urls.path" && name !== "django.urls.re_path") return;
    const api = this.routerOf(view.childForFieldName("object"));
    const route = this.#project.evalString(argument(args, 0, "route"));
    if (api?.framework !== "ninja" || !route) return;
    const module = this.#project.moduleOf(call);
    const parent: Router = {
      id: `${module?.name}:${call.startIndex}`,
      framework: "ninja",
      prefix: mapText(route, (t) => t.replace(/^\^/, "")),
      mounts: [],
    };
    api.mounts.push({ parent, prefix: undefined });
  }

  /** The router an expression evaluates to, if it is one. */
  routerOf(
    expr: Node | undefined | null,
    resolved?: PyTarget,
  ): Router | undefined {
    if (!expr) return undefined;
    const project = this.#project;
    let target = resolved ?? project.resolveExpr(unwrap(expr));
    if (!target && unwrap(expr).type === "call") {
      // `include_router(build_router())`: the router the function returns
      const callee = unwrap(expr).childForFieldName("function");
      const fn = callee ? project.resolveExpr(callee) : undefined;
      if (fn?.kind === "function") {
        target = project.returned(fn.module, fn.node, 0);
        // `return router`: the router it names
        if (target?.kind === "value" && target.node.type === "identifier") {
          target = project.resolveExpr(target.node);
        }
      }
    }
    if (target?.kind !== "value") return undefined;
    const value = unwrap(target.node);
    if (value.type !== "call") return undefined;
    const callee = value.childForFieldName("function");
    const constructor = callee ? project.externalName(callee) ?? "" : "";
    // Sanic `Blueprint.group(bp_a, bp_b, url_prefix=...)`: a router its
    // members are mounted under
    const framework = ROUTER_CONSTRUCTORS.get(constructor) ??
      (SANIC_GROUPS.has(constructor) ? "sanic" : undefined);
    if (!framework) return undefined;
    const id = `${target.module.name}:${value.startIndex}`;
    let router = this.#routers.get(id);
    if (!router) {
      const args = value.childForFieldName("arguments");
      const prefixNode = framework === "robyn"
        ? argument(args, 1, "prefix")
        : keywordArg(args, framework === "fastapi" ? "prefix" : "url_prefix");
      const version = keywordArg(args, "version");
      router = {
        id,
        framework,
        prefix: prefixNode ? project.evalString(prefixNode) : undefined,
        mounts: [],
        version: version ? versionText(project, version) : undefined,
      };
      this.#routers.set(id, router);
      if (SANIC_GROUPS.has(constructor)) {
        for (const member of positionalArgs(args)) {
          const members = member.type === "list" || member.type === "tuple"
            ? namedChildren(member)
            : [member];
          for (const node of members) {
            const child = this.routerOf(node);
            if (child && child !== router) {
              child.mounts.push({ parent: router, prefix: undefined });
            }
          }
        }
      }
    }
    return router;
  }

  #mount(call: Node): void {
    const callee = call.childForFieldName("function");
    if (callee?.type !== "attribute") return;
    const method = callee.childForFieldName("attribute")?.text;
    const args = call.childForFieldName("arguments");
    let child: Router | undefined;
    let prefixNode: Node | undefined;
    if (
      method === "include_router" || method === "register_blueprint" ||
      method === "blueprint"
    ) {
      child = this.routerOf(
        argument(args, 0, method === "include_router" ? "router" : "blueprint"),
      );
      prefixNode = keywordArg(
        args,
        method === "include_router" ? "prefix" : "url_prefix",
      );
    } else if (method === "mount") {
      child = this.routerOf(argument(args, 1, "app"));
      prefixNode = argument(args, 0, "path");
    } else if (method === "add_router") {
      // Django Ninja: `api.add_router("/events/", router)` (or its dotted name)
      child = this.#ninjaRouter(argument(args, 1, "router"));
      prefixNode = argument(args, 0, "prefix");
    } else return;
    const object = callee.childForFieldName("object");
    const module = this.#project.moduleOf(call);
    if (!child || !object || !module) return;
    const prefix = prefixNode
      ? this.#project.evalString(prefixNode) ?? hole(prefixNode.text)
      : undefined;
    const parent = this.routerOf(object);
    if (parent) {
      if (parent === child || !mountsOn(parent.framework, method)) return;
      if (!prefix) child.mounts.push({ parent, prefix: undefined });
      for (
        const { value } of prefix ? this.#flow.expand(module, call, prefix) : []
      ) child.mounts.push({ parent, prefix: value });
      return;
    }
    // a wrapper: `def mount(app, prefix): app.include_router(r, prefix=prefix)`
    const fn = enclosingFunction(module, call);
    if (!fn || object.type !== "identifier" || !isParameter(module, object)) {
      return;
    }
    for (const site of this.#flow.sitesOf(fn).slice(0, MAX_CALL_SITES)) {
      const argument = argumentFor(fn, site.call, object.text);
      const outer = argument ? this.routerOf(argument) : undefined;
      if (!outer || outer === child) continue;
      if (!prefix) child.mounts.push({ parent: outer, prefix: undefined });
      for (
        const { value } of prefix ? this.#flow.expandAt(fn, site, prefix) : []
      ) child.mounts.push({ parent: outer, prefix: value });
    }
  }

  /**
   * The static-file route of an application (`Flask(static_url_path=...)`,
   * Sanic `app.static(uri, dir)`, `app.mount(path, StaticFiles(...))`).
   */
  staticPorts(module: PyModule, call: Node): ExtractedPort[] | undefined {
    const callee = call.childForFieldName("function");
    const args = call.childForFieldName("arguments");
    let router: Router | undefined;
    let uri: Node | undefined;
    const method = callee?.type === "attribute"
      ? callee.childForFieldName("attribute")?.text
      : undefined;
    if (
      callee?.type === "attribute" &&
      (method === "static" || method === "mount")
    ) {
      router = this.routerOf(callee.childForFieldName("object"));
      if (!router) return undefined;
      if (method === "static") {
        if (router.framework !== "sanic") return undefined;
      } else {
        // `mount("/assets", StaticFiles(directory=...))`
        const app = argument(args, 1, "app");
        const made = app ? unwrap(app) : undefined;
        const maker = made?.type === "call"
          ? made.childForFieldName("function")
          : undefined;
        const name = maker ? this.#project.externalName(maker) : undefined;
        if (!name || !/(^|\.)StaticFiles$/.test(name)) return undefined;
      }
      uri = argument(args, 0, method === "static" ? "uri" : "path");
    } else if (callee) {
      // the cheap test first: this runs on every call that is not a route
      uri = keywordArg(args, "static_url_path");
      if (!uri) return undefined;
      const name = this.#project.externalName(callee);
      if (name !== "flask.Flask" && name !== "quart.Quart") return undefined;
      // an application: at the root
      router = {
        id: "",
        framework: name === "flask.Flask" ? "flask" : "quart",
        prefix: undefined,
        mounts: [],
      };
    }
    const path = uri ? this.#project.evalString(uri) : undefined;
    if (!router || !uri || !path) return undefined;
    const owner = ownerOf(call, module.file.path, "python");
    const ports: ExtractedPort[] = [];
    for (const prefix of prefixesOf(router)) {
      const full = joinPaths(joinPaths(prefix, path), "{filename}");
      const result = routePath(full, !isEmpty(prefix));
      const port = httpPort({
        role: "server",
        method: "GET",
        path: result.path,
        node: call,
        owner,
        filePath: module.file.path,
        confidence: result.confidence,
        framework: router.framework,
        extra: { raw: uri.text },
      });
      if (port) ports.push(port);
    }
    return ports;
  }

  /** The prefixes of a Flask app or blueprint expression, if it is one. */
  flaskPrefixes(expr: Node): Value[] | undefined {
    const router = this.routerOf(expr);
    return router?.framework === "flask" ? prefixesOf(router) : undefined;
  }

  /** The ports of a route call (`@app.get(...)`, `add_url_rule`), if it is one. */
  routePorts(module: PyModule, call: Node): ExtractedPort[] | undefined {
    const route = routeOf(call, (expr) => this.routerOf(expr), this.#project);
    if (!route) return undefined;
    const anchor = call.parent?.type === "decorator" ? call.parent : call;
    const definition = anchor.type === "decorator"
      ? anchor.parent?.childForFieldName("definition") ?? call
      : call;
    const owner = ownerOf(definition, module.file.path, "python");
    const ports: ExtractedPort[] = [];
    const paths = this.#flow.expand(module, call, route.path).map((f) =>
      // converters: <int:order_id> (Flask), <order_id:int> (Sanic) -> {order_id}
      route.router.framework === "fastapi"
        ? f.value
        : route.router.framework === "robyn"
        ? mapText(f.value, (t) => t.replace(/:(\w+)/g, "{$1}"))
        : route.router.framework === "ninja"
        ? ninjaPath(f.value)
        : route.router.framework === "sanic" ||
            route.router.framework === "bottle"
        ? sanicRule(f.value)
        : flaskRule(f.value)
    );
    const version = route.version ?? versionOf(route.router);
    for (const [prefix, path] of crossing(prefixesOf(route.router), paths)) {
      const versioned = version === undefined
        ? prefix
        : joinPaths(`/v${version.replace(/^v/, "")}`, prefix);
      const result = routePath(
        joinPaths(versioned, path),
        !isEmpty(versioned),
      );
      for (const method of route.methods) {
        const port = httpPort({
          role: "server",
          method,
          path: result.path,
          node: anchor,
          owner,
          filePath: module.file.path,
          confidence: Math.min(result.confidence, route.confidence),
          framework: route.router.framework,
          extra: { raw: route.raw },
        });
        if (port) ports.push(port);
      }
    }
    return ports;
  }
}

/**
 * The frameworks where a prefix given when a blueprint is registered
 * replaces the blueprint's own (FastAPI and Robyn compose them).
 */
const REPLACES_OWN_PREFIX: ReadonlySet<RouterFramework> = new Set([
  "flask",
  "quart",
  "sanic",
  "bottle",
  "ninja",
]);

/** Every prefix of a router through its mounts. */
export function prefixesOf(router: Router, seen = new Set<Router>()): Value[] {
  const own = router.prefix ?? literal("");
  if (router.mounts.length === 0 || seen.has(router)) return [own];
  seen.add(router);
  const out: Value[] = [];
  for (const mount of router.mounts) {
    for (const parentPrefix of prefixesOf(mount.parent, seen)) {
      if (
        REPLACES_OWN_PREFIX.has(router.framework) && mount.prefix !== undefined
      ) {
        // register_blueprint(url_prefix=...) (Sanic: blueprint(...))
        // replaces the blueprint's own
        out.push(joinPaths(parentPrefix, mount.prefix));
      } else {
        out.push(
          joinPaths(joinPaths(parentPrefix, mount.prefix ?? literal("")), own),
        );
      }
    }
  }
  seen.delete(router);
  return out;
}

/** Whether `method` registers a child router on a `framework` router. */
function mountsOn(
  framework: RouterFramework,
  method: string | undefined,
): boolean {
  if (method === "mount") return true;
  if (framework === "fastapi" || framework === "robyn") {
    return method === "include_router";
  }
  if (framework === "sanic") return method === "blueprint";
  if (framework === "ninja") return method === "add_router";
  return method === "register_blueprint";
}

/** The Sanic `version=` of a router, its own or that of a group it is in. */
function versionOf(router: Router, depth = 0): string | undefined {
  if (router.version !== undefined || depth > 8) return router.version;
  for (const mount of router.mounts) {
    const version = versionOf(mount.parent, depth + 1);
    if (version !== undefined) return version;
  }
  return undefined;
}

/** Every pair of an item of `a` and an item of `b`. */
function crossing<A, B>(a: readonly A[], b: readonly B[]): Array<[A, B]> {
  return a.flatMap((x) => b.map((y): [A, B] => [x, y]));
}
