// FastAPI and Flask routers of a Python project: applications, `APIRouter`s
// and blueprints, the prefixes they get through `include_router`,
// `register_blueprint` and `mount` across modules, and their routes.
import { HTTP_VERBS, httpPort } from "../_port/http.ts";
import { ownerOf } from "../_syntax/compact_tree.ts";
import {
  CONFIDENCE,
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
  type PyModule,
  type PyProject,
  unwrap,
} from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";
import { argumentFor, type PyFlow } from "./flow.ts";
import { enclosingFunction, isParameter } from "./module.ts";

export const VERBS: ReadonlySet<string> = new Set([...HTTP_VERBS, "trace"]);
const ROUTER_CONSTRUCTORS: ReadonlyMap<string, "fastapi" | "flask"> = new Map([
  ["fastapi.FastAPI", "fastapi"],
  ["fastapi.APIRouter", "fastapi"],
  ["fastapi.routing.APIRouter", "fastapi"],
  ["fastapi.applications.FastAPI", "fastapi"],
  ["flask.Flask", "flask"],
  ["flask.Blueprint", "flask"],
  ["flask.blueprints.Blueprint", "flask"],
]);
/** A FastAPI/Flask application, router or blueprint. */
export interface Router {
  id: string;
  framework: "fastapi" | "flask";
  prefix: Value | undefined;
  mounts: Mount[];
}

interface Mount {
  parent: Router;
  prefix: Value | undefined;
}

interface Route {
  router: Router;
  path: Value;
  raw: string;
  methods: string[];
  confidence: number;
}

/**
 * A Flask converter `<name>`, `<int:name>` or `<regex("[a-z]+"):name>`. The
 * converter's arguments are bounded in length, so a rule of many `<a(` with
 * no closing parenthesis is matched in linear time.
 */
const FLASK_CONVERTER = /<(?:[\w.]+(?:\([^)]{0,256}\))?:)?(\w+)>/g;

/** A Flask rule with converters (`<int:id>`) as a path with `{id}` parameters. */
export function flaskRule(value: Value): Value {
  return mapText(value, (text) => text.replace(FLASK_CONVERTER, "{$1}"));
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
      for (const call of module.calls) this.#mount(call);
    }
  }

  /** The router an expression evaluates to, if it is one. */
  routerOf(expr: Node | undefined | null): Router | undefined {
    if (!expr) return undefined;
    const project = this.#project;
    let target = project.resolveExpr(unwrap(expr));
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
    const framework = callee
      ? ROUTER_CONSTRUCTORS.get(project.externalName(callee) ?? "")
      : undefined;
    if (!framework) return undefined;
    const id = `${target.module.name}:${value.startIndex}`;
    let router = this.#routers.get(id);
    if (!router) {
      const args = value.childForFieldName("arguments");
      const prefixNode = keywordArg(
        args,
        framework === "fastapi" ? "prefix" : "url_prefix",
      );
      router = {
        id,
        framework,
        prefix: prefixNode ? project.evalString(prefixNode) : undefined,
        mounts: [],
      };
      this.#routers.set(id, router);
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
    if (method === "include_router" || method === "register_blueprint") {
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
    } else return;
    const object = callee.childForFieldName("object");
    const module = this.#project.moduleOf(call);
    if (!child || !object || !module) return;
    const prefix = prefixNode
      ? this.#project.evalString(prefixNode) ?? hole(prefixNode.text)
      : undefined;
    const parent = this.routerOf(object);
    if (parent) {
      if (parent === child) return;
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
      // Flask converters: <int:order_id> -> {order_id}
      route.router.framework === "flask" ? flaskRule(f.value) : f.value
    );
    for (const [prefix, path] of crossing(prefixesOf(route.router), paths)) {
      const result = routePath(joinPaths(prefix, path), !isEmpty(prefix));
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

/** Every prefix of a router through its mounts. */
export function prefixesOf(router: Router, seen = new Set<Router>()): Value[] {
  const own = router.prefix ?? literal("");
  if (router.mounts.length === 0 || seen.has(router)) return [own];
  seen.add(router);
  const out: Value[] = [];
  for (const mount of router.mounts) {
    for (const parentPrefix of prefixesOf(mount.parent, seen)) {
      if (router.framework === "flask" && mount.prefix !== undefined) {
        // register_blueprint(url_prefix=...) replaces the blueprint's own
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

function routeOf(
  call: Node,
  routerOf: (expr: Node | null) => Router | undefined,
  project: PyProject,
): Route | undefined {
  const callee = call.childForFieldName("function");
  if (callee?.type !== "attribute") return undefined;
  const name = callee.childForFieldName("attribute")?.text ?? "";
  const isVerb = VERBS.has(name);
  const isGeneric = name === "route" || name === "api_route" ||
    name === "add_api_route" || name === "add_url_rule";
  if (!isVerb && !isGeneric) return undefined;
  const router = routerOf(callee.childForFieldName("object"));
  if (!router) return undefined;
  if (
    router.framework === "fastapi" &&
    (name === "route" || name === "add_url_rule")
  ) {
    return undefined;
  }
  if (
    router.framework === "flask" &&
    (name === "api_route" || name === "add_api_route")
  ) {
    return undefined;
  }
  const args = call.childForFieldName("arguments");
  const pathNode = argument(
    args,
    0,
    router.framework === "fastapi" ? "path" : "rule",
  );
  if (!pathNode) return undefined;
  const path = project.evalString(pathNode);
  if (!path) return undefined;
  let methods: string[] = [];
  let confidence = 1;
  if (isVerb) methods = [name.toUpperCase()];
  else {
    const list = keywordArg(args, "methods");
    if (!list) methods = ["GET"];
    else {
      const listed = project.methodList(list);
      methods = listed ?? ["ANY"];
      if (!listed) confidence = CONFIDENCE.weak;
    }
  }
  return { router, path, raw: pathNode.text, methods, confidence };
}

/** Every pair of an item of `a` and an item of `b`. */
function crossing<A, B>(a: readonly A[], b: readonly B[]): Array<[A, B]> {
  return a.flatMap((x) => b.map((y): [A, B] => [x, y]));
}
