// Rails routes: the `routes.draw` DSL (verbs, `resources`, `namespace`,
// `scope`, nesting, member/collection, concerns, `draw`, mounted engines
// and Rack apps) across the route files of a scan.
import { HTTP_VERBS } from "../_port/http.ts";
import { deviseFor, useDoorkeeper } from "./rails_gems.ts";
import { parseSource } from "../_syntax/parser.ts";
import { namedChildren, walk } from "../_syntax/tree.ts";
import { exactText, hole, literal, type Value } from "../_value/mod.ts";
import {
  args,
  blockBody,
  isTestPath,
  MOUNT_CONFIDENCE,
  option,
  PLURAL_ACTIONS,
  positional,
  type RailsProject,
  type RouteContext,
  RubyFile,
  SINGULAR_ACTIONS,
  symbolList,
  symbolName,
} from "./project.ts";
import { optionNames } from "./options.ts";
import type { ExtractDiagnostic, SourceFile } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import type { Node, Tree } from "web-tree-sitter";
import { eachFile } from "../_syntax/passes.ts";

/** Route verbs: the HTTP ones and `query` (RFC 10008, Rails 8.2). */
const RAILS_VERBS: ReadonlySet<string> = new Set([...HTTP_VERBS, "query"]);

/** Most elements a literal loop in a route file is unrolled for. */
const MAX_LOOP_ELEMENTS = 64;

/** Most literal loops nested in one another that are unrolled. */
const MAX_LOOP_NESTING = 2;

/** A reader of one route call in its context. */
type CallReader = (c: RubyFile, call: Node, ctx: RouteContext) => void;

/** The route calls read by a function of their own (`draw`, `mount`, gems'). */
const CALL_READERS: Readonly<Record<string, CallReader>> = {
  draw: drawFile,
  mount,
  "devise_for": deviseFor,
  "use_doorkeeper": useDoorkeeper,
};

export function railsBody(
  c: RubyFile,
  statements: readonly Node[],
  ctx: RouteContext,
): void {
  for (const stmt of statements) {
    if (stmt.type === "if_modifier" || stmt.type === "unless_modifier") {
      const body = stmt.childForFieldName("body");
      if (body) railsBody(c, [body], ctx);
      continue;
    }
    if (stmt.type === "if" || stmt.type === "unless") {
      // `if Rails.env.test? ... end`: routes of some environments
      conditional(c, stmt, ctx);
      continue;
    }
    if (stmt.type === "call" && stmt.childForFieldName("receiver")) {
      literalLoop(c, stmt, ctx);
      continue;
    }
    if (stmt.type !== "call" && stmt.type !== "identifier") continue;
    const method = stmt.type === "identifier"
      ? stmt.text
      : stmt.childForFieldName("method")?.text ?? "";
    if (stmt.type !== "call") continue;
    const first = positional(stmt)[0];
    switch (method) {
      case "namespace": {
        const path = option(stmt, "path") ?? first;
        railsBody(c, blockBody(stmt), {
          framework: ctx.framework,
          prefix: [...ctx.prefix, path ? c.evaluate(path) : hole("?")],
        });
        break;
      }
      case "scope": {
        const path = option(stmt, "path") ??
          (first && first.type !== "pair" ? first : undefined);
        const part = path ? railsPath(c, path) : undefined;
        railsBody(c, blockBody(stmt), {
          ...ctx,
          prefix: part ? [...ctx.prefix, part] : ctx.prefix,
        });
        break;
      }
      case "resources":
      case "resource":
        resources(c, stmt, method === "resource", ctx);
        break;
      case "member":
      case "collection": {
        const target = ctx.resource?.[method];
        if (target) {
          railsBody(c, blockBody(stmt), {
            framework: ctx.framework,
            prefix: target,
            direct: true,
          });
        }
        break;
      }
      case "new": {
        // `new do get :template end`: under `/posts/new`
        const target = ctx.resource?.collection;
        if (target && !first) {
          railsBody(c, blockBody(stmt), {
            framework: ctx.framework,
            prefix: [...target, literal("new")],
            direct: true,
          });
        }
        break;
      }
      case "root":
        railsRoute(c, stmt, ["GET"], literal(""), ctx);
        break;
      case "match": {
        const via = optionNames(stmt, "via");
        const verbs = via.includes("all") || via.length === 0
          ? ["ANY"]
          : via.map((v) => v.toUpperCase()).filter((v) =>
            RAILS_VERBS.has(v.toLowerCase())
          );
        const path = verbPath(c, stmt);
        if (path) railsRoute(c, stmt, verbs, path, ctx);
        break;
      }
      case "constraints":
      case "defaults":
      case "controller":
      case "scope_module":
      case "devise_scope":
        railsBody(c, blockBody(stmt), ctx);
        break;
      case "concern":
        // A definition: its routes appear where it is used.
        break;
      case "concerns":
        useConcerns(c, positional(stmt).flatMap((n) => symbolList(n)), ctx);
        break;
      case "slice": {
        // Hanami: `slice :main, at: "/main" do`
        const at = option(stmt, "at");
        railsBody(c, blockBody(stmt), {
          ...ctx,
          prefix: at ? [...ctx.prefix, railsPath(c, at)] : ctx.prefix,
        });
        break;
      }
      default:
        if (Object.hasOwn(CALL_READERS, method)) {
          CALL_READERS[method]!(c, stmt, ctx);
        } else if (RAILS_VERBS.has(method)) {
          const path = verbPath(c, stmt);
          if (path) railsRoute(c, stmt, [method.toUpperCase()], path, ctx);
        }
    }
  }
}

