// PHP extractor: Laravel routes (`Route::get`, groups, prefixes,
// resources), Slim (`$app->get`, `$app->group`), Symfony `#[Route]`
// attributes, and Guzzle / Laravel `Http` client calls.
import type { Node } from "web-tree-sitter";
import type {
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import {
  clientPath,
  composed,
  concat,
  CONFIDENCE,
  exactText,
  formatPlaceholders,
  hole,
  joinPaths,
  literal,
  routePath,
  type Value,
} from "../_value/mod.ts";
import { HTTP_METHODS, httpPort } from "../_port/http.ts";
import { twoPasses } from "../_syntax/passes.ts";
import {
  evaluateConcatenation,
  evaluateStringNode,
  literalString,
} from "../_value/literals.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { anchorOf, namedChildren, walk } from "../_syntax/tree.ts";

const ROUTE_VERBS: Record<string, string> = {
  get: "GET",
  post: "POST",
  put: "PUT",
  patch: "PATCH",
  delete: "DELETE",
  options: "OPTIONS",
  any: "ANY",
};
const CLIENT_VERBS: Record<string, string> = {
  get: "GET",
  post: "POST",
  put: "PUT",
  patch: "PATCH",
  delete: "DELETE",
  head: "HEAD",
  options: "OPTIONS",
  getAsync: "GET",
  postAsync: "POST",
  putAsync: "PUT",
  patchAsync: "PATCH",
  deleteAsync: "DELETE",
  headAsync: "HEAD",
};

/** Laravel's resource actions: method, path suffix. */
const RESOURCE_ACTIONS: ReadonlyArray<[string, string, string]> = [
  ["index", "GET", ""],
  ["create", "GET", "/create"],
  ["store", "POST", ""],
  ["show", "GET", "/{id}"],
  ["edit", "GET", "/{id}/edit"],
  ["update", "PUT", "/{id}"],
  ["update", "PATCH", "/{id}"],
  ["destroy", "DELETE", "/{id}"],
];
const API_ACTIONS = new Set(["index", "store", "show", "update", "destroy"]);

/** The value nodes of a call's arguments (positional and named). */
function callArguments(call: Node): Array<{ name?: string; value: Node }> {
  const list = call.childForFieldName("arguments") ??
    call.childForFieldName("parameters") ??
    namedChildren(call).find((c) => c.type === "arguments");
  const out: Array<{ name?: string; value: Node }> = [];
  for (const arg of list ? namedChildren(list) : []) {
    if (arg.type !== "argument") continue;
    const name = arg.childForFieldName("name");
    const value = namedChildren(arg).filter((c) => c.id !== name?.id).at(-1);
    if (!value) continue;
    out.push(name ? { name: name.text, value } : { value });
  }
  return out;
}

function positional(call: Node): Node[] {
  return callArguments(call).filter((a) => !a.name).map((a) => a.value);
}

function named(call: Node, key: string): Node | undefined {
  return callArguments(call).find((a) => a.name === key)?.value;
}

/** Entries of an array literal: `[key => value]` or `[value]`. */
function arrayEntries(
  node: Node | undefined,
): Array<{ key?: Node; value: Node }> {
  if (node?.type !== "array_creation_expression") return [];
  const out: Array<{ key?: Node; value: Node }> = [];
  for (const element of namedChildren(node)) {
    if (element.type !== "array_element_initializer") continue;
    const parts = namedChildren(element);
    if (parts.length === 2) out.push({ key: parts[0]!, value: parts[1]! });
    else if (parts[0]) out.push({ value: parts[0] });
  }
  return out;
}

function lastName(text: string): string {
  return text.slice(text.lastIndexOf("\\") + 1);
}

class PhpFile {
  readonly file: SourceFile;
  readonly constants: Map<string, Value>;
  readonly ports: ExtractedPort[];
  /** Local class names imported from Guzzle / Slim / Symfony routing. */
  readonly guzzleClasses = new Set<string>();
  slim = false;
  symfony = false;
  /** Whether the file mentions Guzzle at all. */
  guzzle = false;

  constructor(
    file: SourceFile,
    constants: Map<string, Value>,
    ports: ExtractedPort[],
  ) {
    this.file = file;
    this.constants = constants;
    this.ports = ports;
  }

  run(root: Node): void {
    walk(root, (n) => {
      if (n.type !== "namespace_use_clause") return;
      const text = n.text.replace(/^\\/, "");
      const alias = namedChildren(n).find((c) => c.type === "name")?.text;
      if (/^GuzzleHttp\\(Client|ClientInterface)\b/.test(text)) {
        const local = / as (\w+)$/.exec(text)?.[1] ?? alias ??
          lastName(text);
        this.guzzleClasses.add(local);
      }
      if (/^Slim\\/.test(text)) this.slim = true;
      if (
        /^Symfony\\Component\\Routing\\(Attribute|Annotation)\\Route/.test(text)
      ) {
        this.symfony = true;
      }
      return false;
    });
    this.guzzle = this.file.text.includes("GuzzleHttp");
    this.guzzleClasses.add("\\GuzzleHttp\\Client");
    this.guzzleClasses.add("GuzzleHttp\\Client");
    walk(root, (node) => {
      switch (node.type) {
        case "scoped_call_expression":
          this.scopedCall(node);
          break;
        case "member_call_expression":
          this.memberCall(node);
          break;
        case "class_declaration":
          if (this.symfony) this.symfonyController(node);
          break;
      }
    });
  }

  evaluate(node: Node | null | undefined, depth = 0): Value {
    if (!node || depth > 8) return hole("?");
    const str = evaluateStringNode(node, (e) => this.evaluate(e, depth + 1));
    if (str) return str;
    switch (node.type) {
      case "parenthesized_expression":
        return this.evaluate(node.namedChild(0), depth + 1);
      case "binary_expression":
        return evaluateConcatenation(
          node,
          ".",
          (operand) => this.evaluate(operand, depth + 1),
        );
      case "class_constant_access_expression": {
        const parts = namedChildren(node);
        const scope = parts[0]?.text ?? "";
        const name = parts[1]?.text ?? "";
        let cls = lastName(scope);
        if (scope === "self" || scope === "static") {
          cls = enclosingClass(node) ?? "";
        }
        const value = this.constants.get(`${cls}::${name}`);
        return value ? composed(value) : hole(node.text);
      }
      case "variable_name": {
        const value = this.localValue(node);
        return value
          ? composed(this.evaluate(value, depth + 1))
          : hole(node.text);
      }
      case "function_call_expression": {
        const fn = node.childForFieldName("function")?.text ?? "";
        const first = positional(node)[0];
        if (fn === "sprintf" && first) {
          const format = this.evaluate(first, depth + 1);
          const text = exactText(format);
          return text === undefined ? format : formatPlaceholders(format);
        }
        if ((fn === "env" || fn === "getenv") && positional(node)[1]) {
          return composed(this.evaluate(positional(node)[1], depth + 1));
        }
        return hole(node.text);
      }
      default:
        return hole(node.text);
    }
  }

  /** The last `$x = value;` before a use of `$x` in its function. */
  localValue(variable: Node): Node | undefined {
    const name = variable.text;
    let scope: Node | null = variable.parent;
    while (
      scope &&
      ![
        "method_declaration",
        "function_definition",
        "anonymous_function",
        "arrow_function",
        "program",
      ]
        .includes(scope.type)
    ) scope = scope.parent;
    if (!scope) return undefined;
    let found: Node | undefined;
    walk(scope, (n) => {
      if (n.startIndex >= variable.startIndex) return false;
      if (
        n.type === "assignment_expression" &&
        n.childForFieldName("left")?.text === name
      ) {
        found = n.childForFieldName("right") ?? undefined;
      }
    });
    return found;
  }

  /** Prefixes from enclosing Laravel/Slim `group` closures, outermost first. */
  groupPrefixes(node: Node, slimOnly: boolean): Value[] {
    const prefixes: Value[] = [];
    for (let n: Node | null = node.parent; n; n = n.parent) {
      if (n.type !== "anonymous_function" && n.type !== "arrow_function") {
        continue;
      }
      const argument = n.parent;
      const call = argument?.parent?.parent;
      if (argument?.type !== "argument" || !call) continue;
      const name = call.childForFieldName("name")?.text;
      if (name !== "group") continue;
      if (call.type === "member_call_expression") {
        const object = call.childForFieldName("object");
        if (slimOnly || object?.type === "variable_name") {
          // Slim: `$app->group('/api', function ($group) {...})`
          const first = positional(call)[0];
          if (first && first.type !== "anonymous_function") {
            prefixes.push(this.evaluate(first));
          }
        } else {
          // Laravel: `Route::prefix('api')->middleware(..)->group(...)`
          for (let o: Node | null = object; o;) {
            const method = o.childForFieldName("name")?.text;
            if (method === "prefix") {
              const first = positional(o)[0];
              if (first) prefixes.push(this.evaluate(first));
            }
            o = o.type === "member_call_expression"
              ? o.childForFieldName("object")
              : null;
            if (o?.type === "scoped_call_expression") {
              if (o.childForFieldName("name")?.text === "prefix") {
                const first = positional(o)[0];
                if (first) prefixes.push(this.evaluate(first));
              }
              break;
            }
          }
        }
      } else if (call.type === "scoped_call_expression") {
        // Laravel: `Route::group(['prefix' => 'api'], function () {...})`
        const options = positional(call)[0];
        for (const entry of arrayEntries(options)) {
          if (entry.key && exactText(this.evaluate(entry.key)) === "prefix") {
            prefixes.push(this.evaluate(entry.value));
          }
        }
      }
    }
    return prefixes.reverse();
  }

  /** `Route::get(...)`, `Route::match(...)`, `Route::resource(...)`, `Http::get(...)`. */
  scopedCall(call: Node): void {
    const scope = lastName(call.childForFieldName("scope")?.text ?? "");
    const name = call.childForFieldName("name")?.text ?? "";
    if (scope === "Http") {
      const verb = CLIENT_VERBS[name];
      const url = positional(call)[0];
      if (verb && url) {
        this.emitClient(call, verb, this.evaluate(url), "laravel-http");
      }
      return;
    }
    if (scope !== "Route") return;
    const args = positional(call);
    let verbs: string[];
    let pathNode: Node | undefined;
    if (name in ROUTE_VERBS) {
      verbs = [ROUTE_VERBS[name]!];
      pathNode = args[0];
    } else if (name === "match") {
      verbs = arrayEntries(args[0])
        .map((e) => exactText(this.evaluate(e.value))?.toUpperCase() ?? "")
        .filter((v) => HTTP_METHODS.has(v));
      pathNode = args[1];
    } else if (name === "resource" || name === "apiResource") {
      this.resource(call, name === "apiResource");
      return;
    } else {
      return;
    }
    if (!pathNode || args.length < 2 && name !== "match") return;
    this.emitServer(call, verbs, [this.evaluate(pathNode)], "laravel");
  }

  /** `Route::resource('photos', C::class)->only([...])`. */
  resource(call: Node, api: boolean): void {
    const name = positional(call)[0];
    if (!name) return;
    let actions = RESOURCE_ACTIONS.filter(([a]) => !api || API_ACTIONS.has(a));
    for (
      let outer = call.parent;
      outer?.type === "member_call_expression";
      outer = outer.parent
    ) {
      const method = outer.childForFieldName("name")?.text;
      const list = arrayEntries(positional(outer)[0])
        .map((e) => exactText(this.evaluate(e.value)) ?? "");
      if (method === "only") {
        actions = actions.filter(([a]) => list.includes(a));
      }
      if (method === "except") {
        actions = actions.filter(([a]) => !list.includes(a));
      }
    }
    const base = this.evaluate(name);
    const text = exactText(base);
    // `photos.comments` nests: /photos/{photo}/comments/{comment}
    const path = text !== undefined
      ? literal(text.split(".").join("/{id}/"))
      : base;
    for (const [, verb, suffix] of actions) {
      this.emitServer(call, [verb], [path, literal(suffix)], "laravel");
    }
  }

  emitServer(
    call: Node,
    verbs: readonly string[],
    parts: readonly Value[],
    framework: string,
    slimOnly = false,
  ): void {
    const prefixes = this.groupPrefixes(call, slimOnly);
    // routes/api.php is loaded under the `api` prefix by Laravel.
    const apiFile = framework === "laravel" &&
      /(^|\/)routes\/api\.php$/.test(this.file.path);
    const all = [...(apiFile ? [literal("api")] : []), ...prefixes, ...parts];
    const route = routePath(joinPaths(...all), all.length > parts.length);
    for (const verb of verbs) {
      const port = httpPort({
        role: "server",
        method: verb,
        path: route.path,
        node: call,
        owner: ownerOf(call, this.file.path, "php"),
        filePath: this.file.path,
        confidence: route.confidence,
        framework,
      });
      if (port) this.ports.push(port);
    }
  }

  memberCall(call: Node): void {
    const name = call.childForFieldName("name")?.text ?? "";
    const object = call.childForFieldName("object");
    if (!object) return;
    if (this.slim && this.isSlimApp(object)) {
      const args = positional(call);
      if (name in ROUTE_VERBS && args.length >= 2) {
        this.emitServer(
          call,
          [ROUTE_VERBS[name]!],
          [this.evaluate(args[0])],
          "slim",
          true,
        );
      } else if (name === "map" && args.length >= 3) {
        const verbs = arrayEntries(args[0])
          .map((e) => exactText(this.evaluate(e.value))?.toUpperCase() ?? "")
          .filter((v) => HTTP_METHODS.has(v));
        this.emitServer(call, verbs, [this.evaluate(args[1])], "slim", true);
      }
      return;
    }
    const root = chainRootOf(object);
    // `Route::middleware('auth')->prefix('v1')->get('/x', ...)`
    if (
      root.type === "scoped_call_expression" &&
      lastName(root.childForFieldName("scope")?.text ?? "") === "Route" &&
      name in ROUTE_VERBS
    ) {
      const args = positional(call);
      if (args.length < 2) return;
      const chain: Value[] = [];
      for (let o: Node | null = object; o; o = o.childForFieldName("object")) {
        if (o.childForFieldName("name")?.text === "prefix") {
          const first = positional(o)[0];
          if (first) chain.unshift(this.evaluate(first));
        }
        if (o.type === "scoped_call_expression") break;
      }
      this.emitServer(
        call,
        [ROUTE_VERBS[name]!],
        [...chain, this.evaluate(args[0])],
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
          if (b) base = this.evaluate(b);
        }
        if (o.type === "scoped_call_expression") break;
      }
      this.emitClient(call, verb, this.evaluate(url), "laravel-http", base);
      return;
    }
    if (!this.guzzle) return;
    const verb = name === "request" || name === "requestAsync"
      ? exactText(this.evaluate(positional(call)[0]))?.toUpperCase()
      : CLIENT_VERBS[name];
    if (!verb || !HTTP_METHODS.has(verb)) return;
    const client = this.guzzleClient(object);
    if (!client) return;
    const url = name.startsWith("request")
      ? positional(call)[1]
      : positional(call)[0];
    if (!url) return;
    this.emitClient(call, verb, this.evaluate(url), "guzzle", client.base);
  }

  /** Whether a receiver is a Slim app or a route group proxy. */
  isSlimApp(object: Node): boolean {
    if (object.type !== "variable_name") return false;
    const value = this.localValue(object);
    if (value) {
      return /^AppFactory::create|^new\s+\\?(Slim\\)?App\b/.test(value.text);
    }
    // `function (RouteCollectorProxy $group)` inside `->group(...)`
    const param = this.parameter(object);
    const type = param?.childForFieldName("type")?.text ?? "";
    if (/RouteCollectorProxy/.test(type)) return true;
    return param !== undefined && this.groupPrefixes(object, true).length > 0 &&
      type === "";
  }

  parameter(variable: Node): Node | undefined {
    for (let n: Node | null = variable.parent; n; n = n.parent) {
      if (
        n.type === "anonymous_function" || n.type === "arrow_function" ||
        n.type === "method_declaration" || n.type === "function_definition"
      ) {
        const params = n.childForFieldName("parameters");
        for (const p of params ? namedChildren(params) : []) {
          if (p.childForFieldName("name")?.text === variable.text) return p;
        }
        if (n.type !== "arrow_function") return undefined;
      }
    }
    return undefined;
  }

  /** A Guzzle client receiver, with its `base_uri` when known. */
  guzzleClient(object: Node): { base?: Value } | undefined {
    let creation: Node | undefined;
    let type = "";
    if (object.type === "variable_name") {
      const value = this.localValue(object);
      if (value?.type === "object_creation_expression") creation = value;
      else type = this.parameter(object)?.childForFieldName("type")?.text ?? "";
    } else if (
      object.type === "member_access_expression" &&
      object.childForFieldName("object")?.text === "$this"
    ) {
      const property = object.childForFieldName("name")?.text ?? "";
      const found = this.property(object, property);
      if (found?.type === "object_creation_expression") creation = found;
      else if (found) type = found.text;
    }
    if (creation) {
      const cls = namedChildren(creation).find((c) =>
        c.type === "name" || c.type === "qualified_name"
      )?.text ?? "";
      if (!this.guzzleClasses.has(cls)) {
        return undefined;
      }
      const options = positional(creation)[0];
      for (const entry of arrayEntries(options)) {
        if (entry.key && exactText(this.evaluate(entry.key)) === "base_uri") {
          return { base: this.evaluate(entry.value) };
        }
      }
      return {};
    }
    const t = type.replace(/^\?/, "");
    return this.guzzleClasses.has(t) || this.guzzleClasses.has(lastName(t))
      ? {}
      : undefined;
  }

  /**
   * What `$this->name` holds: the `new X(...)` assigned to it, or the type
   * of the promoted/typed property or constructor parameter it comes from.
   */
  property(at: Node, name: string): Node | undefined {
    let cls: Node | null = at.parent;
    while (cls && cls.type !== "class_declaration") cls = cls.parent;
    if (!cls) return undefined;
    let found: Node | undefined;
    walk(cls, (n) => {
      if (found?.type === "object_creation_expression") return false;
      if (n.type === "assignment_expression") {
        const left = n.childForFieldName("left");
        if (left?.text === `$this->${name}`) {
          const right = n.childForFieldName("right");
          if (right?.type === "object_creation_expression") found = right;
          else if (right?.type === "variable_name") {
            const param = this.parameter(right);
            const type = param?.childForFieldName("type");
            if (type) found = type;
          }
        }
      } else if (
        (n.type === "property_promotion_parameter" ||
          n.type === "property_declaration") &&
        n.text.includes(`$${name}`)
      ) {
        const type = n.childForFieldName("type");
        if (type && !found) found = type;
      }
    });
    return found;
  }

  emitClient(
    call: Node,
    method: string,
    url: Value,
    framework: string,
    base?: Value,
  ): void {
    let value = url;
    const first = url.parts[0];
    const relative = typeof first === "string" && !first.startsWith("/") &&
      !/^[a-z][a-z0-9+.-]*:\/\//i.test(first);
    if (base && relative) {
      // RFC 3986: a relative reference replaces the base's last segment.
      const basePath = clientPath(base)?.path ?? "/";
      const dir = basePath.slice(0, basePath.lastIndexOf("/") + 1);
      value = concat([literal(dir), url]);
      value = composed(value);
    } else if (relative) {
      value = concat([literal("/"), url]);
    }
    const path = clientPath(value);
    if (!path) return;
    const port = httpPort({
      role: "client",
      method,
      path: path.path,
      node: anchorOf(call, call.childForFieldName("name") ?? call),
      owner: ownerOf(call, this.file.path, "php"),
      filePath: this.file.path,
      confidence: relative && !base ? CONFIDENCE.partial : path.confidence,
      framework,
    });
    if (port) this.ports.push(port);
  }

  /** Symfony: class `#[Route('/prefix')]` + method `#[Route('/x', methods: [...])]`. */
  symfonyController(cls: Node): void {
    const prefixes = this.routeAttributes(cls).map((a) => a.path);
    if (prefixes.length === 0) prefixes.push(literal(""));
    const body = cls.childForFieldName("body");
    for (const method of body ? namedChildren(body) : []) {
      if (method.type !== "method_declaration") continue;
      for (const route of this.routeAttributes(method)) {
        for (const prefix of prefixes) {
          const prefixed = (exactText(prefix) ?? "x") !== "";
          const path = routePath(joinPaths(prefix, route.path), prefixed);
          for (const verb of route.verbs) {
            const port = httpPort({
              role: "server",
              method: verb,
              path: path.path,
              node: route.node,
              owner: ownerOf(method, this.file.path, "php"),
              filePath: this.file.path,
              confidence: path.confidence,
              framework: "symfony",
            });
            if (port) this.ports.push(port);
          }
        }
      }
    }
  }

  routeAttributes(
    decl: Node,
  ): Array<{ node: Node; path: Value; verbs: string[] }> {
    const out: Array<{ node: Node; path: Value; verbs: string[] }> = [];
    const lists = decl.childForFieldName("attributes");
    if (!lists) return out;
    for (const group of namedChildren(lists)) {
      for (const attribute of namedChildren(group)) {
        if (attribute.type !== "attribute") continue;
        const name = namedChildren(attribute).find((c) =>
          c.type === "name" || c.type === "qualified_name"
        );
        if (lastName(name?.text ?? "") !== "Route") continue;
        const pathNode = named(attribute, "path") ?? positional(attribute)[0];
        const methods = named(attribute, "methods");
        let verbs = arrayEntries(methods)
          .map((e) => exactText(this.evaluate(e.value))?.toUpperCase() ?? "")
          .filter((v) => HTTP_METHODS.has(v));
        if (methods && verbs.length === 0) {
          const single = exactText(this.evaluate(methods))?.toUpperCase();
          if (single && HTTP_METHODS.has(single)) verbs = [single];
        }
        out.push({
          node: group,
          path: pathNode ? this.evaluate(pathNode) : literal(""),
          verbs: verbs.length > 0 ? verbs : ["ANY"],
        });
      }
    }
    return out;
  }
}

