// First pass of the JavaScript/TypeScript extractor: one parse per file,
// turned into plain facts (imports, constants, routers, route calls,
// mounts, client calls) that hold no tree nodes, so trees can be deleted
// before the cross-file pass composes prefixes and constants.
import type { GrammarName } from "../_syntax/parser.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { findAncestor, type Node, positionOf } from "../_syntax/tree.ts";
import { unwrap, valueOf } from "./values.ts";
import { literal, type Value } from "../_value/mod.ts";
import type { ImportBinding, JsFacts, Site } from "./facts.ts";
import {
  axiosCall,
  clientMemberCall,
  fetchCall,
  generated,
  kyCall,
  REQUEST_MODULES,
  requestCall,
} from "./client_calls.ts";
import {
  constDecl,
  enumDecl,
  exportDecl,
  importDecl,
  moduleExports,
  requireDecl,
} from "./declarations.ts";
import { collectGuards, type GuardScope } from "./guarded.ts";
import { nestAppCall, nestClass } from "./nestjs.ts";
import { pathTables } from "./path_tables.ts";
import { nextRoutes } from "./nextjs.ts";
import { sailsFacts } from "./sails.ts";
import { adonisCall } from "./adonis.ts";
import { classRoute } from "./class_routers.ts";
import { testClientCall } from "./test_clients.ts";
import { generatedSdkCall } from "./generated_sdk.ts";
import { remixRoutes } from "./remix.ts";
import { svelteRoutes } from "./sveltekit.ts";
import { nitroRoutes } from "./nitro.ts";
import { trpcFacts } from "./trpc.ts";
import { loopbackClass } from "./loopback.ts";
import { feathersFacts, feathersUse } from "./feathers.ts";
import { freshRoutes } from "./fresh.ts";
import {
  argList,
  bindingOfRequire,
  FETCH_MODULES,
  FUNCTION_TYPES,
  isPathish,
  isRelative,
  isStringish,
  memberOf,
  methodOption,
  pairValue,
  parameterHoles,
  pluginOf,
  ROUTE_METHODS,
} from "./nodes.ts";
import type { MemberCall } from "./nodes.ts";
import {
  componentInstance,
  factoryDecl,
  routerFactory,
  routerReturn,
  serverCall,
} from "./routers.ts";
import {
  bunRoutes,
  collectPatternMethods,
  helperRoute,
  newExpr,
  patternHelper,
  serveRoute,
} from "./url_patterns.ts";

/** Elysia and Hono methods that return the app (chains go on). */
const APP_CHAIN: ReadonlySet<string> = new Set([
  "group",
  "use",
  "guard",
  "route",
  "onError",
  "onRequest",
  "onBeforeHandle",
  "onAfterHandle",
  "derive",
  "resolve",
  "state",
  "decorate",
  "model",
  "notFound",
]);

/** This library's node adapter, by package name or by path. */
const NODE_ADAPTER = /(^|\/)(portcullis\/node|adapters\/node\/mod\.[jt]s)$/;

const INTERESTING_TYPES: string[] = [
  "import_statement",
  "variable_declarator",
  "function_declaration",
  "enum_declaration",
  "call_expression",
  "new_expression",
  "class_declaration",
  "abstract_class_declaration",
  "export_statement",
  "assignment_expression",
  "augmented_assignment_expression",
  "update_expression",
  "return_statement",
  "arrow_function",
];

/** Collects the facts of one parsed file. */
export function collectFacts(
  root: Node,
  path: string,
  grammar: GrammarName,
): JsFacts {
  const facts: JsFacts = {
    path,
    imports: new Map(),
    consts: new Map(),
    exports: new Map(),
    routers: new Map(),
    instances: new Map(),
    routes: [],
    mounts: [],
    clients: [],
    returns: new Map(),
    helpers: new Map(),
    helperCalls: [],
    guards: new Map(),
  };
  const buckets = new Map<string, Node[]>();
  // One traversal inside WASM for the node types of interest, grouped by
  // type; later steps read the groups in order.
  for (const node of root.descendantsOfType(INTERESTING_TYPES)) {
    if (!node) continue;
    let list = buckets.get(node.type);
    if (!list) buckets.set(node.type, list = []);
    list.push(node);
  }
  const c = new Collector(facts, grammar, buckets);
  c.root = root;
  c.run();
  return facts;
}