/** Both branches of `if`/`unless` (and `elsif`/`else`) in a route file. */
function conditional(c: RubyFile, node: Node, ctx: RouteContext): void {
  for (const field of ["consequence", "alternative"]) {
    const branch = node.childForFieldName(field);
    if (!branch) continue;
    if (branch.type === "elsif") conditional(c, branch, ctx);
    else railsBody(c, namedChildren(branch), ctx);
  }
}

/**
 * `%w[browse annotate].each do |action| ... end`: the block once per
 * element of a literal list, its parameter bound to the element.
 */
function literalLoop(c: RubyFile, call: Node, ctx: RouteContext): void {
  const method = call.childForFieldName("method")?.text;
  if (method !== "each") return;
  const receiver = call.childForFieldName("receiver")!;
  const block = call.childForFieldName("block");
  const params = block?.childForFieldName("parameters");
  const param = params ? namedChildren(params) : [];
  if (param.length !== 1 || param[0]!.type !== "identifier") return;
  // loops nested in loops multiply: two levels at most
  if (c.bindings.size >= MAX_LOOP_NESTING) return;
  const elements = receiver.type === "array"
    ? namedChildren(receiver).map((n) => exactText(c.evaluate(n)))
    : symbolList(receiver);
  if (
    elements.length === 0 || elements.length > MAX_LOOP_ELEMENTS ||
    elements.some((e) => e === undefined)
  ) return;
  const name = param[0]!.text;
  const saved = c.bindings.get(name);
  try {
    for (const element of elements as string[]) {
      c.bindings.set(name, literal(element));
      railsBody(c, blockBody(call), ctx);
    }
  } finally {
    if (saved) c.bindings.set(name, saved);
    else c.bindings.delete(name);
  }
}

/** The path of `get "/x"`, `get :x`, `get "x" => "c#a"`. */
export function verbPath(
  c: RubyFile,
  call: Node,
): Value | undefined {
  const first = positional(call)[0];
  if (first) return railsPath(c, first);
  const rocket = args(call).find((a) =>
    a.type === "pair" && a.childForFieldName("key")?.type === "string"
  );
  const key = rocket?.childForFieldName("key");
  return key ? railsPath(c, key) : undefined;
}

