// Java routing DSLs: Javalin (`app.get("/x", h)`, `ApiBuilder`'s
// `path("/api", () -> { get("/x", h); crud("/users/{id}", c); })`), Spark
// (`get("/x", (req, res) -> ...)` under `path(...)`) and Vert.x Web
// (`router.get("/x").handler(h)`, `router.route(HttpMethod.POST, "/x")`,
// `router.route().method(...).path(...)`, sub-routers mounted under a
// prefix).
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS, HTTP_VERBS } from "../_port/http.ts";
import { lambdaCalls } from "../_syntax/lambdas.ts";
import { walk } from "../_syntax/tree.ts";
import { joinPaths, keyText, literal, type Value } from "../_value/mod.ts";
import type { JavaFile } from "./project.ts";
import { type Invocation, invocation, serverRoute } from "./route_at.ts";
import { contextPrefix } from "../_spring/settings.ts";

/** The routing DSLs a file imports. */
export interface RouterKinds {
  javalin: boolean;
  spark: boolean;
  vertx: boolean;
}

/** Which routing DSLs a file uses, by its imports. */
export function routerKinds(text: string): RouterKinds | undefined {
  const kinds = {
    javalin: /import\s+(static\s+)?io\.javalin\b/.test(text),
    spark: /import\s+(static\s+)?spark\.(Spark|Service|Route)\b/.test(text),
    vertx: /import\s+io\.vertx\.(ext\.web|core\.http)\b/.test(text) ||
      /import\s+io\.vertx\.ext\.web\./.test(text),
  };
  return kinds.javalin || kinds.spark || kinds.vertx ? kinds : undefined;
}

/** A `HandlerType.GET`/`HttpMethod.POST` argument's method. */
function methodOf(node: Node | undefined): string | undefined {
  const text = node?.text ?? "";
  const m = /^(?:[\w.]*\.)?(?:HandlerType|HttpMethod)\.(\w+)$/.exec(text);
  const method = m?.[1]?.toUpperCase();
  return method && HTTP_METHODS.has(method) ? method : undefined;
}

/** Whether an expression may be a path (a string or a name holding one). */
function pathLike(node: Node | undefined): boolean {
  return node !== undefined &&
    /^(string_literal|identifier|field_access|binary_expression|method_invocation)$/
      .test(node.type) &&
    !/^(ctx|req|request|handler)$/.test(node.text);
}

/** Emits one server route. */
function emit(
  c: JavaFile,
  at: Node,
  method: string,
  prefixes: readonly Value[],
  path: Value,
  framework: string,
): void {
  serverRoute(c, at, {
    methods: [method],
    context: contextPrefix(c.settings, c.file.path),
    prefixes: prefixes.filter((p) => keyText(p) !== ""),
    path,
    framework,
  });
}

/** The routes of one Java file that uses a routing DSL. */
export function dslRoutes(c: JavaFile, root: Node, kinds: RouterKinds): void {
  const mounts = kinds.vertx ? vertxMounts(c, root) : new Map();
  walk(root, (node) => {
    const call = invocation(node);
    if (!call) return;
    if (kinds.javalin || kinds.spark) builderRoute(c, call, kinds);
    if (kinds.javalin) javalinStaticFiles(c, call);
    if (kinds.spark) sparkStaticFiles(c, call);
    if (kinds.vertx) vertxRoute(c, call, mounts);
  });
}

/** The classes whose static calls are the path DSL. */
const BUILDERS = /^(ApiBuilder|Spark|spark\.Spark)$/;
/** The app receivers of Javalin and Spark (`app.get(...)`, `http.get(...)`). */
const APPS: ReadonlySet<string> = new Set(["Javalin", "Service", "Redirect"]);

/**
 * Javalin's and Spark's verbs: `app.get(path, handler)` on a Javalin app
 * or a Spark service, `get(path, handler)` of the static DSL under the
 * `path(prefix, () -> ...)` around it, Javalin's `crud(path, controller)`
 * and `addHttpHandler(HandlerType.X, path, handler)`.
 */