/** What the readers of one file share: its facts so far and local names. */
export class Collector {
  facts: JsFacts;
  grammar: GrammarName;
  buckets: Map<string, Node[]>;
  /** The file's program node. */
  root: Node | undefined;
  /** `const req = new Request(...)` for `fetch(req)`. */
  requests = new Map<string, Node>();
  /** Array literals bound to names (config arrays of mounts). */
  arrays = new Map<string, Node>();
  /** Local names of functions declared in this file. */
  functions = new Set<string>();
  /** `const h = guard.requirePermission(...)(...)`: name -> value. */
  handlers = new Map<string, Node>();
  /**
   * Route helpers: functions building `new URLPattern({ pathname: p })`
   * from a parameter; name -> index of that parameter.
   */
  patternHelpers = new Map<string, number>();
  /** `const p = new URLPattern(...)` -> method from `if` tests. */
  patternMethods = new Map<string, string>();
  /** What the guard analysis of route handlers looks through. */
  guardScope: GuardScope = {
    values: new Map(),
    imports: new Map(),
    consts: new Map(),
    budget: { left: 0 },
    memo: new Map(),
  };

  constructor(
    facts: JsFacts,
    grammar: GrammarName,
    buckets: Map<string, Node[]>,
  ) {
    this.facts = facts;
    this.grammar = grammar;
    this.buckets = buckets;
  }

  nodes(type: string): Node[] {
    return this.buckets.get(type) ?? [];
  }

  run(): void {
    for (const node of this.nodes("import_statement")) importDecl(this, node);
    for (const node of this.nodes("variable_declarator")) {
      requireDecl(this, node);
    }
    for (const node of this.nodes("variable_declarator")) {
      constDecl(this, node);
      const value = node.childForFieldName("value");
      const name = node.childForFieldName("name");
      if (
        value && name?.type === "identifier" && unwrap(value).type === "array"
      ) {
        this.arrays.set(name.text, unwrap(value));
      }
    }
    for (const node of this.nodes("function_declaration")) {
      const name = node.childForFieldName("name")?.text;
      if (name) this.functions.add(name);
    }
    for (const node of this.nodes("enum_declaration")) enumDecl(this, node);
    for (const node of this.nodes("export_statement")) exportDecl(this, node);
    for (const node of this.nodes("assignment_expression")) {
      moduleExports(this, node);
    }
    this.guardScope = collectGuards(this);
    // Routers and instances, twice so `const api = app.basePath(..)` may
    // precede nothing it depends on in source order.
    for (let round = 0; round < 2; round++) {
      for (const node of this.nodes("variable_declarator")) {
        factoryDecl(this, node);
      }
    }
    for (const node of this.nodes("new_expression")) {
      componentInstance(this, node);
    }
    for (const type of ["return_statement", "arrow_function"]) {
      for (const node of this.nodes(type)) routerReturn(this, node);
    }
    collectPatternMethods(this);
    for (const node of this.nodes("new_expression")) patternHelper(this, node);
    for (const node of this.nodes("call_expression")) this.call(node);
    for (const node of this.nodes("new_expression")) newExpr(this, node);
    pathTables(this);
    for (const node of this.nodes("class_declaration")) {
      nestClass(this, node);
      if (this.importsFrom("@loopback/rest")) loopbackClass(this, node);
    }
    for (const node of this.nodes("abstract_class_declaration")) {
      nestClass(this, node);
    }
    nextRoutes(this);
    sailsFacts(this);
    remixRoutes(this);
    svelteRoutes(this);
    nitroRoutes(this);
    trpcFacts(this);
    feathersFacts(this);
    freshRoutes(this);
  }

  // ---- declarations -------------------------------------------------

  #reassigned: Set<string> | undefined;