export function railsPath(
  c: RubyFile,
  node: Node,
): Value {
  const value = c.evaluate(node);
  const text = exactText(value);
  return text === undefined
    ? value
    : literal(dropOptional(text), value.composed);
}

export function railsRoute(
  c: RubyFile,
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
  c.emitServer(
    call,
    verbs,
    [...prefix, path],
    ctx.framework ?? "rails",
    prefix.length > 0,
  );
}

export function resources(
  c: RubyFile,
  call: Node,
  single: boolean,
  ctx: RouteContext,
): void {
  const names = positional(call).map((n) =>
    symbolName(n) ?? exactText(c.evaluate(n))
  )
    .filter((n): n is string => n !== undefined);
  const only = option(call, "only");
  const except = option(call, "except");
  const onlyList = symbolList(only);
  const exceptList = symbolList(except);
  const pathOption = option(call, "path");
  for (const name of names) {
    const segment = pathOption ? c.evaluate(pathOption) : literal(name);
    const base = [...ctx.prefix, segment];
    const actions = (single ? SINGULAR_ACTIONS : PLURAL_ACTIONS).filter(
      ([action, verb]) =>
        (!only || onlyList.includes(action)) && !exceptList.includes(action) &&
        // Hanami's `update` is PATCH only
        (ctx.framework !== "hanami" || verb !== "PUT"),
    );
    for (const [, verb, suffix] of actions) {
      c.emitServer(
        call,
        [verb],
        [...base, literal(suffix)],
        ctx.framework ?? "rails",
        true,
      );
    }
    const member = single ? base : [...base, literal(":id")];
    const nested = single ? base : [...base, literal(`:${singular(name)}_id`)];
    const inner: RouteContext = {
      framework: ctx.framework,
      prefix: nested,
      resource: { collection: base, member },
    };
    railsBody(c, blockBody(call), inner);
    useConcerns(c, optionNames(call, "concerns"), inner);
  }
}

/** Expands route concerns (`concerns: :commentable`) in a context. */
export function useConcerns(
  c: RubyFile,
  names: readonly string[],
  ctx: RouteContext,
): void {
  const rails = c.rails;
  if (!rails) return;
  for (const name of names) {
    const concern = rails.concerns.get(name);
    const key = `concern:${name}`;
    if (!concern || rails.active.has(key)) continue;
    rails.active.add(key);
    try {
      railsBody(concern.ruby, concern.body, ctx);
    } finally {
      rails.active.delete(key);
    }
  }
}

/** `draw(:admin)`: the routes of `config/routes/admin.rb`, here. */
export function drawFile(
  c: RubyFile,
  call: Node,
  ctx: RouteContext,
): void {
  const rails = c.rails;
  const first = positional(call)[0];
  if (!rails || !first || call.childForFieldName("block")) return;
  const name = symbolName(first) ?? exactText(c.evaluate(first));
  const dir = routesDirectory(c.file.path);
  if (!name || dir === undefined) return;
  const path = `${dir}${name}.rb`;
  const drawn = rails.files.get(path);
  const key = `draw:${path}`;
  if (!drawn || rails.active.has(key)) return;
  rails.active.add(key);
  try {
    railsBody(drawn.ruby, namedChildren(drawn.root), ctx);
  } finally {
    rails.active.delete(key);
  }
}

/**
 * `mount Sidekiq::Web => "/sidekiq"`, `mount Api::Engine, at: "/api"`: an
 * engine whose routes are in the scan gets them under the mount path;
 * another Rack app is two ports, `ANY <path>` and `ANY <path>/*` (the path
 * and everything below it).
 */
