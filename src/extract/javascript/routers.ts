// Routers and client instances of a JavaScript/TypeScript file (Express,
// Koa, Fastify, Hono; axios, ky), route registrations on them and the
// mounts that put routers and plugins under prefixes.
import { concat, isEmpty, literal, type Value } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import type { ChildRef, InstanceDef, RouterDef } from "./facts.ts";
import { routeGuard } from "./guarded.ts";
import { autoloadCall } from "./autoload.ts";
import { handledMethods } from "./method_switch.ts";
import {
  argList,
  bindingOfRequire,
  callbackElements,
  FUNCTION_TYPES,
  functionName,
  isPathish,
  isRelative,
  KOA_ROUTER_MODULES,
  methodValues,
  namedValue,
  OAK_MODULE,
  optionValue,
  pairValue,
  parameterHoles,
  pathValues,
  ROUTE_METHODS,
} from "./nodes.ts";
import type { MemberCall } from "./nodes.ts";
import { unwrap, valueOf } from "./values.ts";
import type { Node } from "../_syntax/tree.ts";
import { findAncestor, namedChildren, stringValue } from "../_syntax/tree.ts";

/** Routers (`express()`, `new Hono()`...) and client instances. */
export function factoryDecl(c: Collector, node: Node): void {
  const declared = namedValue(node);
  if (!declared) return;
  const { name } = declared;
  let v = unwrap(declared.value);
  if (v.type === "await_expression" && v.namedChild(0)) {
    v = unwrap(v.namedChild(0)!);
  }
  const router = routerFactory(c, v);
  if (router) {
    c.facts.routers.set(c.routerKey(name), router);
    return;
  }
  const instance = instanceFactory(c, v);
  if (instance) c.facts.instances.set(name.text, instance);
}

export function routerFactory(c: Collector, v: Node): RouterDef | undefined {
  if (v.type === "call_expression") {
    const callee = unwrap(v.childForFieldName("function")!);
    const args = argList(v);
    // express(), fastify(), require("express")()
    const direct = callee.type === "identifier"
      ? c.lib(callee)
      : callee.type === "call_expression"
      ? bindingOfRequire(callee)
      : undefined;
    if (direct) {
      if (direct.source === "express" && direct.name !== "Router") {
        return { framework: "express", prefix: literal("") };
      }
      if (direct.source === "express" && direct.name === "Router") {
        return { framework: "express", prefix: literal("") };
      }
      if (direct.source === "fastify") {
        return { framework: "fastify", prefix: literal("") };
      }
    }
    if (callee.type === "member_expression") {
      const object = unwrap(callee.childForFieldName("object")!);
      const property = callee.childForFieldName("property")?.text;
      const lib = object.type === "identifier"
        ? c.lib(object)
        : object.type === "call_expression"
        ? bindingOfRequire(object)
        : undefined;
      if (property === "Router" && lib?.source === "express") {
        return { framework: "express", prefix: literal("") };
      }
      if (
        (property === "server" || property === "Server") &&
        (lib?.source === "@hapi/hapi" || lib?.source === "hapi")
      ) {
        return { framework: "hapi", prefix: literal("") };
      }
      if (property === "createServer" && lib?.source === "restify") {
        return { framework: "restify", prefix: literal("") };
      }
      if (property === "basePath" && args[0]) {
        const base = routerOf(c, object);
        if (base?.framework === "hono") {
          return {
            framework: "hono",
            prefix: concat([base.prefix, valueOf(args[0])]),
          };
        }
      }
    }
  }
  if (v.type === "new_expression") {
    const ctor = v.childForFieldName("constructor");
    const lib = c.lib(ctor);
    const args = argList(v);
    if (lib && KOA_ROUTER_MODULES.has(lib.source)) {
      return { framework: "koa", prefix: optionValue(args[0], "prefix") };
    }
    if (lib && /^hono(\/|$)/.test(lib.source) && lib.name === "Hono") {
      return { framework: "hono", prefix: literal("") };
    }
    if (lib?.source === "koa") {
      return { framework: "koa", prefix: literal("") };
    }
    if (lib?.name === "Router" && OAK_MODULE.test(lib.source)) {
      return { framework: "oak", prefix: optionValue(args[0], "prefix") };
    }
    if (lib?.name === "Elysia" && lib.source === "elysia") {
      return { framework: "elysia", prefix: optionValue(args[0], "prefix") };
    }
    if (
      lib && /^(@hapi\/hapi|hapi)$/.test(lib.source) && lib.name === "Server"
    ) {
      return { framework: "hapi", prefix: literal("") };
    }
    if (lib?.source === "restify-router" && lib.name === "Router") {
      return { framework: "restify", prefix: literal("") };
    }
  }
  return undefined;
}

