// First pass of the JavaScript/TypeScript extractor: one parse per file,
// turned into plain facts (imports, constants, routers, route calls,
// mounts, client calls) that hold no tree nodes, so trees can be deleted
// before the cross-file pass composes prefixes and constants.
import type { GrammarName } from "../_syntax/parser.ts";
import { ownerOf } from "../_syntax/owner.ts";
import {
  findAncestor,
  namedChildren,
  type Node,
  positionOf,
  stringValue,
} from "../_syntax/tree.ts";
import { unwrap, valueOf } from "./values.ts";
import {
  concat,
  fromParts,
  isEmpty,
  literal,
  type Value,
} from "../_value/mod.ts";
import type {
  ChildRef,
  ImportBinding,
  InstanceDef,
  JsFacts,
  RouterDef,
  Site,
} from "./facts.ts";

/** The local name standing for a CommonJS module's `module.exports`. */
const CJS = "module.exports";

const HTTP_METHODS: ReadonlySet<string> = new Set([
  "GET",
  "POST",
  "PUT",
  "DELETE",
  "PATCH",
  "HEAD",
  "OPTIONS",
]);

const ROUTE_METHODS: Readonly<Record<string, string>> = {
  get: "GET",
  post: "POST",
  put: "PUT",
  delete: "DELETE",
  del: "DELETE",
  patch: "PATCH",
  head: "HEAD",
  options: "OPTIONS",
  all: "ANY",
};

const CLIENT_METHODS: Readonly<Record<string, string>> = {
  get: "GET",
  post: "POST",
  put: "PUT",
  delete: "DELETE",
  patch: "PATCH",
  head: "HEAD",
  options: "OPTIONS",
};

const NEST_DECORATORS: Readonly<Record<string, string>> = {
  Get: "GET",
  Post: "POST",
  Put: "PUT",
  Delete: "DELETE",
  Patch: "PATCH",
  Head: "HEAD",
  Options: "OPTIONS",
  All: "ANY",
};

const FETCH_MODULES: ReadonlySet<string> = new Set([
  "node-fetch",
  "cross-fetch",
  "undici",
  "isomorphic-fetch",
]);

const KOA_ROUTER_MODULES: ReadonlySet<string> = new Set([
  "@koa/router",
  "koa-router",
]);

const FUNCTION_TYPES: ReadonlySet<string> = new Set([
  "function_declaration",
  "generator_function_declaration",
  "function_expression",
  "function",
  "arrow_function",
  "generator_function",
  "method_definition",
]);

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
    helpers: new Map(),
    helperCalls: [],
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
  c.run();
  return facts;
}

class Collector {
  #f: JsFacts;
  #grammar: GrammarName;
  #b: Map<string, Node[]>;
  /** `const req = new Request(...)` for `fetch(req)`. */
  #requests = new Map<string, Node>();
  /** Local names of functions declared in this file. */
  #functions = new Set<string>();
  /** `const h = guard.requirePermission(...)(...)`: name -> value. */
  #handlers = new Map<string, Node>();
  /**
   * Route helpers: functions building `new URLPattern({ pathname: p })`
   * from a parameter; name -> index of that parameter.
   */
  #patternHelpers = new Map<string, number>();
  /** `const p = new URLPattern(...)` -> method from `if` tests. */
  #patternMethods = new Map<string, string>();

  constructor(
    facts: JsFacts,
    grammar: GrammarName,
    buckets: Map<string, Node[]>,
  ) {
    this.#f = facts;
    this.#grammar = grammar;
    this.#b = buckets;
  }