  /** Names assigned anywhere in the file after their declaration. */
  reassigned(): Set<string> {
    if (this.#reassigned !== undefined) return this.#reassigned;
    const names = new Set<string>();
    for (
      const type of [
        "assignment_expression",
        "augmented_assignment_expression",
        "update_expression",
      ]
    ) {
      for (const node of this.nodes(type)) {
        const target = node.childForFieldName("left") ??
          node.childForFieldName("argument");
        if (target?.type === "identifier") names.add(target.text);
      }
    }
    this.#reassigned = names;
    return names;
  }

  setConst(name: string, val: Value): void {
    const consts = this.facts.consts;
    if (consts.has(name)) {
      const old = consts.get(name);
      if (!old || JSON.stringify(old) !== JSON.stringify(val)) {
        consts.set(name, null);
      }
      return;
    }
    consts.set(name, val);
  }

  /** The library an identifier is imported from, if it is an import. */
  lib(identifier: Node | null): ImportBinding | undefined {
    if (identifier?.type !== "identifier") return undefined;
    return this.facts.imports.get(identifier.text);
  }

  site(node: Node, ownerNode: Node = node): Site {
    const { line, col } = positionOf(node);
    return {
      line,
      col,
      owner: ownerOf(ownerNode, this.facts.path, this.grammar),
    };
  }

  /**
   * The router a receiver stands for: a declared router, a chained route
   * call on one, or the first parameter of a named function (a plugin).
   */
  /**
   * The id of the router a name refers to where it is used: a router
   * declared in an enclosing function (`router@<function start>`) before
   * one of the module.
   */
  routerId(identifier: Node): string | undefined {
    for (
      let fn = findAncestor(identifier, FUNCTION_TYPES);
      fn;
      fn = findAncestor(fn, FUNCTION_TYPES)
    ) {
      const id = `${identifier.text}@${fn.startIndex}`;
      if (this.facts.routers.has(id)) return id;
    }
    return this.facts.routers.has(identifier.text)
      ? identifier.text
      : undefined;
  }

  /** The id a router declared at `name` gets (see {@linkcode routerId}). */
  routerKey(name: Node): string {
    const fn = findAncestor(name, FUNCTION_TYPES);
    return fn ? `${name.text}@${fn.startIndex}` : name.text;
  }

  receiver(
    node: Node,
  ): { id: string; framework: string; chainPath?: Value } | undefined {
    const v = unwrap(node);
    if (v.type === "identifier") {
      // a parameter shadows a router of the module
      const plugin = pluginOf(v);
      if (plugin) return { id: `fn:${plugin}`, framework: "plugin" };
      const id = this.routerId(v);
      const router = id === undefined ? undefined : this.facts.routers.get(id);
      return router && id !== undefined
        ? { id, framework: router.framework }
        : undefined;
    }
    // `new Hono().route(...)`, `express().get(...)`: a router made inline
    const inline = routerFactory(this, v);
    if (inline) {
      const id = `@${v.startIndex}`;
      if (!this.facts.routers.has(id)) this.facts.routers.set(id, inline);
      return { id, framework: inline.framework };
    }
    if (v.type === "call_expression") {
      const callee = unwrap(v.childForFieldName("function")!);
      if (callee.type !== "member_expression") return undefined;
      const inner = this.receiver(callee.childForFieldName("object")!);
      if (!inner) return undefined;
      const method = callee.childForFieldName("property")?.text ?? "";
      const args = argList(v);
      if (method === "route" && args.length === 1 && isPathish(args[0]!)) {
        return { ...inner, chainPath: valueOf(args[0]!) };
      }
      if (method in ROUTE_METHODS) {
        const first = args[0];
        const path = first && args.length >= 2 && isPathish(first)
          ? valueOf(first)
          : inner.chainPath;
        return path ? { ...inner, chainPath: path } : inner;
      }
      // Elysia and Hono calls that return the app they are called on
      if (
        (inner.framework === "elysia" || inner.framework === "hono") &&
        APP_CHAIN.has(method)
      ) {
        return { id: inner.id, framework: inner.framework };
      }
      return undefined;
    }
    return undefined;
  }

  call(node: Node): void {
    const calleeRaw = node.childForFieldName("function");
    if (!calleeRaw) return;
    const callee = unwrap(calleeRaw);
    const args = argList(node);
    const member = memberOf(callee);
    if (member) {
      const { object, method } = member;
      const call: MemberCall = { node, object, method, args };
      feathersUse(this, call);
      if (serverCall(this, call)) return;
      if (adonisCall(this, call)) return;
      if (classRoute(this, call)) return;
      if (clientMemberCall(this, call)) return;
      if (testClientCall(this, call)) return;
      if (generatedSdkCall(this, call)) return;
      if (nestAppCall(this, call)) return;
      if (
        (object.text === "globalThis" || object.text === "window" ||
          object.text === "self") &&
        method === "fetch"
      ) {
        fetchCall(this, node, args);
        return;
      }
      if (object.text === "Bun" && method === "serve") {
        bunRoutes(this, args[0]);
        return;
      }
      if (object.text === "Deno" && method === "serve") {
        // Deno.serve(handler), Deno.serve(options, handler), { handler }
        const last = args[args.length - 1];
        const handler = last && unwrap(last).type === "object"
          ? pairValue(unwrap(last), "handler")
          : last;
        if (handler) serveRoute(this, node, handler, "deno");
        return;
      }
    } else if (callee.type === "identifier") {
      const name = callee.text;
      const binding = this.facts.imports.get(name);
      if (
        (this.functions.has(name) ||
          (binding && isRelative(binding.source))) &&
        args.some((a) => isStringish(unwrap(a)))
      ) {
        this.facts.helperCalls.push({
          ...this.site(node),
          callee: binding ? { import: binding } : { local: name },
          args: args.map((a) =>
            isStringish(unwrap(a)) ? valueOf(a) : undefined
          ),
          argMethods: args.map((a) =>
            unwrap(a).type === "object" ? methodOption(a) : null
          ),
        });
      }
      if (name === "fetch" && this.isFetch(binding)) {
        fetchCall(this, node, args);
        return;
      }
      if (binding?.source === "axios" && binding.name === "default") {
        axiosCall(this, node, args, undefined, "axios");
        return;
      }
      if (binding?.source === "ky" && binding.name === "default") {
        kyCall(this, node, args, undefined);
        return;
      }
      if (binding && REQUEST_MODULES.has(binding.source)) {
        requestCall(this, node, args);
        return;
      }
      if (
        binding?.name === "serve" && NODE_ADAPTER.test(binding.source) &&
        args[0]
      ) {
        serveRoute(this, node, args[0], "node");
        return;
      }
      const helper = this.patternHelpers.get(name);
      if (helper !== undefined && this.functions.has(name)) {
        helperRoute(this, node, args, helper);
        return;
      }
      const instance = this.facts.instances.get(name);
      if (instance) {
        if (instance.framework === "axios") {
          axiosCall(this, node, args, { local: name }, "axios");
        } else kyCall(this, node, args, { local: name });
        return;
      }
      if (binding && isRelative(binding.source)) {
        // api({ url, method }) through an imported instance is checked later
        if (generated(this, node, args, { import: binding })) return;
      }
      // plugin(app): a function given a router registers routes on it
      const first = args[0];
      if (
        first && this.receiver(first) && (this.functions.has(name) || binding)
      ) {
        const parent = this.receiver(first)!;
        this.facts.mounts.push({
          parent: parent.id,
          prefix: literal(""),
          child: binding ? { import: binding } : { local: `fn:${name}` },
          kind: "plugin",
          args: this.pluginArgs(node, args),
        });
        return;
      }
    } else if (callee.type === "call_expression") {
      // require("./routes")(app)
      const binding = bindingOfRequire(callee);
      const first = args[0];
      if (binding && first) {
        const parent = this.receiver(first);
        if (parent) {
          this.facts.mounts.push({
            parent: parent.id,
            prefix: literal(""),
            child: { import: binding },
            kind: "plugin",
            args: this.pluginArgs(node, args),
          });
          return;
        }
      }
    }
    generated(this, node, args, undefined);
  }

  /** The string-like arguments of a plugin function's call. */
  pluginArgs(node: Node, args: Node[]): Array<Value | undefined> {
    return args.map((a) =>
      isPathish(a) && unwrap(a).type !== "array"
        ? parameterHoles(node, valueOf(a))
        : undefined
    );
  }

  importsFrom(prefix: string): boolean {
    for (const binding of this.facts.imports.values()) {
      if (binding.source.startsWith(prefix)) return true;
    }
    return false;
  }

  isFetch(binding: ImportBinding | undefined): boolean {
    if (binding) return FETCH_MODULES.has(binding.source);
    // a local function named fetch is not the web fetch
    return !this.functions.has("fetch");
  }
}

// ---- small node helpers ---------------------------------------------
