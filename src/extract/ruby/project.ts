// Ruby extractor: Rails routes (`config/routes.rb`: verbs, `resources`,
// `namespace`, `scope`, nesting, member/collection, concerns, `draw`,
// mounted engines and Rack apps), Sinatra routes, and Net::HTTP / Faraday /
// HTTParty client calls.
import type { Node } from "web-tree-sitter";
import type { SourceFile } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import type { Value } from "../_value/mod.ts";
import {
  composed,
  concat,
  CONFIDENCE,
  exactText,
  hole,
  joinPaths,
  literal,
} from "../_value/mod.ts";
import { HTTP_VERBS, resourceActions, routePorts } from "../_port/http.ts";
import { evaluateStringExpression } from "../_value/literals.ts";
import type { ConstantTable, DeclaredConstant } from "../_value/constants.ts";
import { collectDeclaredConstants } from "../_value/constants.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { namedChildren, walk } from "../_syntax/tree.ts";
import { lastAssignment } from "../_syntax/locals.ts";
import { client } from "./clients.ts";
import { isRodaApp, isRodaRoute, rodaRoutes } from "./roda.ts";
import { parameterIndex, RubyCalls } from "./flow.ts";
import type { KeptTrees } from "../_syntax/passes.ts";
import { TreeFile } from "../_syntax/passes.ts";

/** Rails resource actions: method, suffix after the collection path. */
export const PLURAL_ACTIONS: ReadonlyArray<[string, string, string]> =
  resourceActions({ member: "/:id" });
/** A singular resource's (no index, no member id). */
export const SINGULAR_ACTIONS: ReadonlyArray<[string, string, string]> =
  resourceActions({ member: "" }).filter(([action]) => action !== "index");

/**
 * What the Rails routes of one scan share across files: the parsed route
 * files (`config/routes.rb`, engines' route files, `config/routes/*.rb`
 * loaded by `draw`), route concerns and engine route sets.
 */
export interface RailsProject {
  /** Route files by path. */
  files: Map<string, { ruby: RubyFile; root: Node }>;
  /** `concern :name do ... end`: the file and the block statements. */
  concerns: Map<string, { ruby: RubyFile; body: Node[] }>;
  /** `Api::Engine.routes.draw do ... end`, by engine constant. */
  engines: Map<string, { ruby: RubyFile; body: Node[] }>;
  /** Concerns, drawn files and engines being expanded (cycle guard). */
  active: Set<string>;
  /** Devise modules of the models (`devise :database_authenticatable`), by class. */
  deviseModels: Map<string, string[]>;
}

/** Confidence of a mounted Rack app whose routes are unknown. */
export const MOUNT_CONFIDENCE = CONFIDENCE.weak;

export interface RouteContext {
  /** The framework reported (`rails` unless set; Hanami shares the DSL). */
  framework?: string | undefined;
  /** Path parts composed so far (namespaces, scopes, nesting). */
  prefix: Value[];
  /** Inside a `resources` block: where member/collection routes go. */
  resource?: { collection: Value[]; member: Value[] };
  /** `member do`/`collection do`: verbs go exactly under the prefix. */
  direct?: boolean;
}

export function args(call: Node): Node[] {
  const list = call.childForFieldName("arguments");
  return list ? namedChildren(list) : [];
}

export function positional(call: Node): Node[] {
  return args(call).filter((a) => a.type !== "pair");
}