  #nodes(type: string): Node[] {
    return this.#b.get(type) ?? [];
  }

  run(): void {
    for (const node of this.#nodes("import_statement")) this.#import(node);
    for (const node of this.#nodes("variable_declarator")) {
      this.#requireDecl(node);
    }
    for (const node of this.#nodes("variable_declarator")) {
      this.#constDecl(node);
    }
    for (const node of this.#nodes("function_declaration")) {
      const name = node.childForFieldName("name")?.text;
      if (name) this.#functions.add(name);
    }
    for (const node of this.#nodes("enum_declaration")) this.#enumDecl(node);
    for (const node of this.#nodes("export_statement")) this.#exportDecl(node);
    for (const node of this.#nodes("assignment_expression")) {
      this.#moduleExports(node);
    }
    // Routers and instances, twice so `const api = app.basePath(..)` may
    // precede nothing it depends on in source order.
    for (let round = 0; round < 2; round++) {
      for (const node of this.#nodes("variable_declarator")) {
        this.#factoryDecl(node);
      }
    }
    this.#collectPatternMethods();
    for (const node of this.#nodes("new_expression")) this.#patternHelper(node);
    for (const node of this.#nodes("call_expression")) this.#call(node);
    for (const node of this.#nodes("new_expression")) this.#newExpr(node);
    for (const node of this.#nodes("class_declaration")) this.#nestClass(node);
    for (const node of this.#nodes("abstract_class_declaration")) {
      this.#nestClass(node);
    }
    this.#nextRoutes();
  }

  // ---- declarations -------------------------------------------------

  #import(node: Node): void {
    const source = node.childForFieldName("source");
    const from = source ? stringValue(source) : undefined;
    if (from === undefined) return;
    for (const clause of namedChildren(node)) {
      if (clause.type !== "import_clause") continue;
      for (const part of namedChildren(clause)) {
        if (part.type === "identifier") {
          this.#f.imports.set(part.text, { source: from, name: "default" });
        } else if (part.type === "namespace_import") {
          const id = namedChildren(part).find((n) => n.type === "identifier");
          if (id) this.#f.imports.set(id.text, { source: from, name: "*" });
        } else if (part.type === "named_imports") {
          for (const spec of namedChildren(part)) {
            if (spec.type !== "import_specifier") continue;
            const name = spec.childForFieldName("name")?.text;
            const alias = spec.childForFieldName("alias")?.text ?? name;
            if (name && alias) {
              this.#f.imports.set(alias, { source: from, name });
            }
          }
        }
      }
    }
  }

  /** `const x = require("m")`, `const { a, b: c } = require("m")`. */
  #requireDecl(node: Node): void {
    const value = node.childForFieldName("value");
    const name = node.childForFieldName("name");
    if (!value || !name) return;
    const from = requireSource(unwrap(value));
    if (from === undefined) {
      // const { Router } = require("express").Router is rare; ignore
      return;
    }
    if (name.type === "identifier") {
      this.#f.imports.set(name.text, { source: from, name: "default" });
    } else if (name.type === "object_pattern") {
      for (const part of namedChildren(name)) {
        if (part.type === "shorthand_property_identifier_pattern") {
          this.#f.imports.set(part.text, { source: from, name: part.text });
        } else if (part.type === "pair_pattern") {
          const key = part.childForFieldName("key")?.text;
          const local = part.childForFieldName("value");
          if (key && local?.type === "identifier") {
            this.#f.imports.set(local.text, { source: from, name: key });
          }
        }
      }
    }
  }

  #setConst(name: string, val: Value): void {
    const consts = this.#f.consts;
    if (consts.has(name)) {
      const old = consts.get(name);
      if (!old || JSON.stringify(old) !== JSON.stringify(val)) {
        consts.set(name, null);
      }
      return;
    }
    consts.set(name, val);
  }

  #constDecl(node: Node): void {
    const name = node.childForFieldName("name");
    const value = node.childForFieldName("value");
    if (name?.type !== "identifier" || !value) return;
    const v = unwrap(value);
    if (v.type === "new_expression" && constructorName(v) === "Request") {
      this.#requests.set(name.text, v);
    }
    if (v.type === "call_expression") this.#handlers.set(name.text, v);
    if (
      v.type === "arrow_function" || v.type === "function_expression" ||
      v.type === "function"
    ) {
      this.#functions.add(name.text);
    }
    const declaration = node.parent;
    const isConst = declaration?.type === "lexical_declaration" &&
      declaration.child(0)?.text === "const";
    if (!isConst) return;
    if (isStringish(v)) {
      this.#setConst(name.text, valueOf(v));
    } else if (v.type === "object") {
      for (const pair of namedChildren(v)) {
        if (pair.type !== "pair") continue;
        const key = propertyKey(pair.childForFieldName("key"));
        const pv = pair.childForFieldName("value");
        if (key && pv && isStringish(unwrap(pv))) {
          this.#setConst(`${name.text}.${key}`, valueOf(pv));
        }
      }
    }
  }

  #enumDecl(node: Node): void {
    const name = node.childForFieldName("name")?.text;
    const body = node.childForFieldName("body");
    if (!name || !body) return;
    for (const member of namedChildren(body)) {
      if (member.type !== "enum_assignment") continue;
      const key = propertyKey(member.childForFieldName("name"));
      const value = member.childForFieldName("value");
      if (key && value && isStringish(unwrap(value))) {
        this.#setConst(`${name}.${key}`, valueOf(value));
      }
    }
  }

  #exportDecl(node: Node): void {
    const exports = this.#f.exports;
    const declaration = node.childForFieldName("declaration");
    const value = node.childForFieldName("value");
    const isDefault = node.children.some((c) => c?.type === "default");
    if (declaration) {
      if (
        declaration.type === "function_declaration" ||
        declaration.type === "generator_function_declaration"
      ) {
        const name = declaration.childForFieldName("name")?.text;
        if (name) {
          this.#functions.add(name);
          exports.set(isDefault ? "default" : name, `fn:${name}`);
        }
      } else if (
        declaration.type === "lexical_declaration" ||
        declaration.type === "variable_declaration"
      ) {
        for (const d of namedChildren(declaration)) {
          const name = d.childForFieldName("name");
          if (d.type === "variable_declarator" && name?.type === "identifier") {
            exports.set(name.text, name.text);
          }
        }
      } else if (declaration.type === "class_declaration") {
        const name = declaration.childForFieldName("name")?.text;
        if (name) exports.set(isDefault ? "default" : name, name);
      }
    } else if (value) {
      const local = exportedLocal(value);
      if (local) exports.set("default", local);
    } else {
      for (const clause of namedChildren(node)) {
        if (clause.type !== "export_clause") continue;
        for (const spec of namedChildren(clause)) {
          const name = spec.childForFieldName("name")?.text;
          const alias = spec.childForFieldName("alias")?.text ?? name;
          if (name && alias) exports.set(alias, name);
        }
      }
    }
  }

  /** `module.exports = router`, `module.exports = function (app) {...}`. */
  #moduleExports(node: Node): void {
    const left = node.childForFieldName("left");
    const right = node.childForFieldName("right");
    if (!left || !right) return;
    const exports = this.#f.exports;
    if (left.text === "module.exports") {
      const local = exportedLocal(right);
      if (local) exports.set("default", local);
      const object = unwrap(right);
      if (object.type !== "object") return;
      // module.exports = { PREFIX: "/api", USERS }
      exports.set("default", CJS);
      for (const part of namedChildren(object)) {
        const key = memberKey(part);
        const value = part.type === "pair"
          ? part.childForFieldName("value")
          : part;
        if (!key || !value) continue;
        const v = unwrap(value);
        if (isStringish(v) || v.type === "shorthand_property_identifier") {
          this.#setConst(`${CJS}.${key}`, valueOf(v));
          exports.set(key, `${CJS}.${key}`);
        } else if (v.type === "identifier") exports.set(key, v.text);
      }
    } else if (/^(module\.)?exports\.[A-Za-z_$][\w$]*$/.test(left.text)) {
      const name = left.text.slice(left.text.lastIndexOf(".") + 1);
      const local = exportedLocal(right);
      if (local) exports.set(name, local);
      else if (isStringish(unwrap(right))) {
        // exports.PREFIX = "/api"
        this.#setConst(`${CJS}.${name}`, valueOf(right));
        exports.set(name, `${CJS}.${name}`);
        if (!exports.has("default")) exports.set("default", CJS);
      }
    }
  }

  /** Routers (`express()`, `new Hono()`...) and client instances. */
  #factoryDecl(node: Node): void {
    const name = node.childForFieldName("name");
    const value = node.childForFieldName("value");
    if (name?.type !== "identifier" || !value) return;
    let v = unwrap(value);
    if (v.type === "await_expression" && v.namedChild(0)) {
      v = unwrap(v.namedChild(0)!);
    }
    const router = this.#routerFactory(v);
    if (router) {
      this.#f.routers.set(name.text, router);
      return;
    }
    const instance = this.#instanceFactory(v);
    if (instance) this.#f.instances.set(name.text, instance);
  }

  /** The library an identifier is imported from, if it is an import. */
  #lib(identifier: Node | null): ImportBinding | undefined {
    if (identifier?.type !== "identifier") return undefined;
    return this.#f.imports.get(identifier.text);
  }

  #routerFactory(v: Node): RouterDef | undefined {
    if (v.type === "call_expression") {
      const callee = unwrap(v.childForFieldName("function")!);
      const args = argList(v);
      // express(), fastify(), require("express")()
      const direct = callee.type === "identifier"
        ? this.#lib(callee)
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
          ? this.#lib(object)
          : object.type === "call_expression"
          ? bindingOfRequire(object)
          : undefined;
        if (property === "Router" && lib?.source === "express") {
          return { framework: "express", prefix: literal("") };
        }
        if (property === "basePath" && args[0]) {
          const base = this.#routerOf(object);
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
      const lib = this.#lib(ctor);
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
    }
    return undefined;
  }

  /** A router a receiver expression stands for, by local definition. */
  #routerOf(node: Node): RouterDef | undefined {
    const v = unwrap(node);
    if (v.type === "identifier") return this.#f.routers.get(v.text);
    return this.#routerFactory(v);
  }

  #instanceFactory(v: Node): InstanceDef | undefined {
    if (v.type !== "call_expression") return undefined;
    const callee = unwrap(v.childForFieldName("function")!);
    if (callee.type !== "member_expression") return undefined;
    const object = unwrap(callee.childForFieldName("object")!);
    const property = callee.childForFieldName("property")?.text;
    const args = argList(v);
    const lib = this.#lib(object);
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
      const parent = this.#f.instances.get(object.text);
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

  #site(node: Node, ownerNode: Node = node): Site {
    const { line, col } = positionOf(node);
    return {
      line,
      col,
      owner: ownerOf(ownerNode, this.#f.path, this.#grammar),
    };
  }

  /**
   * The router a receiver stands for: a declared router, a chained route
   * call on one, or the first parameter of a named function (a plugin).
   */
  #receiver(
    node: Node,
  ): { id: string; framework: string; chainPath?: Value } | undefined {
    const v = unwrap(node);
    if (v.type === "identifier") {
      const router = this.#f.routers.get(v.text);
      if (router) return { id: v.text, framework: router.framework };
      const plugin = pluginOf(v);
      if (plugin) return { id: `fn:${plugin}`, framework: "plugin" };
      return undefined;
    }
    if (v.type === "call_expression") {
      const callee = unwrap(v.childForFieldName("function")!);
      if (callee.type !== "member_expression") return undefined;
      const inner = this.#receiver(callee.childForFieldName("object")!);
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
      return undefined;
    }
    return undefined;
  }

  #call(node: Node): void {
    const calleeRaw = node.childForFieldName("function");
    if (!calleeRaw) return;
    const callee = unwrap(calleeRaw);
    const args = argList(node);
    if (callee.type === "member_expression") {
      const object = callee.childForFieldName("object")!;
      const method = callee.childForFieldName("property")?.text ?? "";
      if (this.#serverCall(node, object, method, args)) return;
      if (this.#clientMemberCall(node, object, method, args)) return;
      if (
        method === "setGlobalPrefix" && args[0] && this.#importsFrom("@nestjs/")
      ) {
        this.#f.globalPrefix = valueOf(args[0]);
        return;
      }
      if (
        (object.text === "globalThis" || object.text === "window" ||
          object.text === "self") &&
        method === "fetch"
      ) {
        this.#fetch(node, args);
        return;
      }
      if (object.text === "Bun" && method === "serve") {
        this.#bunRoutes(args[0]);
        return;
      }
    } else if (callee.type === "identifier") {
      const name = callee.text;
      const binding = this.#f.imports.get(name);
      if (
        (this.#functions.has(name) ||
          (binding && isRelative(binding.source))) &&
        args.some((a) => isStringish(unwrap(a)))
      ) {
        this.#f.helperCalls.push({
          ...this.#site(node),
          callee: binding ? { import: binding } : { local: name },
          args: args.map((a) =>
            isStringish(unwrap(a)) ? valueOf(a) : undefined
          ),
          argMethods: args.map((a) =>
            unwrap(a).type === "object" ? methodOption(a) : null
          ),
        });
      }
      if (name === "fetch" && this.#isFetch(binding)) {
        this.#fetch(node, args);
        return;
      }
      if (binding?.source === "axios" && binding.name === "default") {
        this.#axiosCall(node, args, undefined, "axios");
        return;
      }
      if (binding?.source === "ky" && binding.name === "default") {
        this.#kyCall(node, args, undefined);
        return;
      }
      const helper = this.#patternHelpers.get(name);
      if (helper !== undefined && this.#functions.has(name)) {
        this.#helperRoute(node, args, helper);
        return;
      }
      const instance = this.#f.instances.get(name);
      if (instance) {
        if (instance.framework === "axios") {
          this.#axiosCall(node, args, { local: name }, "axios");
        } else this.#kyCall(node, args, { local: name });
        return;
      }
      if (binding && isRelative(binding.source)) {
        // api({ url, method }) through an imported instance is checked later
        if (this.#generated(node, args, { import: binding })) return;
      }
      // plugin(app): a function given a router registers routes on it
      const first = args[0];
      if (
        first && this.#receiver(first) && (this.#functions.has(name) || binding)
      ) {
        const parent = this.#receiver(first)!;
        this.#f.mounts.push({
          parent: parent.id,
          prefix: literal(""),
          child: binding ? { import: binding } : { local: `fn:${name}` },
          kind: "plugin",
        });
        return;
      }
    } else if (callee.type === "call_expression") {
      // require("./routes")(app)
      const binding = bindingOfRequire(callee);
      const first = args[0];
      if (binding && first) {
        const parent = this.#receiver(first);
        if (parent) {
          this.#f.mounts.push({
            parent: parent.id,
            prefix: literal(""),
            child: { import: binding },
            kind: "plugin",
          });
          return;
        }
      }
    }
    this.#generated(node, args, undefined);
  }

  #importsFrom(prefix: string): boolean {
    for (const binding of this.#f.imports.values()) {
      if (binding.source.startsWith(prefix)) return true;
    }
    return false;
  }

  #isFetch(binding: ImportBinding | undefined): boolean {
    if (binding) return FETCH_MODULES.has(binding.source);
    // a local function named fetch is not the web fetch
    return !this.#functions.has("fetch");
  }

  /** Route registrations and mounts on router receivers. */
  #serverCall(node: Node, object: Node, method: string, args: Node[]): boolean {
    const receiver = this.#receiver(object);
    if (!receiver) return false;
    const { id, framework } = receiver;
    const first = args[0];
    if (method in ROUTE_METHODS && (framework !== "plugin" || first)) {
      if (first && args.length >= 2 && isPathish(first)) {
        for (const path of pathValues(first)) {
          this.#route(
            node,
            id,
            [ROUTE_METHODS[method]!],
            path,
            framework,
            args,
          );
        }
      } else if (receiver.chainPath && first) {
        this.#route(
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
          this.#route(node, id, methods, path, framework, args);
        }
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
        this.#route(node, id, methods, valueOf(url), framework, [options]);
      }
      return true;
    }
    if (method === "route" && args.length === 2 && isPathish(args[0]!)) {
      // hono app.route("/prefix", sub)
      const child = this.#childRef(args[1]!);
      if (child) {
        this.#f.mounts.push({
          parent: id,
          prefix: valueOf(args[0]!),
          child,
          kind: "router",
        });
      }
      return true;
    }
    if (method === "use") {
      let prefix: Value = literal("");
      let rest = args;
      if (first && isPathish(first) && !this.#childRef(first)) {
        prefix = valueOf(first);
        rest = args.slice(1);
      }
      for (const arg of rest) {
        const child = this.#childRef(arg);
        if (child) {
          this.#f.mounts.push({ parent: id, prefix, child, kind: "router" });
        }
      }
      return true;
    }
    if (method === "register" && first) {
      // fastify app.register(plugin, { prefix })
      const child = this.#pluginRef(first);
      if (child) {
        this.#f.mounts.push({
          parent: id,
          prefix: optionValue(args[1], "prefix"),
          child,
          kind: "plugin",
        });
      }
      return true;
    }
    if (method === "prefix" && first && framework === "koa") {
      const router = this.#f.routers.get(id);
      if (router) router.prefix = valueOf(first);
      return true;
    }
    return framework !== "plugin";
  }

  #route(
    node: Node,
    router: string,
    methods: string[],
    path: Value,
    framework: string,
    args: Node[],
  ): void {
    this.#f.routes.push({
      ...this.#site(node),
      router,
      methods,
      path,
      framework,
      extra: permissionOf(args, this.#handlers),
    });
  }

  /** A mounted router: `router`, `router.routes()`, `require("./r")`, an import. */
  #childRef(arg: Node): ChildRef | undefined {
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
      if (property !== "routes" && property !== "middleware") return undefined;
      v = unwrap(callee.childForFieldName("object")!);
    }
    if (v.type !== "identifier") return undefined;
    if (this.#f.routers.has(v.text)) return { local: v.text };
    const binding = this.#f.imports.get(v.text);
    if (binding && isRelative(binding.source)) return { import: binding };
    return undefined;
  }

  /** A fastify plugin: a local function, an import, `fp(fn)`. */
  #pluginRef(arg: Node): ChildRef | undefined {
    let v = unwrap(arg);
    if (v.type === "call_expression") {
      const callee = unwrap(v.childForFieldName("function")!);
      const lib = this.#lib(callee);
      const required = bindingOfRequire(v);
      if (required) {
        return isRelative(required.source) ? { import: required } : undefined;
      }
      if (lib?.source !== "fastify-plugin") return undefined;
      const inner = argList(v)[0];
      if (!inner) return undefined;
      v = unwrap(inner);
    }
    if (v.type !== "identifier") return undefined;
    const binding = this.#f.imports.get(v.text);
    if (binding) {
      return isRelative(binding.source) ? { import: binding } : undefined;
    }
    return { local: `fn:${v.text}` };
  }

  #clientMemberCall(
    node: Node,
    object: Node,
    method: string,
    args: Node[],
  ): boolean {
    const v = unwrap(object);
    if (v.type !== "identifier") return false;
    const binding = this.#f.imports.get(v.text);
    const instance = this.#f.instances.get(v.text);
    let framework: string | undefined;
    let via: ChildRef | undefined;
    if (binding?.source === "axios") {
      framework = "axios";
    } else if (binding?.source === "ky") framework = "ky";
    else if (instance) {
      framework = instance.framework;
      via = { local: v.text };
    } else if (binding && isRelative(binding.source)) {
      framework = "instance";
      via = { import: binding };
    }
    if (!framework) return false;
    if (method === "request") {
      const options = args[0];
      if (options && unwrap(options).type === "object") {
        this.#axiosCall(node, args, via, framework);
      }
      return true;
    }
    const httpMethod = CLIENT_METHODS[method];
    const url = args[0];
    if (!httpMethod || !url) return framework !== "instance";
    this.#client(node, httpMethod, valueOf(url), framework, via);
    return true;
  }

  #client(
    node: Node,
    method: string | undefined,
    url: Value,
    framework: string,
    via: ChildRef | undefined,
    init?: Node,
  ): void {
    // A URL built from a parameter of the enclosing function: the function
    // is a client helper, its callers are the ports.
    const parts = url.parts;
    for (let i = 0; i < parts.length; i++) {
      const piece = parts[i]!;
      if (typeof piece === "string" || piece.hole !== "constant") continue;
      const param = parameterOf(node, piece.text);
      if (!param) continue;
      // `/items/${id}`, `?q=${q}`, `http://${host}/x`: a path segment, a
      // query value or a host, not the path itself
      const before = parts.slice(0, i).filter((p) => typeof p === "string")
        .join("");
      if (
        before.endsWith("/") || /[?#=&]/.test(before) ||
        /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/]*$/i.test(before)
      ) continue;
      if (!param.name) return;
      const initParam = init && unwrap(init).type === "identifier"
        ? parameterOf(node, unwrap(init).text)
        : undefined;
      this.#f.helpers.set(param.name, {
        param: param.index,
        before: fromParts(parts.slice(0, i)),
        after: fromParts(parts.slice(i + 1)),
        method: initParam ? undefined : method,
        ...(initParam ? { methodParam: initParam.index } : {}),
        framework,
        ...(via ? { via } : {}),
      });
      return;
    }
    this.#f.clients.push({
      ...this.#site(node),
      method,
      url,
      framework,
      ...(via ? { via } : {}),
    });
  }

  #fetch(node: Node, args: Node[]): void {
    const first = args[0];
    if (!first) return;
    let input = unwrap(first);
    let init = args[1];
    if (input.type === "identifier" && this.#requests.has(input.text)) {
      input = this.#requests.get(input.text)!;
    }
    if (input.type === "new_expression") {
      const name = constructorName(input);
      const inner = argList(input);
      if (name === "Request") {
        if (!inner[0]) return;
        init ??= inner[1];
        input = unwrap(inner[0]);
        if (
          input.type === "new_expression" && constructorName(input) === "URL"
        ) {
          input = unwrap(argList(input)[0] ?? input);
        }
      } else if (name === "URL") {
        if (!inner[0]) return;
        input = unwrap(inner[0]);
      } else return;
    }
    const method = init ? methodOption(init) : "GET";
    this.#client(node, method, valueOf(input), "fetch", undefined, init);
  }

  #axiosCall(
    node: Node,
    args: Node[],
    via: ChildRef | undefined,
    framework: string,
  ): void {
    const first = args[0];
    if (!first) return;
    const v = unwrap(first);
    if (v.type === "object") {
      const url = pairValue(v, "url");
      if (!url) return;
      this.#client(node, methodOption(v), valueOf(url), framework, via);
      return;
    }
    const method = args[1] ? methodOption(args[1]) : "GET";
    this.#client(node, method, valueOf(v), framework, via);
  }

  #kyCall(node: Node, args: Node[], via: ChildRef | undefined): void {
    const first = args[0];
    if (!first) return;
    const method = args[1] ? methodOption(args[1]) : "GET";
    this.#client(node, method, valueOf(first), "ky", via);
  }

  /** Generated clients: `request({ url: "/x", method: "GET" })`. */
  #generated(node: Node, args: Node[], via: ChildRef | undefined): boolean {
    for (const arg of args.slice(0, 2)) {
      const v = unwrap(arg);
      if (v.type !== "object") continue;
      const url = pairValue(v, "url");
      const methodNode = pairValue(v, "method");
      if (!url || !methodNode || pairValue(v, "handler")) continue;
      const method = stringValue(unwrap(methodNode))?.toUpperCase();
      if (!method || !HTTP_METHODS.has(method)) continue;
      const val = valueOf(url);
      const head = val.parts[0];
      if (typeof head !== "string" || !/^(\/|https?:\/\/)/.test(head)) continue;
      this.#client(node, method, val, "generated", via);
      const last = this.#f.clients[this.#f.clients.length - 1];
      if (via && last) last.viaOptional = true;
      return true;
    }
    return false;
  }

  // ---- URLPattern and Bun.serve routes --------------------------------

  #collectPatternMethods(): void {
    // `req.method === "GET" && pattern.test(req.url)`
    for (const node of this.#nodes("call_expression")) {
      const callee = unwrap(node.childForFieldName("function")!);
      if (callee.type !== "member_expression") continue;
      const property = callee.childForFieldName("property")?.text;
      const object = unwrap(callee.childForFieldName("object")!);
      if (
        (property !== "test" && property !== "exec") ||
        object.type !== "identifier"
      ) continue;
      let up = node.parent;
      while (up && up.type === "parenthesized_expression") up = up.parent;
      if (
        up?.type !== "binary_expression" ||
        up.childForFieldName("operator")?.text !== "&&"
      ) {
        continue;
      }
      const method = methodTest(up);
      if (method) this.#patternMethods.set(object.text, method);
    }
  }

  #newExpr(node: Node): void {
    if (constructorName(node) !== "URLPattern") return;
    const binding = this.#f.imports.get("URLPattern");
    if (binding && binding.source !== "urlpattern-polyfill") return;
    const first = argList(node)[0];
    if (!first) return;
    const v = unwrap(first);
    let path: Value | undefined;
    if (v.type === "object") {
      const pathname = pairValue(v, "pathname");
      if (pathname) path = valueOf(pathname);
    } else if (isStringish(v)) {
      path = valueOf(v);
    }
    if (!path) return;
    if (this.#helperParam(node, path) !== undefined) return;
    const head = path.parts[0];
    if (typeof head === "string" && !head.startsWith("/")) return;
    // { method: "GET", pattern: new URLPattern(...), handler }
    let method: string | undefined;
    let holder: Node | null = node.parent;
    if (holder?.type === "pair") holder = holder.parent;
    let extra: Record<string, string> = {};
    if (holder?.type === "object") {
      const m = pairValue(holder, "method");
      const mv = m && stringValue(unwrap(m))?.toUpperCase();
      if (mv && (HTTP_METHODS.has(mv) || mv === "ANY")) method = mv;
      extra = permissionOf(
        namedChildren(holder).map((p) => p.childForFieldName("value")).filter((
          n,
        ): n is Node => !!n),
        this.#handlers,
      );
    }
    if (!method && node.parent?.type === "variable_declarator") {
      const name = node.parent.childForFieldName("name")?.text;
      if (name) method = this.#patternMethods.get(name);
    }
    this.#f.routes.push({
      ...this.#site(node),
      methods: [method ?? "ANY"],
      path,
      framework: "urlpattern",
      ...(method ? {} : { weakMethod: true }),
      extra,
    });
  }

  /** The URLPattern's pathname as one parameter of the enclosing function. */
  #helperParam(
    node: Node,
    path: Value,
  ): { name: string; index: number } | undefined {
    const only = path.parts.length === 1 ? path.parts[0] : undefined;
    if (!only || typeof only === "string" || only.hole !== "constant") {
      return undefined;
    }
    const fn = findAncestor(node, FUNCTION_TYPES);
    if (!fn) return undefined;
    const name = fn.childForFieldName("name")?.text ??
      (fn.parent?.type === "variable_declarator"
        ? fn.parent.childForFieldName("name")?.text
        : undefined);
    const params = fn.childForFieldName("parameters");
    if (!name || !params) return undefined;
    const list = namedChildren(params);
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!;
      const id = p.type === "identifier" ? p : p.childForFieldName("pattern");
      if (id?.text === only.text) return { name, index: i };
    }
    return undefined;
  }

  #patternHelper(node: Node): void {
    if (constructorName(node) !== "URLPattern") return;
    const first = argList(node)[0];
    if (!first) return;
    const v = unwrap(first);
    let pathname: Node | undefined;
    if (v.type === "object") pathname = pairValue(v, "pathname");
    else if (v.type === "identifier") pathname = v;
    if (!pathname) return;
    const helper = this.#helperParam(node, valueOf(pathname));
    if (helper) this.#patternHelpers.set(helper.name, helper.index);
  }

  /** `route("/posts", { GET: listPosts, POST: createPost })`. */
  #helperRoute(node: Node, args: Node[], index: number): void {
    const pathArg = args[index];
    if (!pathArg || !isPathish(pathArg)) return;
    const path = valueOf(pathArg);
    const head = path.parts[0];
    if (typeof head === "string" && !head.startsWith("/")) return;
    let found = false;
    for (const arg of args) {
      const o = unwrap(arg);
      if (o.type !== "object") continue;
      for (const pair of namedChildren(o)) {
        const key = memberKey(pair);
        const method = key?.toUpperCase();
        if (!method || key !== method || !HTTP_METHODS.has(method)) continue;
        const value = pair.type === "pair"
          ? pair.childForFieldName("value") ?? pair
          : pair;
        found = true;
        this.#f.routes.push({
          ...this.#site(node),
          methods: [method],
          path,
          framework: "urlpattern",
          extra: permissionOf([value], this.#handlers),
        });
      }
    }
    if (!found) {
      this.#f.routes.push({
        ...this.#site(node),
        methods: ["ANY"],
        path,
        framework: "urlpattern",
        weakMethod: true,
        extra: {},
      });
    }
  }

  #bunRoutes(options: Node | undefined): void {
    if (!options) return;
    const o = unwrap(options);
    if (o.type !== "object") return;
    const routes = pairValue(o, "routes");
    if (!routes || unwrap(routes).type !== "object") return;
    for (const pair of namedChildren(unwrap(routes))) {
      if (pair.type !== "pair") continue;
      const key = pair.childForFieldName("key");
      const path = key ? stringValue(key) : undefined;
      const value = pair.childForFieldName("value");
      if (path === undefined || !path.startsWith("/") || !value) continue;
      const v = unwrap(value);
      if (v.type === "object") {
        for (const inner of namedChildren(v)) {
          const name = inner.type === "pair"
            ? propertyKey(inner.childForFieldName("key"))
            : inner.type === "method_definition"
            ? inner.childForFieldName("name")?.text
            : undefined;
          const method = name?.toUpperCase();
          if (!method || !HTTP_METHODS.has(method)) continue;
          this.#f.routes.push({
            ...this.#site(inner),
            methods: [method],
            path: literal(path),
            framework: "bun",
            extra: permissionOf(
              [inner.childForFieldName("value") ?? inner],
              this.#handlers,
            ),
          });
        }
      } else {
        this.#f.routes.push({
          ...this.#site(pair),
          methods: ["ANY"],
          path: literal(path),
          framework: "bun",
          extra: permissionOf([v], this.#handlers),
        });
      }
    }
  }

  // ---- NestJS -------------------------------------------------------

  #nestName(decorator: Node): { name: string; args: Node[] } | undefined {
    const expr = decorator.namedChild(0);
    if (expr?.type !== "call_expression") return undefined;
    const callee = expr.childForFieldName("function");
    if (callee?.type !== "identifier") return undefined;
    const binding = this.#f.imports.get(callee.text);
    if (binding?.source !== "@nestjs/common") return undefined;
    return { name: binding.name, args: argList(expr) };
  }

  #nestClass(node: Node): void {
    const decorators = namedChildren(node).filter((n) =>
      n.type === "decorator"
    );
    if (node.parent?.type === "export_statement") {
      decorators.push(
        ...namedChildren(node.parent).filter((n) => n.type === "decorator"),
      );
    }
    let prefixes: Value[] | undefined;
    for (const decorator of decorators) {
      const d = this.#nestName(decorator);
      if (d?.name !== "Controller") continue;
      const arg = d.args[0];
      if (!arg) prefixes = [literal("")];
      else if (unwrap(arg).type === "object") {
        const path = pairValue(unwrap(arg), "path");
        prefixes = path ? pathValues(path) : [literal("")];
      } else prefixes = pathValues(arg);
    }
    if (!prefixes) return;
    const body = node.childForFieldName("body");
    if (!body) return;
    let pending: Node[] = [];
    for (const member of namedChildren(body)) {
      if (member.type === "decorator") {
        pending.push(member);
        continue;
      }
      if (member.type === "method_definition") {
        for (const decorator of pending) {
          const d = this.#nestName(decorator);
          const method = d && NEST_DECORATORS[d.name];
          if (!d || !method) continue;
          const paths = d.args[0] ? pathValues(d.args[0]) : [literal("")];
          for (const prefix of prefixes) {
            for (const path of paths) {
              this.#f.routes.push({
                ...this.#site(decorator, member),
                methods: [method],
                path,
                prefix,
                framework: "nestjs",
                nest: true,
                extra: {},
              });
            }
          }
        }
      }
      pending = [];
    }
  }

  // ---- Next.js ------------------------------------------------------

  #nextRoutes(): void {
    const path = this.#f.path;
    const pages = /(?:^|\/)pages\/(api\/.*?)\.(?:[cm]?[jt]sx?)$/.exec(path);
    const app = /(?:^|\/)app\/((?:.*\/)?)route\.(?:[cm]?[jt]sx?)$/.exec(path);
    if (!pages && !app) return;
    const segments = (pages ? pages[1]! : app![1]!.replace(/\/$/, "")).split(
      "/",
    )
      .filter((s) => s !== "");
    const out: string[] = [];
    for (const segment of segments) {
      if (segment.startsWith("_") || segment.startsWith("@")) return;
      if (/^\(.*\)$/.test(segment)) continue; // route group
      if (/^\[.*\]$/.test(segment)) {
        // [[...slug]] is optional: the route also answers without it
        out.push("{}");
      } else out.push(segment);
    }
    if (pages && out[out.length - 1] === "index") out.pop();
    const route = "/" + out.join("/");
    for (const node of this.#nodes("export_statement")) {
      if (node.parent?.type !== "program") continue;
      const declaration = node.childForFieldName("declaration");
      const isDefault = node.children.some((c) => c?.type === "default");
      if (pages) {
        if (!isDefault) continue;
        const owner = declaration ?? node.childForFieldName("value") ?? node;
        this.#f.routes.push({
          ...this.#site(node, owner),
          methods: ["ANY"],
          path: literal(route),
          framework: "nextjs",
          composed: true,
          extra: {},
        });
        continue;
      }
      const names: Array<[string, Node]> = [];
      if (declaration?.type === "function_declaration") {
        const name = declaration.childForFieldName("name")?.text;
        if (name) names.push([name, declaration]);
      } else if (declaration?.type === "lexical_declaration") {
        for (const d of namedChildren(declaration)) {
          const name = d.childForFieldName("name")?.text;
          if (name) names.push([name, d.childForFieldName("value") ?? d]);
        }
      } else if (!declaration) {
        for (const clause of namedChildren(node)) {
          if (clause.type !== "export_clause") continue;
          for (const spec of namedChildren(clause)) {
            const alias = spec.childForFieldName("alias")?.text ??
              spec.childForFieldName("name")?.text;
            if (alias) names.push([alias, spec]);
          }
        }
      }
      for (const [name, owner] of names) {
        if (!HTTP_METHODS.has(name) || name !== name.toUpperCase()) continue;
        this.#f.routes.push({
          ...this.#site(node, owner),
          methods: [name],
          path: literal(route),
          framework: "nextjs",
          composed: true,
          extra: {},
        });
      }
    }
  }
}