function builderRoute(c: JavaFile, call: Invocation, kinds: RouterKinds): void {
  const framework = kinds.javalin ? "javalin" : "spark";
  const onApp = call.object !== null && !BUILDERS.test(call.object.text);
  if (onApp) {
    const type = c.receiverType(call.object) ?? appChain(call.object) ??
      (kinds.spark && call.object?.text === "redirect"
        ? "Redirect"
        : undefined);
    if (!type || !APPS.has(type)) return;
  }
  const context = kinds.javalin ? appContext(c, call.node) : [];
  const inPath = onApp ? [] : pathPrefixes(c, call.node);
  if (!onApp && inPath === undefined && !staticDsl(c, call)) return;
  // Javalin's context path is under every route of the app
  const prefixes = inPath === undefined ? undefined : [...context, ...inPath];
  let verb = HTTP_VERBS.has(call.name) ? call.name.toUpperCase() : undefined;
  if (call.name === "sse" && kinds.javalin) verb = "GET";
  if (call.name === "any" && kinds.spark) verb = "ANY";
  if (verb) {
    const [first, second] = call.args;
    if (second && pathLike(first)) {
      emit(c, call.node, verb, prefixes ?? [], c.evaluate(first), framework);
    } else if (first && !second && !onApp && prefixes && kinds.javalin) {
      // `get(handler)` inside `path("/x", ...)`: the path's own route
      emit(c, call.node, verb, prefixes, literal(""), framework);
    }
    return;
  }
  if (
    (call.name === "addHttpHandler" || call.name === "addHandler") &&
    onApp && call.args.length >= 3
  ) {
    const method = methodOf(call.args[0]);
    if (method) {
      const path = c.evaluate(call.args[1]);
      emit(c, call.node, method, prefixes ?? [], path, framework);
    }
    return;
  }
  if (call.name === "crud" && kinds.javalin && !onApp) {
    // `crud("/users/{id}", c)`, or `crud(c)` inside `path("/users/{id}")`
    const path = joinPaths(
      ...(prefixes ?? []),
      call.args.length >= 2 ? c.evaluate(call.args[0]) : literal(""),
    );
    const [collection, member] = crudPaths(path);
    for (const [method, p] of CRUD) {
      emit(
        c,
        call.node,
        method,
        [],
        p === "one" ? member : collection,
        framework,
      );
    }
  }
}

/**
 * Javalin's static files: `config.staticFiles.add("/public", location)`
 * (served from the root), `add(files -> { files.hostedPath = "/x"; })`
 * and `enableWebjars()` (`/webjars/*`), under the app's context path.
 */
function javalinStaticFiles(c: JavaFile, call: Invocation): void {
  if (!/(^|\.)staticFiles$/.test(call.object?.text ?? "")) return;
  let hosted: Value | undefined;
  if (call.name === "enableWebjars" && call.args.length === 0) {
    hosted = literal("/webjars");
  } else if (call.name === "add" && call.args.length === 2) {
    hosted = literal("");
  } else if (
    call.name === "add" && call.args[0]?.type === "lambda_expression"
  ) {
    hosted = literal("");
    walk(call.args[0], (node) => {
      if (node.type !== "assignment_expression") return;
      const left = node.childForFieldName("left")?.text ?? "";
      if (/(^|\.)hostedPath$/.test(left)) {
        hosted = c.evaluate(node.childForFieldName("right"));
      }
    });
  }
  if (!hosted) return;
  const path = joinPaths(hosted, literal("/*"));
  emit(c, call.node, "GET", appContext(c, call.node), path, "javalin");
}

/**
 * Spark's static files (`staticFiles.location("/public")`,
 * `externalLocation(dir)`), served from the root.
 */
function sparkStaticFiles(c: JavaFile, call: Invocation): void {
  if (!/^(Spark\.)?staticFiles$/.test(call.object?.text ?? "")) return;
  if (call.name !== "location" && call.name !== "externalLocation") return;
  if (call.args.length !== 1) return;
  emit(c, call.node, "GET", [], literal("/*"), "spark");
}

const CRUD: ReadonlyArray<[string, "all" | "one"]> = [
  ["GET", "all"],
  ["POST", "all"],
  ["GET", "one"],
  ["PATCH", "one"],
  ["DELETE", "one"],
];

/** `crud("/users/{id}")`: the collection `/users` and the member path. */
function crudPaths(path: Value): [Value, Value] {
  const text = keyText(path);
  const cut = text.lastIndexOf("/");
  // ends with a `{param}` (one scan back from the end, no pattern that
  // would rescan the text from every `{`)
  const open = text.lastIndexOf("{");
  const member = open !== -1 && text.indexOf("}", open) === text.length - 1;
  if (cut <= 0 || !member) return [path, path];
  return [literal(text.slice(0, cut), path.composed), path];
}

/** A Javalin app's `config.router.contextPath = "/x"` in the same file. */
function appContext(c: JavaFile, at: Node): Value[] {
  const known = contexts.get(c);
  if (known) return known;
  let root: Node = at;
  while (root.parent) root = root.parent;
  let found: Value | undefined;
  walk(root, (node) => {
    if (found || node.type !== "assignment_expression") return;
    const left = node.childForFieldName("left")?.text ?? "";
    if (/(^|\.)contextPath$/.test(left)) {
      found = c.evaluate(node.childForFieldName("right"));
    }
  });
  const out = found ? [found] : [];
  contexts.set(c, out);
  return out;
}

const contexts = new WeakMap<JavaFile, Value[]>();

/** `Javalin.create(...)...` → `Javalin`. */
function appChain(node: Node | null): string | undefined {
  let n = node;
  for (let i = 0; n?.type === "method_invocation" && i < 16; i++) {
    n = n.childForFieldName("object");
  }
  return n?.type === "identifier" && APPS.has(n.text) ? n.text : undefined;
}