export function option(call: Node, key: string): Node | undefined {
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

export function blockBody(call: Node): Node[] {
  const block = call.childForFieldName("block");
  const body = block?.childForFieldName("body");
  return body ? namedChildren(body) : [];
}

export function symbolName(node: Node): string | undefined {
  if (node.type === "simple_symbol") return node.text.slice(1);
  if (node.type === "bare_symbol") return node.text;
  return undefined;
}

/** Names in `:a`, `"a"`, `[:a, :b]`, `%i[a b]`, `%w[a b]`. */
export function symbolList(node: Node | undefined): string[] {
  if (!node) return [];
  const single = symbolName(node);
  if (single) return [single];
  if (node.type === "string" && node.namedChildCount <= 1) {
    const content = node.namedChild(0);
    if (!content) return [""];
    if (content.type === "string_content") return [content.text];
    return [];
  }
  if (
    node.type === "array" || node.type === "symbol_array" ||
    node.type === "string_array"
  ) {
    return namedChildren(node).map((n) =>
      symbolName(n) ?? n.text.replace(/^["']|["']$/g, "")
    );
  }
  return [];
}

/** One Ruby file being scanned: string evaluation, locals, Sinatra routes. */
export class RubyFile extends TreeFile {
  /** Block parameters bound while a literal loop is unrolled (`|action|`). */
  readonly bindings: Map<string, Value> = new Map();

  constructor(
    file: SourceFile,
    constants: Map<string, Value>,
    ports: ExtractedPort[],
    readonly rails?: RailsProject,
    kept?: KeptTrees,
  ) {
    super(file, constants, ports, kept);
  }

  /** The calls of the root's methods (for values through parameters). */
  get calls(): RubyCalls {
    return this.#calls ??= new RubyCalls(this);
  }
  #calls: RubyCalls | undefined;

  evaluate(node: Node | null | undefined, depth = 0): Value {
    if (!node || depth > 8) return hole("?");
    const inner = (e: Node | null) => this.evaluate(e, depth + 1);
    const read = evaluateStringExpression(node, "+", inner);
    if (read) return read;
    const sym = symbolName(node);
    if (sym !== undefined) return literal(sym);
    switch (node.type) {
      case "constant":
      case "scope_resolution": {
        const name = node.type === "constant"
          ? node.text
          : node.childForFieldName("name")?.text ?? "";
        const value = this.constants.get(name);
        return value ? composed(value) : hole(node.text);
      }
      case "identifier": {
        const bound = this.bindings.get(node.text);
        if (bound) return composed(bound);
        const value = this.localValue(node);
        if (value) return composed(this.evaluate(value, depth + 1));
        // a method's parameter: its callers supply it
        return parameterIndex(node) === undefined
          ? hole(node.text)
          : hole(node.text, "parameter");
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
    return lastAssignment(identifier, RUBY_SCOPES, "assignment");
  }

  /** Sinatra routes and HTTP clients (Rails routes: {@linkcode extractRails}). */
  run(root: Node): void {
    this.rootNode = root;
    const text = this.file.text;
    const test = isTestPath(this.file.path);
    const sinatra = !test &&
      /require\s+['"]sinatra|Sinatra::(Base|Application)/.test(text);
    const clients = /Net::HTTP|Faraday|HTTParty/.test(text);
    const roda = !test && isRodaApp(text);
    if (!sinatra && !clients && !roda) return;
    walk(root, (node) => {
      if (node.type !== "call") return;
      if (sinatra) this.sinatra(node);
      if (clients) client(this, node);
      if (roda && isRodaRoute(node)) rodaRoutes(this, node);
    });
  }

  /** Sinatra `get "/x" do ... end` (with sinatra-contrib `namespace`). */
  sinatra(call: Node): void {
    if (call.childForFieldName("receiver")) return;
    const method = call.childForFieldName("method")?.text ?? "";
    if (!call.childForFieldName("block")) return;
    let verbs = [method.toUpperCase()];
    let first = positional(call)[0];
    if (method === "route") {
      // sinatra-contrib MultiRoute: `route :get, :post, "/x" do`
      const list = positional(call);
      first = list[list.length - 1];
      verbs = list.slice(0, -1).flatMap((v) => symbolList(v)).map((v) =>
        v.toUpperCase()
      );
      if (
        verbs.length === 0 ||
        verbs.some((v) => !HTTP_VERBS.has(v.toLowerCase()))
      ) return;
    } else if (!HTTP_VERBS.has(method)) return;
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
      verbs,
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
    this.ports.push(...routePorts({
      methods: verbs,
      path: joinPaths(...parts),
      prefixed: composedPrefix,
      node: call,
      owner: ownerOf(call, this.file.path, "ruby"),
      filePath: this.file.path,
      framework,
      ...options,
    }));
  }
}

/** Where a Ruby local variable lives: a method, else the file. */
const RUBY_SCOPES: ReadonlySet<string> = new Set([
  "method",
  "singleton_method",
  "program",
]);

/** The last name of a constant path: `::Api::Users` → `Users`. */
export function lastConstant(name: string): string {
  return name.slice(name.lastIndexOf(":") + 1);
}

/** A snake-case name as a class name: `blog_admin` → `BlogAdmin`. */
export function camelize(name: string): string {
  return name.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");
}

/**
 * A Minitest or RSpec file or folder (`test/`, `spec/`, `*_test.rb`,
 * `*_spec.rb`): routes declared there (test apps, an engine's dummy app)
 * serve only the tests.
 */
export function isTestPath(path: string): boolean {
  return /(?:^|\/)(?:test|spec)\/|_(?:test|spec)\.rb$/.test(path);
}

/** A reference to a constant: `NAME`, `Mod::NAME` (by its last name). */
function constantName(node: Node): string | undefined {
  if (node.type === "constant") return node.text;
  if (node.type === "scope_resolution") {
    return node.childForFieldName("name")?.text;
  }
  return undefined;
}

/**
 * `NAME = "..."` constants (any nesting, the first of a name kept); one
 * built from others (`"#{BASE}/v1"`, `BASE + "/v1"`) keeps them as
 * `constant` holes until `settleConstants` fills them.
 */
export function collectConstants(root: Node, constants: ConstantTable): void {
  collectDeclaredConstants(root, constants, assignedConstant);
}

/** The constant an assignment names (none below any assignment). */
function assignedConstant(node: Node): DeclaredConstant[] | undefined {
  if (node.type !== "assignment") return undefined;
  const left = node.childForFieldName("left");
  const value = node.childForFieldName("right");
  if (left?.type !== "constant" || !value) return [];
  return [{ value, nameOf: constantName, keys: [], fallbacks: [left.text] }];
}
