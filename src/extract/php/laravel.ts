// Laravel and Slim routes: `Route::get(...)`, groups and prefixes,
// resources, chained `Route::prefix(..)->get(..)`; Slim `$app->get(...)`,
// `$app->map(...)` and groups; and the client calls on Laravel's `Http`.
import { HTTP_METHODS, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import {
  chainsThroughCallers,
  exactText,
  joinPaths,
  literal,
  mapText,
} from "../_value/mod.ts";
import type { Value } from "../_value/mod.ts";
import { emitClient, guzzleClient } from "./clients.ts";
import {
  API_ACTIONS,
  arrayEntries,
  arrayValue,
  chainRootOf,
  CLIENT_VERBS,
  lastName,
  type PhpFile,
  positional,
  RESOURCE_ACTIONS,
  ROUTE_VERBS,
} from "./project.ts";
import type { Node } from "web-tree-sitter";
import { PHP_FUNCTIONS } from "./flow.ts";
import { verbOf } from "./verbs.ts";

/**
 * The prefixes of the Laravel/Slim `group` closures a route is registered
 * in, outermost first: one list per way it is reached, through the calls
 * of the named function or method that registers it (a few calls deep).
 */
export function groupPrefixChains(
  c: PhpFile,
  node: Node,
  slimOnly: boolean,
  depth = 0,
): Value[][] {
  const own = groupPrefixes(c, node, slimOnly);
  const fn = c.calls.enclosing(node);
  return chainsThroughCallers(
    depth,
    () => fn ? c.calls.sitesOf(fn) : [],
    (site, outer) => groupPrefixChains(c, site, slimOnly, outer),
    own,
  );
}

/** Prefixes from enclosing Laravel/Slim `group` closures, outermost first. */
export function groupPrefixes(
  c: PhpFile,
  node: Node,
  slimOnly: boolean,
): Value[] {
  const prefixes: Value[] = [];
  for (let n: Node | null = node.parent; n; n = n.parent) {
    if (PHP_FUNCTIONS.has(n.type)) break;
    if (n.type !== "anonymous_function" && n.type !== "arrow_function") {
      continue;
    }
    const argument = n.parent;
    const call = argument?.parent?.parent;
    if (argument?.type !== "argument" || !call) continue;
    const name = call.childForFieldName("name")?.text;
    // Hyperf: `Router::addGroup('/api', function () {...})`
    if (name !== "group" && name !== "addGroup") continue;
    if (call.type === "member_call_expression") {
      const object = call.childForFieldName("object");
      if (slimOnly || object?.type === "variable_name") {
        // Slim, CodeIgniter: `$app->group('/api', function ($group) {...})`;
        // Lumen: `$router->group(['prefix' => 'api'], function () {...})`
        const first = positional(call)[0];
        if (first?.type === "array_creation_expression") {
          prefixes.push(...optionPrefix(c, first));
        } else if (first && first.type !== "anonymous_function") {
          prefixes.push(c.evaluate(first));
        }
      } else {
        // Laravel: `Route::prefix('api')->middleware(..)->group(...)`
        for (let o: Node | null = object; o;) {
          const method = o.childForFieldName("name")?.text;
          if (method === "prefix") {
            const first = positional(o)[0];
            if (first) prefixes.push(c.evaluate(first));
          }
          o = o.type === "member_call_expression"
            ? o.childForFieldName("object")
            : null;
          if (o?.type === "scoped_call_expression") {
            if (o.childForFieldName("name")?.text === "prefix") {
              const first = positional(o)[0];
              if (first) prefixes.push(c.evaluate(first));
            }
            break;
          }
        }
      }
    } else if (call.type === "scoped_call_expression") {
      // Laravel: `Route::group(['prefix' => 'api'], function () {...})`
      // ThinkPHP: `Route::group('admin', function () {...})`
      const first = positional(call)[0];
      if (
        first?.type === "string" || first?.type === "encapsed_string" ||
        first?.type === "binary_expression"
      ) {
        prefixes.push(c.evaluate(first));
      } else prefixes.push(...optionPrefix(c, first));
    }
  }
  return prefixes.reverse();
}

/** The `'prefix'` of a group's options array, if it has one. */
function optionPrefix(c: PhpFile, options: Node | undefined): Value[] {
  const prefix = arrayValue(c, options, "prefix");
  return prefix ? [c.evaluate(prefix)] : [];
}

/**
 * Laravel's route registrars beyond {@linkcode ROUTE_VERBS}: `Route::query`
 * (the HTTP QUERY method), `Route::view` (GET) and `Route::redirect` /
 * `permanentRedirect` (any method, as Laravel registers them).
 */
const LARAVEL_EXTRA_VERBS: Readonly<Record<string, string>> = {
  query: "QUERY",
  view: "GET",
  redirect: "ANY",
  permanentRedirect: "ANY",
};

/** The method a Laravel registrar (`Route::get`, `Route::view`...) registers. */
function laravelVerb(name: string): string | undefined {
  return verbOf(ROUTE_VERBS, name) ?? verbOf(LARAVEL_EXTRA_VERBS, name);
}

/** The methods `Route::match` and `Route::addRoute` take. */
const LARAVEL_METHODS: ReadonlySet<string> = new Set([
  ...HTTP_METHODS,
  "QUERY",
]);

/** The methods of `['get', 'post']` or `'POST'` (upper-cased, known ones). */
export function methodList(c: PhpFile, node: Node | undefined): string[] {
  const values = node?.type === "array_creation_expression"
    ? arrayEntries(node).map((e) => e.value)
    : node
    ? [node]
    : [];
  return values
    .map((v) => exactText(c.evaluate(v))?.toUpperCase() ?? "")
    .filter((v) => LARAVEL_METHODS.has(v));
}

/** The calls chained on a call (`->only([...])` after it), innermost first. */
export function* chainedCalls(call: Node): Generator<Node> {
  for (
    let outer = call.parent;
    outer?.type === "member_call_expression";
    outer = outer.parent
  ) yield outer;
}

/**
 * The methods the first call named `name` chained on a route gives
 * (`->setMethods(['GET'])`, `->via([...])`), or undefined without one.
 */
export function chainedMethods(
  c: PhpFile,
  call: Node,
  name: string,
): string[] | undefined {
  for (const outer of chainedCalls(call)) {
    if (outer.childForFieldName("name")?.text === name) {
      return methodList(c, positional(outer)[0]);
    }
  }
  return undefined;
}

/** Whether a call registers a route with a handler (not a `group`). */
function isRegistrar(name: string): boolean {
  return laravelVerb(name) !== undefined ||
    ["match", "addRoute", "map"].includes(name);
}

/**
 * Whether a call sits in the handler closure of a route: it runs when a
 * request hits that route, not at boot, so it registers nothing reachable.
 */
function inRouteHandler(call: Node): boolean {
  for (let n: Node | null = call.parent; n; n = n.parent) {
    if (PHP_FUNCTIONS.has(n.type)) return false;
    if (n.type !== "anonymous_function" && n.type !== "arrow_function") {
      continue;
    }
    const argument = n.parent;
    const outer = argument?.parent?.parent;
    if (argument?.type !== "argument" || !outer) continue;
    if (
      (outer.type === "scoped_call_expression" ||
        outer.type === "member_call_expression") &&
      isRegistrar(outer.childForFieldName("name")?.text ?? "")
    ) return true;
  }
  return false;
}

/** `Route::get(...)`, `Route::match(...)`, `Route::resource(...)`, `Http::get(...)`. */
export function scopedCall(
  c: PhpFile,
  call: Node,
): void {
  const scope = lastName(call.childForFieldName("scope")?.text ?? "");
  const name = call.childForFieldName("name")?.text ?? "";
  if (scope === "Http") {
    const verb = CLIENT_VERBS[name];
    const url = positional(call)[0];
    if (verb && url) {
      emitClient(c, call, verb, c.evaluate(url), "laravel-http");
    }
    return;
  }
  if (scope !== "Route") return;
  const args = positional(call);
  let verbs: string[];
  let pathNode: Node | undefined;
  const verb = laravelVerb(name);
  if (verb) {
    verbs = [verb];
    pathNode = args[0];
  } else if (name === "match" || name === "addRoute") {
    verbs = methodList(c, args[0]);
    pathNode = args[1];
  } else if (name === "resource" || name === "apiResource") {
    resource(c, call, name === "apiResource");
    return;
  } else {
    return;
  }
  if (!pathNode || args.length < 2) return;
  emitServer(c, call, verbs, [c.evaluate(pathNode)], "laravel");
}

/** `Route::resource('photos', C::class)->only([...])`. */
export function resource(
  c: PhpFile,
  call: Node,
  api: boolean,
): void {
  const name = positional(call)[0];
  if (!name) return;
  let actions = RESOURCE_ACTIONS.filter(([a]) => !api || API_ACTIONS.has(a));
  for (const outer of chainedCalls(call)) {
    const method = outer.childForFieldName("name")?.text;
    const list = arrayEntries(positional(outer)[0])
      .map((e) => exactText(c.evaluate(e.value)) ?? "");
    if (method === "only") {
      actions = actions.filter(([a]) => list.includes(a));
    }
    if (method === "except") {
      actions = actions.filter(([a]) => !list.includes(a));
    }
  }
  const base = c.evaluate(name);
  const text = exactText(base);
  // `photos.comments` nests: /photos/{photo}/comments/{comment}
  const path = text !== undefined
    ? literal(text.split(".").join("/{id}/"))
    : base;
  for (const [, verb, suffix] of actions) {
    emitServer(c, call, [verb], [path, literal(suffix)], "laravel");
  }
}

export function emitServer(
  c: PhpFile,
  call: Node,
  verbs: readonly string[],
  parts: readonly Value[],
  framework: string,
  slimOnly = false,
  rewrite?: (path: string) => string,
): void {
  if (inRouteHandler(call)) return;
  // routes/api.php is loaded under the `api` prefix by Laravel.
  const apiFile = framework === "laravel" &&
    /(^|\/)routes\/api\.php$/.test(c.file.path);
  for (const prefixes of groupPrefixChains(c, call, slimOnly)) {
    const all = [...(apiFile ? [literal("api")] : []), ...prefixes, ...parts];
    const path = joinPaths(...all);
    c.ports.push(...routePorts({
      methods: verbs,
      path: rewrite ? mapText(path, rewrite) : path,
      prefixed: all.length > parts.length,
      node: call,
      owner: ownerOf(call, c.file.path, "php"),
      filePath: c.file.path,
      framework,
    }));
  }
}

export function memberCall(
  c: PhpFile,
  call: Node,
): void {
  const name = call.childForFieldName("name")?.text ?? "";
  const object = call.childForFieldName("object");
  if (!object) return;
  if (c.slim && isSlimApp(c, object)) {
    const args = positional(call);
    if (name in ROUTE_VERBS && args.length >= 2) {
      emitServer(
        c,
        call,
        [ROUTE_VERBS[name]!],
        [c.evaluate(args[0])],
        "slim",
        true,
      );
    } else if (name === "map" && args.length >= 3) {
      const verbs = arrayEntries(args[0])
        .map((e) => exactText(c.evaluate(e.value))?.toUpperCase() ?? "")
        .filter((v) => HTTP_METHODS.has(v));
      emitServer(c, call, verbs, [c.evaluate(args[1])], "slim", true);
    }
    return;
  }
  const root = chainRootOf(object);
  // `Route::middleware('auth')->prefix('v1')->get('/x', ...)`
  if (
    root.type === "scoped_call_expression" &&
    lastName(root.childForFieldName("scope")?.text ?? "") === "Route" &&
    laravelVerb(name)
  ) {
    const args = positional(call);
    if (args.length < 2) return;
    const chain: Value[] = [];
    for (let o: Node | null = object; o; o = o.childForFieldName("object")) {
      if (o.childForFieldName("name")?.text === "prefix") {
        const first = positional(o)[0];
        if (first) chain.unshift(c.evaluate(first));
      }
      if (o.type === "scoped_call_expression") break;
    }
    emitServer(
      c,
      call,
      [laravelVerb(name)!],
      [...chain, c.evaluate(args[0])],
      "laravel",
    );
    return;
  }
  // `Http::withToken(..)->get(url)`, `Http::baseUrl(b)->get('/x')`
  if (
    root.type === "scoped_call_expression" &&
    lastName(root.childForFieldName("scope")?.text ?? "") === "Http"
  ) {
    const verb = CLIENT_VERBS[name];
    const url = positional(call)[0];
    if (!verb || !url) return;
    let base: Value | undefined;
    for (let o: Node | null = object; o; o = o.childForFieldName("object")) {
      if (o.childForFieldName("name")?.text === "baseUrl") {
        const b = positional(o)[0];
        if (b) base = c.evaluate(b);
      }
      if (o.type === "scoped_call_expression") break;
    }
    emitClient(c, call, verb, c.evaluate(url), "laravel-http", base);
    return;
  }
  if (!c.guzzle) return;
  const verb = name === "request" || name === "requestAsync"
    ? exactText(c.evaluate(positional(call)[0]))?.toUpperCase()
    : CLIENT_VERBS[name];
  if (!verb || !HTTP_METHODS.has(verb)) return;
  const client = guzzleClient(c, object);
  if (!client) return;
  const url = name.startsWith("request")
    ? positional(call)[1]
    : positional(call)[0];
  if (!url) return;
  emitClient(c, call, verb, c.evaluate(url), "guzzle", client.base);
}

/** Whether a receiver is a Slim app or a route group proxy. */
export function isSlimApp(
  c: PhpFile,
  object: Node,
): boolean {
  if (object.type !== "variable_name") return false;
  const value = c.localValue(object);
  if (value) {
    return /^AppFactory::create|^new\s+\\?(Slim\\)?App\b/.test(value.text);
  }
  // `function (RouteCollectorProxy $group)` inside `->group(...)`
  const param = c.parameter(object);
  const type = param?.childForFieldName("type")?.text ?? "";
  if (/RouteCollectorProxy/.test(type)) return true;
  return param !== undefined && groupPrefixes(c, object, true).length > 0 &&
    type === "";
}