/** A router a receiver expression stands for, by local definition. */
export function routerOf(c: Collector, node: Node): RouterDef | undefined {
  const v = unwrap(node);
  if (v.type === "identifier") {
    const id = c.routerId(v);
    return id === undefined ? undefined : c.facts.routers.get(id);
  }
  return routerFactory(c, v);
}

export function instanceFactory(
  c: Collector,
  v: Node,
): InstanceDef | undefined {
  if (v.type !== "call_expression") return undefined;
  const callee = unwrap(v.childForFieldName("function")!);
  if (callee.type !== "member_expression") return undefined;
  const object = unwrap(callee.childForFieldName("object")!);
  const property = callee.childForFieldName("property")?.text;
  const args = argList(v);
  const lib = c.lib(object);
  if (lib?.source === "axios" && property === "create") {
    return { framework: "axios", base: optionValue(args[0], "baseURL") };
  }
  if (
    lib?.source === "ky" && (property === "create" || property === "extend")
  ) {
    return { framework: "ky", base: optionValue(args[0], "prefixUrl") };
  }
  if (
    object.type === "identifier" &&
    (property === "create" || property === "extend")
  ) {
    const parent = c.facts.instances.get(object.text);
    if (parent) {
      const key = parent.framework === "ky" ? "prefixUrl" : "baseURL";
      const own = optionValue(args[0], key);
      return {
        framework: parent.framework,
        base: isEmpty(own) ? parent.base : own,
      };
    }
  }
  return undefined;
}

// ---- calls --------------------------------------------------------

