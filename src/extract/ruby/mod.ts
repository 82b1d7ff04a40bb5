// Ruby extractor: Rails routes (`config/routes.rb`: verbs, `resources`,
// `namespace`, `scope`, nesting, member/collection, concerns, `draw`,
// mounted engines and Rack apps), Sinatra routes, and Net::HTTP / Faraday /
// HTTParty client calls.
import type { Node, Tree } from "web-tree-sitter";
import type {
  ExtractDiagnostic,
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
  hole,
  joinPaths,
  literal,
  routePath,
  type Value,
} from "../_value/mod.ts";
import { HTTP_METHODS, HTTP_VERBS, httpPort } from "../_port/http.ts";
import { eachFile, twoPasses } from "../_syntax/passes.ts";
import {
  evaluateConcatenation,
  evaluateStringNode,
  literalString,
} from "../_value/literals.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { parseSource } from "../_syntax/parser.ts";
import { anchorOf, namedChildren, walk } from "../_syntax/tree.ts";

/** Rails resource actions: method, suffix after the collection path. */
const PLURAL_ACTIONS: ReadonlyArray<[string, string, string]> = [
  ["index", "GET", ""],
  ["new", "GET", "/new"],
  ["create", "POST", ""],
  ["show", "GET", "/:id"],
  ["edit", "GET", "/:id/edit"],
  ["update", "PATCH", "/:id"],
  ["update", "PUT", "/:id"],
  ["destroy", "DELETE", "/:id"],
];
const SINGULAR_ACTIONS: ReadonlyArray<[string, string, string]> = [
  ["new", "GET", "/new"],
  ["create", "POST", ""],
  ["show", "GET", ""],
  ["edit", "GET", "/edit"],
  ["update", "PATCH", ""],
  ["update", "PUT", ""],
  ["destroy", "DELETE", ""],
];

/**
 * What the Rails routes of one scan share across files: the parsed route
 * files (`config/routes.rb`, engines' route files, `config/routes/*.rb`
 * loaded by `draw`), route concerns and engine route sets.
 */
interface RailsProject {
  /** Route files by path. */
  files: Map<string, { ruby: RubyFile; root: Node }>;
  /** `concern :name do ... end`: the file and the block statements. */
  concerns: Map<string, { ruby: RubyFile; body: Node[] }>;
  /** `Api::Engine.routes.draw do ... end`, by engine constant. */
  engines: Map<string, { ruby: RubyFile; body: Node[] }>;
  /** Concerns, drawn files and engines being expanded (cycle guard). */
  active: Set<string>;
}

/** Confidence of a mounted Rack app whose routes are unknown. */
const MOUNT_CONFIDENCE = CONFIDENCE.weak;

interface RouteContext {
  /** Path parts composed so far (namespaces, scopes, nesting). */
  prefix: Value[];
  /** Inside a `resources` block: where member/collection routes go. */
  resource?: { collection: Value[]; member: Value[] };
  /** `member do`/`collection do`: verbs go exactly under the prefix. */
  direct?: boolean;
}

function args(call: Node): Node[] {
  const list = call.childForFieldName("arguments");
  return list ? namedChildren(list) : [];
}

function positional(call: Node): Node[] {
  return args(call).filter((a) => a.type !== "pair");
}

function option(call: Node, key: string): Node | undefined {
  for (const a of args(call)) {
    if (a.type !== "pair") continue;
    const k = a.childForFieldName("key");
    const name = k?.type === "hash_key_symbol"
      ? k.text
      : k?.type === "simple_symbol"
      ? k.text.slice(1)
      : undefined;
    if (name === key) return a.childForFieldName("value") ?? undefined;
  }
  return undefined;
}

function blockBody(call: Node): Node[] {
  const block = call.childForFieldName("block");
  const body = block?.childForFieldName("body");
  return body ? namedChildren(body) : [];
}