// ---- small node helpers ---------------------------------------------

function argList(call: Node): Node[] {
  const args = call.childForFieldName("arguments");
  if (!args) return [];
  return namedChildren(args).filter((n) => n.type !== "comment");
}

function constructorName(node: Node): string | undefined {
  const ctor = node.childForFieldName("constructor");
  return ctor?.type === "identifier" ? ctor.text : undefined;
}

/** `require("x")` -> the binding of its default export. */
function bindingOfRequire(node: Node): ImportBinding | undefined {
  const source = requireSource(node);
  return source === undefined ? undefined : { source, name: "default" };
}

function requireSource(node: Node): string | undefined {
  if (node.type !== "call_expression") return undefined;
  const callee = node.childForFieldName("function");
  if (callee?.type !== "identifier" || callee.text !== "require") {
    return undefined;
  }
  const first = argList(node)[0];
  return first ? stringValue(first) : undefined;
}

function isRelative(source: string): boolean {
  return source.startsWith("./") || source.startsWith("../");
}

function isStringish(node: Node): boolean {
  switch (node.type) {
    case "string":
    case "template_string":
    case "binary_expression":
    case "identifier":
    case "member_expression":
      return true;
    default:
      return false;
  }
}

/** A route path argument: a string, template, concatenation or constant. */
function isPathish(node: Node): boolean {
  const v = unwrap(node);
  if (v.type === "array") return namedChildren(v).some(isPathish);
  if (v.type === "string" || v.type === "template_string") {
    const value = valueOf(v);
    const head = value.parts[0];
    return typeof head !== "string" || head.startsWith("/") ||
      value.parts.length > 1;
  }
  return v.type === "binary_expression" || v.type === "identifier" ||
    v.type === "member_expression";
}