export function mount(
  c: RubyFile,
  call: Node,
  ctx: RouteContext,
): void {
  const mounted = mountTarget(call);
  if (!mounted) return;
  const path = railsPath(c, mounted.at);
  const name = mounted.target.text.replace(/^::/, "");
  const engine = c.rails?.engines.get(name);
  const key = `engine:${name}`;
  if (engine && !c.rails!.active.has(key)) {
    c.rails!.active.add(key);
    try {
      railsBody(engine.ruby, engine.body, { prefix: [...ctx.prefix, path] });
    } finally {
      c.rails!.active.delete(key);
    }
    return;
  }
  for (const below of [[], [literal("*")]]) {
    c.emitServer(
      call,
      ["ANY"],
      [...ctx.prefix, path, ...below],
      ctx.framework ?? "rails",
      true,
      { confidence: MOUNT_CONFIDENCE, extra: { mount: name } },
    );
  }
}

/** Drops Rails optional segments `(:locale)` and `(.:format)`. */
export function dropOptional(path: string): string {
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
export function singular(name: string): string {
  return name.endsWith("s") ? name.slice(0, -1) : name;
}

/**
 * The `config/routes/` directory `draw(:name)` loads from, for a route file
 * at `<app>/config/routes.rb` or `<app>/config/routes/*.rb`.
 */
export function routesDirectory(path: string): string | undefined {
  const at = path.lastIndexOf("config/routes");
  if (at < 0 || (at > 0 && path[at - 1] !== "/")) return undefined;
  return `${path.slice(0, at)}config/routes/`;
}

/** The mounted app and the path of `mount App => "/p"` / `mount App, at: "/p"`. */
export function mountTarget(
  call: Node,
): { target: Node; at: Node } | undefined {
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
export function routesDraw(call: Node): { engine?: string } | undefined {
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
export function bareCall(node: Node, method: string): boolean {
  return node.type === "call" && !node.childForFieldName("receiver") &&
    node.childForFieldName("method")?.text === method;
}

/** A model enabling Devise modules (`devise :database_authenticatable`). */
const DEVISE_MODEL = /^\s*devise\s+:/m;

/** `class User ... devise :a, :b ... end`: the modules by class name. */
function deviseModels(root: Node, into: Map<string, string[]>): void {
  walk(root, (n) => {
    if (n.type !== "class") return;
    const name = n.childForFieldName("name");
    const body = n.childForFieldName("body");
    if (!name || !body) return;
    const className = name.type === "scope_resolution"
      ? name.childForFieldName("name")?.text
      : name.text;
    for (const stmt of namedChildren(body)) {
      if (!bareCall(stmt, "devise") || !className) continue;
      const modules = positional(stmt).flatMap((a) => symbolList(a));
      into.set(className, [...(into.get(className) ?? []), ...modules]);
    }
  });
}

/** A route file loaded by `draw` (`config/routes/<name>.rb`). */
const DRAWN_FILE = /(^|\/)config\/routes\/.+\.rb$/;

/**
 * Rails routes of a scan: every `routes.draw` block, with concerns, `draw`
 * files and mounted engines resolved across the route files. An engine's
 * route set that is mounted somewhere in the scan is expanded only under its
 * mount paths; one mounted nowhere is read at the root.
 */
export async function extractRails(
  files: readonly SourceFile[],
  constants: Map<string, Value>,
  ports: ExtractedPort[],
  diagnostics: ExtractDiagnostic[],
): Promise<void> {
  const routeFiles = files.filter((f) =>
    (/\broutes\.draw\b/.test(f.text) || DRAWN_FILE.test(f.path)) &&
    !isTestPath(f.path)
  );
  if (routeFiles.length === 0) return;
  const rails: RailsProject = {
    files: new Map(),
    concerns: new Map(),
    engines: new Map(),
    active: new Set(),
    deviseModels: new Map(),
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
    await eachFile(
      files.filter((f) => DEVISE_MODEL.test(f.text)),
      scratch,
      async (file) => {
        const tree = await parseSource("ruby", file.text);
        trees.push(tree);
        deviseModels(tree.rootNode, rails.deviseModels);
      },
    );
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
          railsBody(d.ruby, blockBody(d.call), { prefix: [] });
        }
        return Promise.resolve();
      },
    );
  } finally {
    for (const tree of trees) tree.delete();
  }
}