function symbolName(node: Node): string | undefined {
  if (node.type === "simple_symbol") return node.text.slice(1);
  if (node.type === "bare_symbol") return node.text;
  return undefined;
}

/** Names in `:a`, `[:a, :b]`, `%i[a b]`. */
function symbolList(node: Node | undefined): string[] {
  if (!node) return [];
  const single = symbolName(node);
  if (single) return [single];
  if (node.type === "array" || node.type === "symbol_array") {
    return namedChildren(node).map((n) =>
      symbolName(n) ?? n.text.replace(/^["']|["']$/g, "")
    );
  }
  return [];
}

/** Drops Rails optional segments `(:locale)` and `(.:format)`. */
function dropOptional(path: string): string {
  let out = "";
  let depth = 0;
  for (const c of path) {
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) out += c;
  }
  return out;
}

/** A crude singular for `:post_id` names (only used inside keys as `{}`). */
function singular(name: string): string {
  return name.endsWith("s") ? name.slice(0, -1) : name;
}

class RubyFile {
  readonly file: SourceFile;
  readonly constants: Map<string, Value>;
  readonly ports: ExtractedPort[];
  readonly rails: RailsProject | undefined;

  constructor(
    file: SourceFile,
    constants: Map<string, Value>,
    ports: ExtractedPort[],
    rails?: RailsProject,
  ) {
    this.file = file;
    this.constants = constants;
    this.ports = ports;
    this.rails = rails;
  }

  evaluate(node: Node | null | undefined, depth = 0): Value {
    if (!node || depth > 8) return hole("?");
    const str = evaluateStringNode(node, (e) => this.evaluate(e, depth + 1));
    if (str) return str;
    const sym = symbolName(node);
    if (sym !== undefined) return literal(sym);
    switch (node.type) {
      case "parenthesized_statements":
        return this.evaluate(node.namedChild(0), depth + 1);
      case "binary":
        return evaluateConcatenation(
          node,
          "+",
          (operand) => this.evaluate(operand, depth + 1),
        );
      case "constant":
      case "scope_resolution": {
        const name = node.type === "constant"
          ? node.text
          : node.childForFieldName("name")?.text ?? "";
        const value = this.constants.get(name);
        return value ? composed(value) : hole(node.text);
      }
      case "identifier": {
        const value = this.localValue(node);
        return value
          ? composed(this.evaluate(value, depth + 1))
          : hole(node.text);
      }
      case "call": {
        // URI("..."), URI.parse("..."), URI.join(base, "/x"), ENV.fetch("X", "d")
        const receiver = node.childForFieldName("receiver")?.text;
        const method = node.childForFieldName("method")?.text;
        const a = positional(node);
        if (!receiver && method === "URI" && a[0]) {
          return this.evaluate(a[0], depth + 1);
        }
        if (receiver === "URI" && method === "parse" && a[0]) {
          return this.evaluate(a[0], depth + 1);
        }
        if (receiver === "URI" && method === "join" && a.length > 0) {
          const last = this.evaluate(a[a.length - 1], depth + 1);
          const text = exactText(last);
          if (text?.startsWith("/")) return last;
          return concat(a.map((x) => this.evaluate(x, depth + 1)));
        }
        if (receiver === "ENV" && method === "fetch" && a[1]) {
          return composed(this.evaluate(a[1], depth + 1));
        }
        return hole(node.text);
      }
      default:
        return hole(node.text);
    }
  }

  /** The last `x = value` before a use of `x` in its method or block. */
  localValue(identifier: Node): Node | undefined {
    let scope: Node | null = identifier.parent;
    while (
      scope && scope.type !== "method" && scope.type !== "singleton_method" &&
      scope.type !== "program"
    ) scope = scope.parent;
    if (!scope) return undefined;
    let found: Node | undefined;
    walk(scope, (n) => {
      if (n.startIndex >= identifier.startIndex) return false;
      if (
        n.type === "assignment" &&
        n.childForFieldName("left")?.text === identifier.text
      ) {
        found = n.childForFieldName("right") ?? undefined;
      }
    });
    return found;
  }

  /** Sinatra routes and HTTP clients (Rails routes: {@linkcode extractRails}). */
  run(root: Node): void {
    const text = this.file.text;
    const sinatra = /require\s+['"]sinatra|Sinatra::(Base|Application)/.test(
      text,
    );
    const clients = /Net::HTTP|Faraday|HTTParty/.test(text);
    if (!sinatra && !clients) return;
    walk(root, (node) => {
      if (node.type !== "call") return;
      if (sinatra) this.sinatra(node);
      if (clients) this.client(node);
    });
  }

  railsBody(statements: readonly Node[], ctx: RouteContext): void {
    for (const stmt of statements) {
      if (stmt.type !== "call" && stmt.type !== "identifier") continue;
      if (stmt.type === "call" && stmt.childForFieldName("receiver")) continue;
      const method = stmt.type === "identifier"
        ? stmt.text
        : stmt.childForFieldName("method")?.text ?? "";
      if (stmt.type !== "call") continue;
      const first = positional(stmt)[0];
      switch (method) {
        case "namespace": {
          const path = option(stmt, "path") ?? first;
          this.railsBody(blockBody(stmt), {
            prefix: [...ctx.prefix, path ? this.evaluate(path) : hole("?")],
          });
          break;
        }
        case "scope": {
          const path = option(stmt, "path") ??
            (first && first.type !== "pair" ? first : undefined);
          const part = path ? this.railsPath(path) : undefined;
          this.railsBody(blockBody(stmt), {
            ...ctx,
            prefix: part ? [...ctx.prefix, part] : ctx.prefix,
          });
          break;
        }
        case "resources":
        case "resource":
          this.resources(stmt, method === "resource", ctx);
          break;
        case "member":
        case "collection": {
          const target = ctx.resource?.[method];
          if (target) {
            this.railsBody(blockBody(stmt), { prefix: target, direct: true });
          }
          break;
        }
        case "root":
          this.railsRoute(stmt, ["GET"], literal(""), ctx);
          break;
        case "match": {
          const via = symbolList(option(stmt, "via"));
          const verbs = via.includes("all") || via.length === 0
            ? ["ANY"]
            : via.map((v) => v.toUpperCase()).filter((v) =>
              HTTP_METHODS.has(v)
            );
          const path = this.verbPath(stmt);
          if (path) this.railsRoute(stmt, verbs, path, ctx);
          break;
        }
        case "constraints":
        case "defaults":
        case "controller":
        case "scope_module":
          this.railsBody(blockBody(stmt), ctx);
          break;
        case "concern":
          // A definition: its routes appear where it is used.
          break;
        case "concerns":
          this.useConcerns(
            positional(stmt).flatMap((n) => symbolList(n)),
            ctx,
          );
          break;
        case "draw":
          this.drawFile(stmt, ctx);
          break;
        case "mount":
          this.mount(stmt, ctx);
          break;
        default:
          if (HTTP_VERBS.has(method)) {
            const path = this.verbPath(stmt);
            if (path) this.railsRoute(stmt, [method.toUpperCase()], path, ctx);
          }
      }
    }
  }

  /** The path of `get "/x"`, `get :x`, `get "x" => "c#a"`. */
  verbPath(call: Node): Value | undefined {
    const first = positional(call)[0];
    if (first) return this.railsPath(first);
    const rocket = args(call).find((a) =>
      a.type === "pair" && a.childForFieldName("key")?.type === "string"
    );
    const key = rocket?.childForFieldName("key");
    return key ? this.railsPath(key) : undefined;
  }

  railsPath(node: Node): Value {
    const value = this.evaluate(node);
    const text = exactText(value);
    return text === undefined
      ? value
      : literal(dropOptional(text), value.composed);
  }

  railsRoute(
    call: Node,
    verbs: readonly string[],
    path: Value,
    ctx: RouteContext,
  ): void {
    let prefix = ctx.prefix;
    // A bare verb in a `resources` block nests under `/:post_id`;
    // `on: :member` / `on: :collection` choose explicitly.
    const onNode = option(call, "on");
    const on = onNode ? symbolName(onNode) : undefined;
    if (ctx.resource && !ctx.direct) {
      if (on === "member") prefix = ctx.resource.member;
      else if (on === "collection") prefix = ctx.resource.collection;
    }
    this.emitServer(call, verbs, [...prefix, path], "rails", prefix.length > 0);
  }

  resources(call: Node, single: boolean, ctx: RouteContext): void {
    const names = positional(call).map((n) =>
      symbolName(n) ?? exactText(this.evaluate(n))
    )
      .filter((n): n is string => n !== undefined);
    const only = option(call, "only");
    const except = option(call, "except");
    const onlyList = symbolList(only);
    const exceptList = symbolList(except);
    const pathOption = option(call, "path");
    for (const name of names) {
      const segment = pathOption ? this.evaluate(pathOption) : literal(name);
      const base = [...ctx.prefix, segment];
      const actions = (single ? SINGULAR_ACTIONS : PLURAL_ACTIONS).filter(
        ([action]) =>
          (!only || onlyList.includes(action)) && !exceptList.includes(action),
      );
      for (const [, verb, suffix] of actions) {
        this.emitServer(
          call,
          [verb],
          [...base, literal(suffix)],
          "rails",
          true,
        );
      }
      const member = single ? base : [...base, literal(":id")];
      const nested = single
        ? base
        : [...base, literal(`:${singular(name)}_id`)];
      const inner: RouteContext = {
        prefix: nested,
        resource: { collection: base, member },
      };
      this.railsBody(blockBody(call), inner);
      this.useConcerns(symbolList(option(call, "concerns")), inner);
    }
  }

  /** Expands route concerns (`concerns: :commentable`) in a context. */
  useConcerns(names: readonly string[], ctx: RouteContext): void {
    const rails = this.rails;
    if (!rails) return;
    for (const name of names) {
      const concern = rails.concerns.get(name);
      const key = `concern:${name}`;
      if (!concern || rails.active.has(key)) continue;
      rails.active.add(key);
      try {
        concern.ruby.railsBody(concern.body, ctx);
      } finally {
        rails.active.delete(key);
      }
    }
  }

  /** `draw(:admin)`: the routes of `config/routes/admin.rb`, here. */
  drawFile(call: Node, ctx: RouteContext): void {
    const rails = this.rails;
    const first = positional(call)[0];
    if (!rails || !first || call.childForFieldName("block")) return;
    const name = symbolName(first) ?? exactText(this.evaluate(first));
    const dir = routesDirectory(this.file.path);
    if (!name || dir === undefined) return;
    const path = `${dir}${name}.rb`;
    const drawn = rails.files.get(path);
    const key = `draw:${path}`;
    if (!drawn || rails.active.has(key)) return;
    rails.active.add(key);
    try {
      drawn.ruby.railsBody(namedChildren(drawn.root), ctx);
    } finally {
      rails.active.delete(key);
    }
  }

  /**
   * `mount Sidekiq::Web => "/sidekiq"`, `mount Api::Engine, at: "/api"`: an
   * engine whose routes are in the scan gets them under the mount path;
   * another Rack app is one `ANY <path>/*` port (everything below the path).
   */
  mount(call: Node, ctx: RouteContext): void {
    const mounted = mountTarget(call);
    if (!mounted) return;
    const path = this.railsPath(mounted.at);
    const name = mounted.target.text.replace(/^::/, "");
    const engine = this.rails?.engines.get(name);
    const key = `engine:${name}`;
    if (engine && !this.rails!.active.has(key)) {
      this.rails!.active.add(key);
      try {
        engine.ruby.railsBody(engine.body, { prefix: [...ctx.prefix, path] });
      } finally {
        this.rails!.active.delete(key);
      }
      return;
    }
    this.emitServer(
      call,
      ["ANY"],
      [...ctx.prefix, path, literal("*")],
      "rails",
      true,
      { confidence: MOUNT_CONFIDENCE, extra: { mount: name } },
    );
  }

  /** Sinatra `get "/x" do ... end` (with sinatra-contrib `namespace`). */
  sinatra(call: Node): void {
    if (call.childForFieldName("receiver")) return;
    const method = call.childForFieldName("method")?.text ?? "";
    if (!HTTP_VERBS.has(method) || !call.childForFieldName("block")) return;
    const first = positional(call)[0];
    if (!first) return;
    const prefixes: Value[] = [];
    for (let n: Node | null = call.parent; n; n = n.parent) {
      if (
        n.type === "call" &&
        n.childForFieldName("method")?.text === "namespace" &&
        !n.childForFieldName("receiver")
      ) {
        const p = positional(n)[0];
        if (p) prefixes.unshift(this.evaluate(p));
      }
    }
    this.emitServer(
      call,
      [method.toUpperCase()],
      [...prefixes, this.evaluate(first)],
      "sinatra",
      prefixes.length > 0,
    );
  }

  emitServer(
    call: Node,
    verbs: readonly string[],
    parts: readonly Value[],
    framework: string,
    composedPrefix: boolean,
    options: { confidence?: number; extra?: Record<string, string> } = {},
  ): void {
    const route = routePath(joinPaths(...parts), composedPrefix);
    const confidence = Math.min(
      route.confidence,
      options.confidence ?? CONFIDENCE.literal,
    );
    for (const verb of verbs) {
      const port = httpPort({
        role: "server",
        method: verb,
        path: route.path,
        node: call,
        owner: ownerOf(call, this.file.path, "ruby"),
        filePath: this.file.path,
        confidence,
        framework,
        ...(options.extra ? { extra: options.extra } : {}),
      });
      if (port) this.ports.push(port);
    }
  }

  /** Net::HTTP, Faraday and HTTParty calls. */
  client(call: Node): void {
    const receiver = call.childForFieldName("receiver");
    const method = call.childForFieldName("method")?.text ?? "";
    if (!receiver) return;
    const a = positional(call);
    const r = receiver.text;
    // Net::HTTP.get(URI(...)), Net::HTTP.post(uri, body)
    if (r === "Net::HTTP") {
      const verb = /^get(_response)?$/.test(method)
        ? "GET"
        : /^post(_form)?$/.test(method)
        ? "POST"
        : undefined;
      if (verb && a[0]) {
        this.emitClient(call, verb, this.evaluate(a[0]), "net-http");
      }
      return;
    }
    // Net::HTTP::Post.new(path_or_uri)
    const request = /^Net::HTTP::(Get|Post|Put|Patch|Delete|Head|Options)$/
      .exec(r);
    if (request && method === "new" && a[0]) {
      this.emitClient(
        call,
        request[1]!.toUpperCase(),
        this.evaluate(a[0]),
        "net-http",
      );
      return;
    }
    if (r === "Faraday" || r === "HTTParty") {
      if (HTTP_VERBS.has(method) && a[0]) {
        this.emitClient(
          call,
          method.toUpperCase(),
          this.evaluate(a[0]),
          r.toLowerCase(),
        );
      }
      return;
    }
    if (!HTTP_VERBS.has(method) || !a[0]) return;
    const kind = this.receiverKind(receiver);
    if (!kind) return;
    let url = this.evaluate(a[0]);
    if (kind.base) url = resolveAgainst(kind.base, url);
    this.emitClient(call, method.toUpperCase(), url, kind.framework);
  }

  /** A receiver made by `Net::HTTP.new/start` or `Faraday.new(url: ...)`. */
  receiverKind(
    receiver: Node,
  ): { framework: string; base?: Value } | undefined {
    let value: Node | undefined;
    if (receiver.type === "identifier") {
      value = this.localValue(receiver);
      if (!value) {
        // `Net::HTTP.start(host) do |http| ... end`
        for (let n: Node | null = receiver.parent; n; n = n.parent) {
          if (n.type !== "do_block" && n.type !== "block") continue;
          const params = n.childForFieldName("parameters");
          const first = params ? namedChildren(params)[0] : undefined;
          if (first?.text !== receiver.text) continue;
          const owner = n.parent;
          if (
            owner?.type === "call" &&
            owner.childForFieldName("receiver")?.text === "Net::HTTP" &&
            owner.childForFieldName("method")?.text === "start"
          ) return { framework: "net-http" };
          return undefined;
        }
      }
    } else if (receiver.type === "instance_variable") {
      value = this.instanceValue(receiver);
    }
    if (!value || value.type !== "call") return undefined;
    const r = value.childForFieldName("receiver")?.text;
    const m = value.childForFieldName("method")?.text;
    if (r === "Net::HTTP" && (m === "new" || m === "start")) {
      return { framework: "net-http" };
    }
    if (r === "Faraday" && m === "new") {
      const url = option(value, "url") ?? positional(value)[0];
      return url
        ? { framework: "faraday", base: this.evaluate(url) }
        : { framework: "faraday" };
    }
    return undefined;
  }

  /** The value assigned to `@x` anywhere in the enclosing class. */
  instanceValue(variable: Node): Node | undefined {
    let cls: Node | null = variable.parent;
    while (cls && cls.type !== "class" && cls.type !== "module") {
      cls = cls.parent;
    }
    let found: Node | undefined;
    walk(cls ?? variable, (n) => {
      if (found) return false;
      if (
        n.type === "assignment" &&
        n.childForFieldName("left")?.text === variable.text
      ) found = n.childForFieldName("right") ?? undefined;
    });
    return found;
  }

  emitClient(
    call: Node,
    method: string,
    url: Value,
    framework: string,
  ): void {
    const path = clientPath(url);
    if (!path) return;
    const port = httpPort({
      role: "client",
      method,
      path: path.path,
      node: anchorOf(call, call.childForFieldName("method") ?? call),
      owner: ownerOf(call, this.file.path, "ruby"),
      filePath: this.file.path,
      confidence: path.confidence,
      framework,
    });
    if (port) this.ports.push(port);
  }
}

/** Resolves a request path against a client's base URL (RFC 3986 style). */
function resolveAgainst(
  base: Value,
  url: Value,
): Value {
  const first = url.parts[0];
  if (typeof first !== "string") return url;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(first)) return url;
  const basePath = clientPath(base)?.path ?? "/";
  // Faraday: a path with a leading slash replaces the base path; a relative
  // one is appended to it.
  if (first.startsWith("/")) return url;
  const dir = basePath.endsWith("/") ? basePath : basePath + "/";
  return composed(concat([literal(dir), url]));
}