function pathValues(node: Node): Value[] {
  const v = unwrap(node);
  if (v.type === "array") {
    return namedChildren(v).filter(isPathish).map((n) => valueOf(n));
  }
  return [valueOf(v)];
}

function methodValues(node: Node): string[] | undefined {
  const v = unwrap(node);
  const items = v.type === "array" ? namedChildren(v) : [v];
  const out: string[] = [];
  for (const item of items) {
    const method = stringValue(unwrap(item))?.toUpperCase();
    if (!method) return undefined;
    out.push(method === "ALL" || method === "*" ? "ANY" : method);
  }
  return out.length ? out : undefined;
}

function propertyKey(node: Node | null): string | undefined {
  if (!node) return undefined;
  if (node.type === "property_identifier" || node.type === "identifier") {
    return node.text;
  }
  return stringValue(node);
}

/** The key of an object literal member: `key: value` or shorthand `key`. */
function memberKey(part: Node): string | undefined {
  return part.type === "pair"
    ? propertyKey(part.childForFieldName("key"))
    : part.type === "shorthand_property_identifier"
    ? part.text
    : undefined;
}

/** The value node of `key: value` (or shorthand `key`) in an object literal. */
function pairValue(object: Node, key: string): Node | undefined {
  for (const part of namedChildren(object)) {
    if (
      part.type === "pair" && propertyKey(part.childForFieldName("key")) === key
    ) {
      return part.childForFieldName("value") ?? undefined;
    }
    if (part.type === "shorthand_property_identifier" && part.text === key) {
      return part;
    }
  }
  return undefined;
}