/** Route registrations and mounts on router receivers. */
export function serverCall(c: Collector, call: MemberCall): boolean {
  const { node, object, method, args } = call;
  const receiver = c.receiver(object);
  if (!receiver) return false;
  const { id, framework } = receiver;
  const first = args[0];
  if (method === "query" && !(first && literalPath(first, receiver))) {
    // `db.query(sql, params)` on a plugin's argument is no QUERY route
    return false;
  }
  if (method in ROUTE_METHODS && (framework !== "plugin" || first)) {
    if (first && args.length >= 2 && stringValue(unwrap(first)) === "*") {
      // Express 4's `app.all("*", h)`: every path
      route(
        c,
        node,
        id,
        [ROUTE_METHODS[method]!],
        literal("/*"),
        framework,
        args,
      );
    } else if (
      (framework === "koa" || framework === "oak") && first &&
      args.length >= 3 &&
      unwrap(first).type === "string" && isPathish(args[1]!) &&
      !stringValue(unwrap(first))!.startsWith("/")
    ) {
      // koa-router named route: router.get("user", "/users/:id", handler)
      for (const path of pathValues(args[1]!)) {
        route(c, node, id, [ROUTE_METHODS[method]!], path, framework, args);
      }
    } else if (first && args.length >= 2 && isPathish(first)) {
      for (const path of pathValues(first)) {
        route(c, node, id, [ROUTE_METHODS[method]!], path, framework, args);
      }
    } else if (
      framework === "restify" && first && args.length >= 2 &&
      unwrap(first).type === "object"
    ) {
      // restify server.get({ path: "/x", version: "1.0.0" }, handler)
      const url = pairValue(unwrap(first), "path") ??
        pairValue(unwrap(first), "url");
      if (url && isPathish(url)) {
        route(
          c,
          node,
          id,
          [ROUTE_METHODS[method]!],
          valueOf(url),
          framework,
          args,
        );
      }
    } else if (receiver.chainPath && first) {
      route(
        c,
        node,
        id,
        [ROUTE_METHODS[method]!],
        receiver.chainPath,
        framework,
        args,
      );
    }
    return true;
  }
  if (method === "on" && framework === "hono" && args.length >= 2) {
    const methods = methodValues(args[0]!);
    if (methods && isPathish(args[1]!)) {
      for (const path of pathValues(args[1]!)) {
        route(c, node, id, methods, path, framework, args);
      }
    }
    return true;
  }
  if (
    method === "route" && args.length === 1 &&
    unwrap(args[0]!).type === "array" && framework === "hapi"
  ) {
    // hapi server.route([{ method, path, handler }, ...])
    for (const item of namedChildren(unwrap(args[0]!))) {
      const options = unwrap(item);
      if (options.type !== "object") continue;
      const url = pairValue(options, "path");
      const methodNode = pairValue(options, "method");
      const methods = methodNode ? methodValues(methodNode) : undefined;
      if (url && isPathish(url) && methods) {
        route(c, node, id, methods, valueOf(url), framework, [options]);
      }
    }
    return true;
  }
  if (
    method === "group" && framework === "elysia" && first &&
    isPathish(first) && args.length >= 2
  ) {
    // Elysia app.group("/v1", (app) => app.get(...))
    const child = pluginRef(c, args[args.length - 1]!);
    if (child) {
      c.facts.mounts.push({
        parent: id,
        prefix: parameterHoles(node, valueOf(first)),
        child,
        kind: "plugin",
      });
    }
    return true;
  }
  if (
    method === "route" && args.length === 1 &&
    unwrap(args[0]!).type === "object"
  ) {
    // fastify app.route({ method, url, handler })
    const options = unwrap(args[0]!);
    const url = pairValue(options, "url") ?? pairValue(options, "path");
    const methodNode = pairValue(options, "method");
    const methods = methodNode ? methodValues(methodNode) : undefined;
    if (url && isPathish(url) && methods) {
      route(c, node, id, methods, valueOf(url), framework, [options]);
    }
    return true;
  }
  if (method === "route" && args.length === 2 && isPathish(args[0]!)) {
    // hono app.route("/prefix", sub)
    const child = childRef(c, args[1]!);
    if (child) {
      c.facts.mounts.push({
        parent: id,
        prefix: parameterHoles(node, valueOf(args[0]!)),
        child,
        kind: "router",
      });
    }
    return true;
  }
  if (method === "use") {
    for (const { prefix, child } of useMounts(c, args)) {
      c.facts.mounts.push({
        parent: id,
        prefix: parameterHoles(node, prefix),
        child,
        kind: "router",
      });
    }
    return true;
  }
  if (method === "register" && first) {
    // fastify app.register(plugin, { prefix })
    if (autoloadCall(c, id, first, args[1])) return true;
    const child = pluginRef(c, first);
    if (child) {
      c.facts.mounts.push({
        parent: id,
        prefix: parameterHoles(node, optionValue(args[1], "prefix")),
        child,
        kind: "plugin",
      });
    }
    return true;
  }
  if (method === "applyRoutes" && framework === "restify" && first) {
    // restify-router router.applyRoutes(server, "/prefix")
    const parent = c.receiver(first);
    if (parent) {
      c.facts.mounts.push({
        parent: parent.id,
        prefix: parameterHoles(node, optionalPath(args[1])),
        child: { local: id },
        kind: "router",
      });
    }
    return true;
  }
  if (method === "prefix" && first && framework === "koa") {
    const router = c.facts.routers.get(id);
    if (router) router.prefix = valueOf(first);
    return true;
  }
  return framework !== "plugin";
}