/**
 * The `config/routes/` directory `draw(:name)` loads from, for a route file
 * at `<app>/config/routes.rb` or `<app>/config/routes/*.rb`.
 */
function routesDirectory(path: string): string | undefined {
  const at = path.lastIndexOf("config/routes");
  if (at < 0 || (at > 0 && path[at - 1] !== "/")) return undefined;
  return `${path.slice(0, at)}config/routes/`;
}

/** A route file loaded by `draw` (`config/routes/<name>.rb`). */
const DRAWN_FILE = /(^|\/)config\/routes\/.+\.rb$/;

/** The mounted app and the path of `mount App => "/p"` / `mount App, at: "/p"`. */
function mountTarget(call: Node): { target: Node; at: Node } | undefined {
  for (const a of args(call)) {
    if (a.type !== "pair") continue;
    const key = a.childForFieldName("key");
    const value = a.childForFieldName("value");
    if (
      key && value && key.type !== "hash_key_symbol" &&
      key.type !== "simple_symbol" && key.type !== "string"
    ) return { target: key, at: value };
  }
  const target = positional(call)[0];
  const at = option(call, "at");
  return target && at ? { target, at } : undefined;
}

/**
 * `X.routes.draw do ... end`, with the engine constant `X` when it is one
 * (`Api::Engine`; not `Rails.application`).
 */