/** `{ prefix: "/x" }` -> the value of `key`, or an empty value. */
function optionValue(options: Node | undefined, key: string): Value {
  if (!options) return literal("");
  const v = unwrap(options);
  if (v.type !== "object") return literal("");
  const value = pairValue(v, key);
  return value ? valueOf(value) : literal("");
}

/**
 * The method of a request init or config object: `GET` when none is set,
 * `undefined` when it is not a literal.
 */
function methodOption(options: Node): string | undefined {
  const v = unwrap(options);
  if (v.type !== "object") return undefined;
  const method = pairValue(v, "method");
  if (!method) {
    return namedChildren(v).some((n) => n.type === "spread_element")
      ? undefined
      : "GET";
  }
  const text = stringValue(unwrap(method))?.toUpperCase();
  return text && HTTP_METHODS.has(text) ? text : undefined;
}

/** `req.method === "GET"` somewhere in an `&&` chain. */
function methodTest(node: Node): string | undefined {
  const v = unwrap(node);
  if (v.type !== "binary_expression") return undefined;
  const operator = v.childForFieldName("operator")?.text;
  const left = v.childForFieldName("left");
  const right = v.childForFieldName("right");
  if (!left || !right) return undefined;
  if (operator === "&&") return methodTest(left) ?? methodTest(right);
  if (operator !== "===" && operator !== "==") return undefined;
  const [member, literal] = /\.method$/.test(unwrap(left).text)
    ? [left, right]
    : [right, left];
  if (!/\.method$/.test(unwrap(member).text)) return undefined;
  const method = stringValue(unwrap(literal))?.toUpperCase();
  return method && HTTP_METHODS.has(method) ? method : undefined;
}