/** Whether a static call is the path DSL (imported statically by name). */
function staticDsl(c: JavaFile, call: Invocation): boolean {
  if (call.object) return BUILDERS.test(call.object.text);
  return /import\s+static\s+(io\.javalin\.apibuilder\.ApiBuilder|spark\.Spark)\.(\*|\w+)\s*;/
    .test(c.file.text) && c.findDeclaration(call.name, call.node) === undefined;
}

/**
 * The `path(prefix, () -> { ... })` prefixes around a static DSL call,
 * outermost first, or undefined when it is in none.
 */
function pathPrefixes(c: JavaFile, from: Node): Value[] | undefined {
  const prefixes: Value[] = [];
  let inside = false;
  const around = lambdaCalls(from, "lambda_expression", invocation);
  for (const { lambda, call } of around) {
    if (
      call.name === "path" && call.args.length === 2 &&
      call.args[1]?.id === lambda.id
    ) {
      prefixes.unshift(c.evaluate(call.args[0]));
      inside = true;
    } else if (
      call.name === "routes" || call.name === "apiBuilder" ||
      call.name === "addEndpoints"
    ) {
      inside = true;
    }
  }
  return inside ? prefixes : undefined;
}

/** Sub-routers mounted under a prefix: router variable → prefixes. */
function vertxMounts(c: JavaFile, root: Node): Map<string, Value[]> {
  const mounts = new Map<string, Value[]>();
  walk(root, (node) => {
    const call = invocation(node);
    if (!call) return;
    let prefix: Value | undefined;
    let sub: Node | undefined;
    if (call.name === "mountSubRouter" && call.args.length === 2) {
      prefix = c.evaluate(call.args[0]);
      sub = call.args[1];
    } else if (call.name === "subRouter" && call.args.length === 1) {
      const route = call.object ? invocation(call.object) : undefined;
      if (route?.name !== "route" || route.args.length !== 1) return;
      prefix = c.evaluate(route.args[0]);
      sub = call.args[0];
    }
    if (!prefix || sub?.type !== "identifier") return;
    const text = keyText(prefix).replace(/\/\*$/, "");
    const list = mounts.get(sub.text) ?? [];
    list.push(literal(text, prefix.composed));
    mounts.set(sub.text, list);
  });
  return mounts;
}

/**
 * A Vert.x Web route: `router.get("/x")`, `router.route(HttpMethod.X,
 * "/x")`, `router.route("/x")` with `.method(...)`/`.path(...)`/verb
 * calls chained on it (none: any method), on a receiver of type `Router`.
 */
function vertxRoute(
  c: JavaFile,
  call: Invocation,
  mounts: Map<string, Value[]>,
): void {
  if (!call.object || c.receiverType(call.object) !== "Router") return;
  let methods: string[] = [];
  let path: Node | undefined;
  if (HTTP_VERBS.has(call.name) && call.args.length === 1) {
    methods = [call.name.toUpperCase()];
    path = call.args[0];
  } else if (call.name === "route") {
    if (call.args.length === 2) {
      const m = methodOf(call.args[0]);
      if (!m) return;
      methods = [m];
      path = call.args[1];
    } else path = call.args[0];
  } else return;
  // what the chain on the route adds: `.method(X)`, `.path(p)`, `.get(h)`
  let chained = false;
  let files = false;
  for (
    let n: Node = call.node;
    n.parent?.type === "method_invocation";
    n = n.parent
  ) {
    const outer = invocation(n.parent)!;
    if (outer.object?.id !== n.id) break;
    chained = true;
    if (outer.name === "method") {
      const m = methodOf(outer.args[0]);
      if (m) methods.push(m);
    } else if (outer.name === "path" && outer.args[0]) path = outer.args[0];
    else if (outer.name === "handler") {
      files ||= /^StaticHandler\.create\b/.test(outer.args[0]?.text ?? "");
    } else if (HTTP_VERBS.has(outer.name) && methods.length === 0) {
      methods.push(outer.name.toUpperCase());
    } else if (outer.name === "subRouter") return;
  }
  if (!path || !pathLike(path)) return;
  const value = c.evaluate(path);
  // `router.route("/static/*").handler(StaticHandler.create())` serves
  // files; another handler over a subtree is middleware
  if (files && methods.length === 0) methods = ["GET", "HEAD"];
  if (methods.length === 0 && /\*$/.test(keyText(value))) return;
  if (methods.length === 0 && !chained) return;
  const receiver = call.object.type === "identifier" ? call.object.text : "";
  const prefixes = mounts.get(receiver) ?? [literal("")];
  for (const prefix of prefixes) {
    for (const method of methods.length > 0 ? methods : ["ANY"]) {
      emit(c, call.node, method, [prefix], value, "vertx-web");
    }
  }
}