function routesDraw(call: Node): { engine?: string } | undefined {
  if (call.childForFieldName("method")?.text !== "draw") return undefined;
  if (!call.childForFieldName("block")) return undefined;
  const receiver = call.childForFieldName("receiver");
  // `routes = ActionDispatch::Routing::RouteSet.new; routes.draw do`
  if (receiver?.type === "identifier" && receiver.text === "routes") return {};
  if (
    receiver?.type !== "call" ||
    receiver.childForFieldName("method")?.text !== "routes"
  ) return undefined;
  const owner = receiver.childForFieldName("receiver");
  return owner?.type === "constant" || owner?.type === "scope_resolution"
    ? { engine: owner.text.replace(/^::/, "") }
    : {};
}

/** A call without receiver named `method`, e.g. `concern` or `mount`. */
function bareCall(node: Node, method: string): boolean {
  return node.type === "call" && !node.childForFieldName("receiver") &&
    node.childForFieldName("method")?.text === method;
}

/**
 * Rails routes of a scan: every `routes.draw` block, with concerns, `draw`
 * files and mounted engines resolved across the route files. An engine's
 * route set that is mounted somewhere in the scan is expanded only under its
 * mount paths; one mounted nowhere is read at the root.
 */
async function extractRails(
  files: readonly SourceFile[],
  constants: Map<string, Value>,
  ports: ExtractedPort[],
  diagnostics: ExtractDiagnostic[],
): Promise<void> {
  const routeFiles = files.filter((f) =>
    /\broutes\.draw\b/.test(f.text) || DRAWN_FILE.test(f.path)
  );
  if (routeFiles.length === 0) return;
  const rails: RailsProject = {
    files: new Map(),
    concerns: new Map(),
    engines: new Map(),
    active: new Set(),
  };
  const trees: Tree[] = [];
  // Parse failures were already reported by the main pass.
  const scratch: ExtractDiagnostic[] = [];
  try {
    await eachFile(routeFiles, scratch, async (file) => {
      const tree = await parseSource("ruby", file.text);
      trees.push(tree);
      rails.files.set(file.path, {
        ruby: new RubyFile(file, constants, ports, rails),
        root: tree.rootNode,
      });
    });
    const draws: Array<{ ruby: RubyFile; call: Node; engine?: string }> = [];
    // Where route DSL calls live: draw blocks and files loaded by `draw`.
    const scopes: Array<{ ruby: RubyFile; node: Node }> = [];
    for (const { ruby, root } of rails.files.values()) {
      const drawn = DRAWN_FILE.test(ruby.file.path);
      if (drawn) scopes.push({ ruby, node: root });
      walk(root, (n) => {
        if (n.type !== "call") return;
        const draw = routesDraw(n);
        if (!draw) return;
        const block = n.childForFieldName("block");
        if (block && !drawn) scopes.push({ ruby, node: block });
        draws.push({ ruby, call: n, ...draw });
        if (draw.engine && !rails.engines.has(draw.engine)) {
          rails.engines.set(draw.engine, { ruby, body: blockBody(n) });
        }
        return false;
      });
    }
    const mounted = new Set<string>();
    for (const { ruby, node } of scopes) {
      walk(node, (n) => {
        if (bareCall(n, "concern")) {
          const name = symbolName(positional(n)[0] ?? n);
          if (
            name && n.childForFieldName("block") && !rails.concerns.has(name)
          ) rails.concerns.set(name, { ruby, body: blockBody(n) });
        } else if (bareCall(n, "mount")) {
          const target = mountTarget(n)?.target.text.replace(/^::/, "");
          if (target && rails.engines.has(target)) mounted.add(target);
        }
      });
    }
    await eachFile(
      draws.map((d) => ({ ...d, path: d.ruby.file.path })),
      diagnostics,
      (d) => {
        if (!d.engine || !mounted.has(d.engine)) {
          d.ruby.railsBody(blockBody(d.call), { prefix: [] });
        }
        return Promise.resolve();
      },
    );
  } finally {
    for (const tree of trees) tree.delete();
  }
}