/** The local an `export default x` / `module.exports = x` stands for. */
function exportedLocal(node: Node): string | undefined {
  const v = unwrap(node);
  if (v.type === "identifier") return v.text;
  if (FUNCTION_TYPES.has(v.type)) {
    const name = v.childForFieldName("name")?.text;
    return `fn:${name ?? "default"}`;
  }
  if (v.type === "call_expression") {
    // export default fp(plugin)
    const inner = argList(v)[0];
    if (inner && argList(v).length === 1) return exportedLocal(inner);
  }
  return undefined;
}

/**
 * Whether `name` is a parameter of the function enclosing `node`: its index
 * and the function's name (`undefined` for an anonymous function).
 */
function parameterOf(
  node: Node,
  name: string,
): { index: number; name: string | undefined } | undefined {
  const fn = findAncestor(node, FUNCTION_TYPES);
  if (!fn) return undefined;
  const single = fn.childForFieldName("parameter");
  const params = fn.childForFieldName("parameters");
  const list = single
    ? [single]
    : params
    ? namedChildren(params).filter((p) => p.type !== "comment")
    : [];
  for (let i = 0; i < list.length; i++) {
    const p = list[i]!;
    const id = p.type === "identifier"
      ? p
      : p.childForFieldName("pattern") ?? p.childForFieldName("left");
    if (id?.type !== "identifier" || id.text !== name) continue;
    let own = fn.childForFieldName("name")?.text;
    if (!own && fn.parent?.type === "variable_declarator") {
      own = fn.parent.childForFieldName("name")?.text;
    }
    return { index: i, name: own };
  }
  return undefined;
}