/** Records a route call; `router` is `undefined` for one that stands alone. */
export function route(
  c: Collector,
  node: Node,
  router: string | undefined,
  methods: string[],
  path: Value,
  framework: string,
  args: Node[],
): void {
  // app.all(path, handler) telling methods apart: one route per method
  const last = args[args.length - 1];
  const fn = methods.length === 1 && methods[0] === "ANY" && last &&
      FUNCTION_TYPES.has(unwrap(last).type)
    ? unwrap(last)
    : undefined;
  c.facts.routes.push({
    ...c.site(node),
    ...(router !== undefined ? { router } : {}),
    methods: (fn && handledMethods(fn)) ?? methods,
    path: parameterHoles(node, path),
    framework,
    extra: {},
    ...routeGuard(args, c.guardScope),
  });
}

/**
 * Whether a route call's first argument is a path written as a literal
 * (`"/search"`), or a handler when the receiver is a `route("/x")` chain.
 */
function literalPath(first: Node, receiver: { chainPath?: Value }): boolean {
  const v = unwrap(first);
  if (receiver.chainPath && FUNCTION_TYPES.has(v.type)) return true;
  if (v.type !== "string" && v.type !== "template_string") return false;
  const head = valueOf(v).parts[0];
  return typeof head === "string" && head.startsWith("/");
}

/** A path argument, or the empty prefix when there is none. */
function optionalPath(arg: Node | undefined): Value {
  return arg && isPathish(arg) ? valueOf(arg) : literal("");
}

/** A mounted router: `router`, `router.routes()`, `require("./r")`, an import. */
export function childRef(c: Collector, arg: Node): ChildRef | undefined {
  let v = unwrap(arg);
  if (v.type === "call_expression") {
    const required = bindingOfRequire(v);
    if (required) {
      return isRelative(required.source) ? { import: required } : undefined;
    }
    const callee = unwrap(v.childForFieldName("function")!);
    const property = callee.type === "member_expression"
      ? callee.childForFieldName("property")?.text
      : undefined;
    if (property !== "routes" && property !== "middleware") {
      // app.use("/api", apiRouter()): the router the function returns
      if (callee.type !== "identifier") return undefined;
      const imported = c.facts.imports.get(callee.text);
      if (imported) {
        return isRelative(imported.source) ? { import: imported } : undefined;
      }
      return c.functions.has(callee.text)
        ? { local: `fn:${callee.text}` }
        : undefined;
    }
    v = unwrap(callee.childForFieldName("object")!);
  }
  if (v.type !== "identifier") return undefined;
  const id = c.routerId(v);
  if (id !== undefined) return { local: id };
  const binding = c.facts.imports.get(v.text);
  if (binding && isRelative(binding.source)) return { import: binding };
  return undefined;
}

/**
 * Records a function that returns a router (`function api() { const r =
 * Router(); ...; return r }`, `() => router`): mounting its result mounts
 * that router.
 */
export function routerReturn(c: Collector, node: Node): void {
  const value = node.type === "return_statement"
    ? node.namedChild(0)
    : node.childForFieldName("body");
  if (!value || unwrap(value).type !== "identifier") return;
  const router = c.routerId(unwrap(value));
  if (router === undefined) return;
  const fn = node.type === "arrow_function"
    ? node
    : findAncestor(node, FUNCTION_TYPES);
  const name = fn ? functionName(fn) : undefined;
  if (name) c.facts.returns.set(name, router);
}