function chainRootOf(node: Node): Node {
  let n = node;
  while (n.type === "member_call_expression") {
    const object = n.childForFieldName("object");
    if (!object) break;
    n = object;
  }
  return n;
}

function enclosingClass(node: Node): string | undefined {
  for (let n: Node | null = node.parent; n; n = n.parent) {
    if (n.type === "class_declaration") {
      return n.childForFieldName("name")?.text;
    }
  }
  return undefined;
}

/** `const X = '...'` in classes and interfaces: `Class::X`. */
function collectConstants(
  root: Node,
  constants: Map<string, Value>,
): void {
  walk(root, (n) => {
    if (n.type !== "const_declaration") return;
    const cls = enclosingClass(n) ??
      (() => {
        for (let p: Node | null = n.parent; p; p = p.parent) {
          if (p.type === "interface_declaration") {
            return p.childForFieldName("name")?.text;
          }
        }
        return undefined;
      })();
    for (const element of namedChildren(n)) {
      if (element.type !== "const_element") continue;
      const [name, value] = namedChildren(element);
      if (!name || !value) continue;
      const v = literalString(value);
      if (v && cls) {
        constants.set(`${cls}::${name.text}`, v);
      }
    }
    return false;
  });
}

/**
 * Extracts PHP routes and HTTP client calls.
 *
 * Laravel: `Route::get/post/put/patch/delete/options/any('/x', ...)`,
 * `Route::match([...], ...)`, `Route::resource`/`apiResource` (the seven or
 * five RESTful routes, `->only([...])`/`->except([...])`), prefixes from
 * `Route::prefix('api')->group(...)` and `Route::group(['prefix' => ...],
 * ...)`, and the `/api` prefix of `routes/api.php`. Slim (files that `use
 * Slim\...`): `$app->get(...)`, `$app->map([...], ...)` and `$app->group`
 * prefixes, on apps made by `AppFactory::create()` and group proxies.
 * Symfony (files that use the `Route` attribute): class `#[Route]` prefix +
 * method `#[Route('/x', methods: ['GET'])]`. Clients: Guzzle (`new
 * Client(['base_uri' => ...])`, typed parameters and properties;
 * `get/post/...`, `request('POST', $url)`, `*Async`) resolving relative
 * URIs against `base_uri`, and Laravel's `Http::get(...)` /
 * `Http::baseUrl(...)->post(...)`.
 *
 * @example Usage
 * ```ts
 * import { phpExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `<?php
 * Route::prefix('v1')->group(function () {
 *     Route::get('/users/{id}', [UserController::class, 'show']);
 * });`;
 * const { ports } = await phpExtractor.extract([{ path: "routes/web.php", text }]);
 * assert.equal(ports[0]?.ref.key, "GET /v1/users/{}");
 * ```
 */
export const phpExtractor: LanguageExtractor = {
  name: "php",
  accepts(path: string): boolean {
    return path.endsWith(".php");
  },
  async extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const constants = new Map<string, Value>();
    return await twoPasses(
      files,
      "php",
      (file) => file.text.includes("const "),
      (root) => collectConstants(root, constants),
      (file, root, ports) => new PhpFile(file, constants, ports).run(root),
    );
  },
};