/**
 * The name of the function whose first parameter is `identifier`: the
 * identifier is then that function's router argument (a plugin).
 */
function pluginOf(identifier: Node): string | undefined {
  const fn = findAncestor(identifier, FUNCTION_TYPES);
  if (!fn) return undefined;
  const params = fn.childForFieldName("parameters");
  const single = fn.childForFieldName("parameter");
  let first: Node | undefined;
  if (single) first = single;
  else if (params) {
    const p = namedChildren(params)[0];
    first = p?.type === "required_parameter" || p?.type === "optional_parameter"
      ? p.childForFieldName("pattern") ?? undefined
      : p;
  }
  if (first?.type !== "identifier" || first.text !== identifier.text) {
    return undefined;
  }
  const own = fn.childForFieldName("name")?.text;
  if (own) return own;
  let parent = fn.parent;
  while (parent?.type === "parenthesized_expression") parent = parent.parent;
  if (parent?.type === "variable_declarator") {
    return parent.childForFieldName("name")?.text;
  }
  if (parent?.type === "export_statement") return "default";
  if (parent?.type === "assignment_expression") {
    const left = parent.childForFieldName("left")?.text ?? "";
    if (left === "module.exports") return "default";
    const m = /^(?:module\.)?exports\.([A-Za-z_$][\w$]*)$/.exec(left);
    if (m) return m[1];
  }
  if (parent?.type === "arguments") {
    // export default fp(async (app) => { ... })
    const call = parent.parent;
    const holder = call?.parent;
    if (holder?.type === "export_statement") return "default";
    if (holder?.type === "variable_declarator") {
      return holder.childForFieldName("name")?.text;
    }
  }
  return undefined;
}