/** `NAME = "..."` constants (any nesting). */
function collectConstants(
  root: Node,
  constants: Map<string, Value>,
): void {
  walk(root, (n) => {
    if (n.type !== "assignment") return;
    const left = n.childForFieldName("left");
    const right = n.childForFieldName("right");
    if (left?.type !== "constant" || !right) return false;
    const v = literalString(right);
    if (v && !constants.has(left.text)) {
      constants.set(left.text, v);
    }
    return false;
  });
}

/**
 * Extracts Ruby routes and HTTP client calls.
 *
 * Rails (files with `routes.draw`): `get/post/put/patch/delete "/x"` (also
 * `get :x`, `get "x" => "c#a"`), `match ..., via:` (`:all` → `ANY`),
 * `root`, `resources`/`resource` (the RESTful routes; `only:`/`except:`,
 * `path:`), nested resources (`/posts/:post_id/comments`), `member` and
 * `collection` blocks (or `on:`), `namespace :api` and `scope "/v1"`
 * prefixes; optional segments like `(.:format)` are dropped; `scope
 * module:`/`controller:` and `constraints` blocks keep the path. Route
 * concerns (`concern :commentable do ... end`) expand under each resource
 * using them (`concerns: :commentable`, `concerns :commentable`);
 * `draw(:admin)` reads `config/routes/admin.rb` inside the current scopes;
 * `mount Api::Engine, at: "/api"` puts the engine's own routes (its
 * `Api::Engine.routes.draw` in the scan) under the mount path, while any
 * other mounted Rack app (`mount Sidekiq::Web => "/sidekiq"`) is one port
 * `ANY /sidekiq/*` (key `ANY /sidekiq/{}`) at confidence 0.6. Sinatra (files
 * that `require "sinatra"` or subclass `Sinatra::Base`): `get "/x" do`, with
 * sinatra-contrib `namespace` prefixes. Clients: `Net::HTTP.get/post(URI)`,
 * `Net::HTTP::Post.new(path)`, `http.get(path)` on `Net::HTTP.new/start`
 * objects, Faraday connections (`Faraday.new(url: base)`, base path
 * prepended) and `Faraday.get`/`HTTParty.get` with full URLs.
 *
 * @example Usage
 * ```ts
 * import { rubyExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `Rails.application.routes.draw do
 *   namespace :api do
 *     resources :users, only: [:show]
 *   end
 * end`;
 * const { ports } = await rubyExtractor.extract([{ path: "config/routes.rb", text }]);
 * assert.equal(ports[0]?.ref.key, "GET /api/users/{}");
 * ```
 */
export const rubyExtractor: LanguageExtractor = {
  name: "ruby",
  accepts(path: string): boolean {
    return path.endsWith(".rb");
  },
  async extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const constants = new Map<string, Value>();
    const result = await twoPasses(
      files,
      "ruby",
      (file) => /^\s*[A-Z]\w*\s*=/m.test(file.text),
      (root) => collectConstants(root, constants),
      (file, root, ports) => new RubyFile(file, constants, ports).run(root),
    );
    await extractRails(files, constants, result.ports, result.diagnostics);
    return result;
  },
};