/** A fastify plugin: a local function, an import, `fp(fn)`. */
export function pluginRef(c: Collector, arg: Node): ChildRef | undefined {
  let v = unwrap(arg);
  if (v.type === "call_expression") {
    const callee = unwrap(v.childForFieldName("function")!);
    const lib = c.lib(callee);
    const required = bindingOfRequire(v);
    if (required) {
      return isRelative(required.source) ? { import: required } : undefined;
    }
    if (lib?.source !== "fastify-plugin") return undefined;
    const inner = argList(v)[0];
    if (!inner) return undefined;
    v = unwrap(inner);
  }
  // register(async (instance, opts) => { ... }, { prefix })
  if (FUNCTION_TYPES.has(v.type)) return { local: `fn:@${v.startIndex}` };
  if (v.type !== "identifier") return undefined;
  const binding = c.facts.imports.get(v.text);
  if (binding) {
    return isRelative(binding.source) ? { import: binding } : undefined;
  }
  return { local: `fn:${v.text}` };
}

/**
 * The routers an `app.use(...)` mounts with their prefixes: `use(router)`,
 * `use("/api", a, b)`, `use(["/v1", "/v2"], router)`, and in a callback run
 * over a config array, `ROUTES.forEach((r) => app.use(r.path, r.route))`
 * (one mount per element).
 */
function useMounts(
  c: Collector,
  args: Node[],
): Array<{ prefix: Value; child: ChildRef }> {
  const out: Array<{ prefix: Value; child: ChildRef }> = [];
  const first = args[0];
  const configured = first ? configMounts(c, first, args[1]) : undefined;
  if (configured) return configured;
  let prefixes = [literal("")];
  let rest = args;
  if (first && isPathish(first) && !childRef(c, first)) {
    prefixes = pathValues(first);
    rest = args.slice(1);
  }
  for (const arg of rest) {
    const child = childRef(c, arg);
    if (!child) continue;
    for (const prefix of prefixes) out.push({ prefix, child });
  }
  return out;
}

/** `app.use(r.path, r.route)` where `r` runs over an array of objects. */
function configMounts(
  c: Collector,
  prefixArg: Node,
  childArg: Node | undefined,
): Array<{ prefix: Value; child: ChildRef }> | undefined {
  const prefix = unwrap(prefixArg);
  const child = childArg ? unwrap(childArg) : undefined;
  const object = prefix.type === "member_expression"
    ? prefix.childForFieldName("object")
    : null;
  if (
    object?.type !== "identifier" || child?.type !== "member_expression" ||
    child.childForFieldName("object")?.text !== object.text
  ) return undefined;
  const elements = callbackElements(object, c.arrays);
  if (!elements) return undefined;
  const prefixKey = prefix.childForFieldName("property")?.text ?? "";
  const childKey = child.childForFieldName("property")?.text ?? "";
  const out: Array<{ prefix: Value; child: ChildRef }> = [];
  for (const element of elements) {
    if (element.type !== "object") continue;
    const path = pairValue(element, prefixKey);
    const target = pairValue(element, childKey);
    const ref = target ? childRef(c, target) : undefined;
    if (path && ref) out.push({ prefix: valueOf(path), child: ref });
  }
  return out;
}

/** Libraries whose instances send requests on methods named like verbs. */
const FORM_CLIENTS: ReadonlySet<string> = new Set(["vform"]);

/**
 * A form client kept on the component (`form: new Form({...})` in a Vue
 * component's `data`, `this.form = new Form()`): its calls `this.form.post(url)`
 * are client calls, recorded as the instance `this.form`.
 */
export function componentInstance(c: Collector, node: Node): void {
  const lib = c.lib(node.childForFieldName("constructor"));
  if (!lib || !FORM_CLIENTS.has(lib.source)) return;
  let holder = node.parent;
  while (holder && holder.type === "parenthesized_expression") {
    holder = holder.parent;
  }
  let name: string | undefined;
  if (holder?.type === "pair") {
    const key = holder.childForFieldName("key");
    if (key?.type === "property_identifier") name = key.text;
  } else if (holder?.type === "assignment_expression") {
    const left = holder.childForFieldName("left");
    if (
      left?.type === "member_expression" &&
      left.childForFieldName("object")?.type === "this"
    ) name = left.childForFieldName("property")?.text;
  }
  if (name) {
    c.facts.instances.set(`this.${name}`, {
      framework: lib.source,
      base: literal(""),
    });
  }
}