/**
 * The permission of this library's guarded handlers among route
 * arguments: `guard.requirePermission("post", "read")(handler)`, the
 * wrapper as middleware (also inside an adapter such as
 * `honoGuard(guard.requirePermission(...))` or with `.withErrorFactory()`),
 * or a constant holding one. `authRequired()` alone gives `auth: required`.
 */
function permissionOf(
  args: Node[],
  handlers?: ReadonlyMap<string, Node>,
): Record<string, string> {
  let authRequired = false;
  for (const arg of args) {
    let v = unwrap(arg);
    // const listPosts = guard.requirePermission("post", "read")(...)
    if (v.type === "identifier" && handlers?.has(v.text)) {
      v = unwrap(handlers.get(v.text)!);
    }
    const found = guardCall(v, 0);
    if (found === "auth") authRequired = true;
    else if (found) return found;
  }
  return authRequired ? { auth: "required" } : {};
}

/** Searches an expression (not nested function bodies) for a guard call. */
function guardCall(
  node: Node,
  depth: number,
): Record<string, string> | "auth" | undefined {
  if (depth > 8 || FUNCTION_TYPES.has(node.type)) return undefined;
  let auth = false;
  if (node.type === "call_expression") {
    const fn = unwrap(node.childForFieldName("function")!);
    if (fn.type === "member_expression") {
      const property = fn.childForFieldName("property")?.text;
      if (property === "requirePermission") {
        const params = argList(node);
        const object = params[0] && stringValue(unwrap(params[0]));
        const action = params[1] && stringValue(unwrap(params[1]));
        if (object !== undefined && action !== undefined) {
          return { object, action, permission: `${object}:${action}` };
        }
      } else if (property === "authRequired") auth = true;
    }
  }
  for (const child of namedChildren(node)) {
    const found = guardCall(child, depth + 1);
    if (found && found !== "auth") return found;
    if (found === "auth") auth = true;
  }
  return auth ? "auth" : undefined;
}
