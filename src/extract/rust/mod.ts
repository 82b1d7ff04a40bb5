// Rust extractor: axum routers (`.route(path, get(h).post(h2))`, `.nest`,
// `.merge`), actix-web (`#[get("/x")]` handlers, `web::resource`,
// `web::scope`, `.service`, `.configure`), Rocket (`#[get("/x")]` handlers
// mounted with `.mount("/api", routes![...])`) and reqwest/awc clients.
import type { Node, Tree } from "web-tree-sitter";
import { parseSource } from "../_syntax/parser.ts";
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
  formatRust,
  hole,
  joinPaths,
  keyText,
  literal,
  routePath,
  type Value,
} from "../_value/mod.ts";
import { HTTP_METHODS, HTTP_VERBS, httpPort } from "../_port/http.ts";
import { eachFile, syntaxWarning } from "../_syntax/passes.ts";
import {
  evaluateConcatenation,
  evaluateStringNode,
  literalString,
} from "../_value/literals.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { anchorOf, namedChildren, walk } from "../_syntax/tree.ts";
import {
  crateOf,
  importsForeign,
  rocketReceiver,
  type RocketRoute,
  rocketRoute,
  routesList,
} from "./rocket.ts";

const AXUM_METHODS = new Set([...HTTP_VERBS, "trace", "any"]);
const ACTIX_ATTRIBUTES = new Set([...HTTP_VERBS, "route"]);
const CLIENT_VERBS = new Set(["get", "post", "put", "delete", "patch", "head"]);
const MAX_DEPTH = 12;

interface RustFile {
  file: SourceFile;
  tree: Tree;
  /** Which client crates the file uses (`reqwest`, `awc`). */
  crates: Set<string>;
  /** Whether the file uses axum / actix-web. */
  axum: boolean;
  actix: boolean;
  /** Whether the file names the `rocket` crate (`use rocket::..`, `rocket::build()`). */
  rocket: boolean;
  /** Whether the file has `#[macro_use] extern crate rocket;`. */
  rocketMacros: boolean;
  /** The text of each `use` declaration. */
  useTexts: string[];
}

/** Where a `routes![...]` list names a handler, and the prefix it gets. */
interface RocketMount {
  /** The path segments before the handler name (`users` in `users::show`). */
  qualifier: string[];
  /** The file of the `routes!` invocation. */
  site: RustFile;
  prefix: Value;
}

/** Unwraps `x.await`, `&x`, `x?`, `(x)`. */
function unwrap(node: Node): Node {
  let n = node;
  for (;;) {
    if (
      n.type === "await_expression" || n.type === "try_expression" ||
      n.type === "parenthesized_expression"
    ) {
      n = n.namedChild(0) ?? n;
      if (n === node) return n;
      continue;
    }
    if (n.type === "reference_expression") {
      n = n.childForFieldName("value") ?? n;
      continue;
    }
    return n;
  }
}

/** The last `::` segment of a path expression. */
function lastSegment(node: Node | null | undefined): string {
  if (!node) return "";
  if (node.type === "scoped_identifier") {
    return node.childForFieldName("name")?.text ?? "";
  }
  return node.text;
}

/** The method name and receiver of `recv.name(args)`. */
function methodCall(
  call: Node,
): { name: string; receiver: Node } | undefined {
  if (call.type !== "call_expression") return undefined;
  const fn = call.childForFieldName("function");
  if (fn?.type !== "field_expression") return undefined;
  const receiver = fn.childForFieldName("value");
  const name = fn.childForFieldName("field")?.text;
  return receiver && name ? { name, receiver } : undefined;
}

/** Where a call is written: the method name of `recv.name(..)`, else the call. */
function callSite(call: Node): Node {
  const fn = call.childForFieldName("function");
  const field = fn?.type === "field_expression"
    ? fn.childForFieldName("field")
    : null;
  return field ? anchorOf(call, field) : call;
}

function argsOf(call: Node): Node[] {
  const args = call.childForFieldName("arguments");
  return args ? namedChildren(args) : [];
}

/** The innermost receiver of a method chain. */
function chainRoot(call: Node): Node {
  let n = call;
  for (;;) {
    const m = methodCall(unwrap(n));
    if (!m) return unwrap(n);
    n = m.receiver;
  }
}

class RustScan {
  readonly files: RustFile[];
  readonly constants: Map<string, Value>;
  readonly ports: ExtractedPort[] = [];
  readonly #uses = new Map<string, Node[]>();
  readonly #memo = new Map<string, Value[]>();
  readonly #byTree = new Map<unknown, RustFile>();
  #indexed = false;
  /** Handler name → where `routes!` lists mount it (built on first use). */
  #mounts: Map<string, RocketMount[]> | undefined;
  /** Crates (see `crateOf`) with `#[macro_use] extern crate rocket`. */
  readonly #rocketCrates = new Set<string>();
  /** Whether some file of the scan names the `rocket` crate. */
  readonly #anyRocket: boolean;

  constructor(files: RustFile[], constants: Map<string, Value>) {
    this.files = files;
    this.constants = constants;
    for (const f of files) {
      this.#byTree.set(f.tree, f);
      if (f.rocketMacros) this.#rocketCrates.add(crateOf(f.file.path));
    }
    this.#anyRocket = files.some((f) => f.rocket);
  }

  /**
   * Identifiers named `name` used as a call's function (`api()`,
   * `users::routes()`) or registered with `.service(h)`/`.configure(f)`,
   * across the scan. The index is built in one walk on first use.
   */
  uses(name: string): Node[] {
    if (!this.#indexed) {
      this.#indexed = true;
      for (const f of this.files) {
        walk(f.tree.rootNode, (n) => {
          if (n.type !== "identifier") return;
          const parent = n.parent;
          let site: Node | null = n;
          if (parent?.type === "scoped_identifier") site = parent;
          const holder = site.parent;
          const called = holder?.type === "call_expression" &&
            holder.childForFieldName("function")?.id === site.id;
          const registered = holder?.type === "arguments" &&
            holder.parent !== null &&
            ["service", "configure", "default_service"].includes(
              methodCall(holder.parent)?.name ?? "",
            );
          if (!called && !registered) return;
          let list = this.#uses.get(n.text);
          if (!list) this.#uses.set(n.text, list = []);
          list.push(n);
        });
      }
    }
    return this.#uses.get(name) ?? [];
  }

  evaluate(node: Node | null | undefined, depth = 0): Value {
    if (!node || depth > MAX_DEPTH) return hole("?");
    const n = unwrap(node);
    const str = evaluateStringNode(n, (e) => hole(e.text));
    if (str) return str;
    switch (n.type) {
      case "macro_invocation": {
        const name = lastSegment(n.childForFieldName("macro"));
        const tokens = namedChildren(n).find((c) => c.type === "token_tree");
        const first = tokens ? namedChildren(tokens)[0] : undefined;
        if (name === "format" && first) {
          const text = exactText(this.evaluate(first, depth + 1));
          if (text !== undefined) return formatRust(literal(text));
        }
        if (name === "concat" && tokens) {
          return concat(
            namedChildren(tokens).map((t) => this.evaluate(t, depth + 1)),
          );
        }
        return hole(n.text);
      }
      case "identifier":
      case "scoped_identifier": {
        const local = n.type === "identifier"
          ? this.letValue(n.text, n)
          : undefined;
        if (local) {
          return composed(this.evaluate(local, depth + 1));
        }
        const c = this.constants.get(lastSegment(n));
        return c ? composed(c) : hole(n.text);
      }
      case "binary_expression":
        return evaluateConcatenation(
          n,
          "+",
          (operand) => this.evaluate(operand, depth + 1),
        );
      case "call_expression": {
        const m = methodCall(n);
        if (
          m && ["to_string", "to_owned", "into", "as_str", "clone"].includes(
            m.name,
          )
        ) {
          return this.evaluate(m.receiver, depth + 1);
        }
        const fn = n.childForFieldName("function");
        if (fn && /^(String::from|Url::parse)$/.test(fn.text)) {
          return this.evaluate(argsOf(n)[0], depth + 1);
        }
        return hole(n.text);
      }
      default:
        return hole(n.text);
    }
  }

  /** The value of `let name = value;` visible at a node. */
  letValue(name: string, at: Node): Node | undefined {
    for (let scope: Node | null = at.parent; scope; scope = scope.parent) {
      if (scope.type !== "block") continue;
      let found: Node | undefined;
      for (const stmt of namedChildren(scope)) {
        if (stmt.startIndex > at.startIndex) break;
        if (
          stmt.type === "let_declaration" &&
          stmt.childForFieldName("pattern")?.text === name
        ) {
          found = stmt.childForFieldName("value") ?? undefined;
        }
      }
      if (found) return found;
    }
    return undefined;
  }

  /** The enclosing `function_item` of a node. */
  enclosingFunction(node: Node): Node | undefined {
    for (let n: Node | null = node.parent; n; n = n.parent) {
      if (n.type === "function_item") return n;
      if (n.type === "closure_expression") return undefined;
    }
    return undefined;
  }

  /**
   * The prefixes mounted above a router/scope value, following the value
   * out through method chains, `let` bindings, function returns, `.nest`,
   * `.merge`, `.service` and `.configure`.
   */
  prefixes(node: Node, depth = 0): Value[] {
    if (depth > MAX_DEPTH) return [literal("")];
    const key = `p:${node.id}`;
    const cached = this.#memo.get(key);
    if (cached) return cached;
    const result = dedupe(this.prefixesOf(node, depth));
    this.#memo.set(key, result);
    return result;
  }

  prefixesOf(node: Node, depth: number): Value[] {
    const parent = node.parent;
    if (!parent) return [literal("")];
    switch (parent.type) {
      case "await_expression":
      case "try_expression":
      case "reference_expression":
      case "parenthesized_expression":
        return this.prefixes(parent, depth + 1);
      case "field_expression": {
        const call = parent.parent;
        if (
          parent.childForFieldName("value")?.id === node.id &&
          call?.type === "call_expression"
        ) return this.prefixes(call, depth + 1);
        return [literal("")];
      }
      case "arguments": {
        const call = parent.parent;
        const m = call ? methodCall(call) : undefined;
        if (!call || !m) return [literal("")];
        const args = namedChildren(parent);
        const index = args.findIndex((a) => a.id === node.id);
        if ((m.name === "nest" || m.name === "nest_service") && index === 1) {
          const p = this.evaluate(args[0]);
          return this.mountedBelow(call, depth).map((pre) => joinPaths(pre, p));
        }
        if (
          m.name === "merge" || m.name === "service" ||
          m.name === "configure" || m.name === "default_service"
        ) {
          return this.mountedBelow(call, depth);
        }
        return [literal("")];
      }
      case "let_declaration": {
        const pattern = parent.childForFieldName("pattern");
        if (pattern?.type !== "identifier") return [literal("")];
        const block = parent.parent;
        const out: Value[] = [];
        if (block) {
          walk(block, (n) => {
            if (
              n.type === "identifier" && n.text === pattern.text &&
              n.startIndex > pattern.endIndex
            ) out.push(...this.prefixes(n, depth + 1));
          });
        }
        return out.length > 0 ? out : [literal("")];
      }
      case "block": {
        // The tail expression of a function body: the function's value.
        const fn = parent.parent;
        const last = namedChildren(parent).at(-1);
        if (fn?.type !== "function_item" || last?.id !== node.id) {
          return [literal("")];
        }
        const name = fn.childForFieldName("name")?.text;
        return name ? this.callSitePrefixes(name, fn, depth) : [literal("")];
      }
      case "return_expression": {
        const fn = this.enclosingFunction(node);
        const name = fn?.childForFieldName("name")?.text;
        return fn && name
          ? this.callSitePrefixes(name, fn, depth)
          : [literal("")];
      }
      default:
        return [literal("")];
    }
  }

  /** Prefixes for the calls of function `name` (other than its own body). */
  callSitePrefixes(name: string, fn: Node, depth: number): Value[] {
    const key = `fn:${fn.id}`;
    const cached = this.#memo.get(key);
    if (cached) return cached;
    const home = this.fileOf(fn);
    const out: Value[] = [];
    for (const use of this.uses(name)) {
      if (use.parent?.id === fn.id) continue; // the definition's name
      if (!home || !this.refersTo(use, home)) continue;
      let site: Node = use;
      if (use.parent?.type === "scoped_identifier") site = use.parent;
      const call = site.parent;
      if (
        call?.type === "call_expression" &&
        call.childForFieldName("function")?.id === site.id
      ) {
        out.push(...this.prefixes(call, depth + 1));
      } else if (call?.type === "arguments") {
        // `.configure(config)`, `.service(handler)`
        const m = call.parent ? methodCall(call.parent) : undefined;
        if (m && ["service", "configure", "default_service"].includes(m.name)) {
          out.push(...this.prefixes(site, depth + 1));
        }
      }
    }
    const result = out.length > 0 ? dedupe(out) : [literal("")];
    this.#memo.set(key, result);
    return result;
  }

  /** The scanned file a node belongs to. */
  fileOf(node: Node): RustFile | undefined {
    return this.#byTree.get(node.tree);
  }

  /**
   * Whether a use of a function name can refer to the function defined in
   * `home`: `users::routes()` needs the `users` module; a bare `routes()`
   * needs the same file or a `use` of `...users::routes`.
   */
  refersTo(use: Node, home: RustFile): boolean {
    const module = moduleName(home.file.path);
    const from = this.fileOf(use);
    if (use.parent?.type === "scoped_identifier") {
      const path = use.parent.childForFieldName("path");
      const segment = lastSegment(path);
      if (["crate", "self", "super", "Self"].includes(segment)) {
        return from === home || module === "crate";
      }
      return segment === module;
    }
    if (from === home) return true;
    if (!from) return false;
    return from.useTexts.some((text) =>
      text.includes(`${module}::`) &&
      text.split(/[^A-Za-z0-9_]+/).includes(use.text)
    );
  }

  /**
   * Prefixes that apply to values mounted by a `.nest/.service(...)` call:
   * those above the call's own chain, plus the chain's root scope.
   */
  mountedBelow(call: Node, depth: number): Value[] {
    const above = this.prefixes(call, depth + 1);
    const own = this.rootPrefixes(chainRoot(call), depth);
    const out: Value[] = [];
    for (const a of above) {
      for (const o of own) out.push(joinPaths(a, o));
    }
    return out;
  }

  /** The prefix a chain root contributes: `web::scope("/api")`. */
  rootPrefixes(root: Node, depth: number): Value[] {
    if (depth > MAX_DEPTH) return [literal("")];
    if (root.type === "call_expression") {
      const fn = root.childForFieldName("function");
      const text = fn?.text ?? "";
      if (/(^|::)(scope|Scope::new)$/.test(text)) {
        return [this.evaluate(argsOf(root)[0])];
      }
      return [literal("")];
    }
    if (root.type === "identifier") {
      const value = this.letValue(root.text, root);
      if (value) return this.rootPrefixes(chainRoot(value), depth + 1);
      // `fn config(cfg: &mut web::ServiceConfig)` registered by `.configure`
      const fn = this.enclosingFunction(root);
      const params = fn?.childForFieldName("parameters");
      const isParam = params
        ? namedChildren(params).some((p) =>
          p.childForFieldName("pattern")?.text === root.text &&
          /ServiceConfig/.test(p.childForFieldName("type")?.text ?? "")
        )
        : false;
      const name = fn?.childForFieldName("name")?.text;
      if (fn && isParam && name) {
        return this.callSitePrefixes(name, fn, depth + 1);
      }
    }
    return [literal("")];
  }

  run(f: RustFile): void {
    walk(f.tree.rootNode, (node) => {
      if (node.type === "call_expression") {
        const m = methodCall(node);
        if (m?.name === "route") this.routeCall(f, node);
        else if (m?.name === "to" || CLIENT_VERBS.has(m?.name ?? "")) {
          this.actixResourceOrClient(f, node, m!.name, m!.receiver);
        } else if (m?.name === "request") this.clientCall(f, node, m.receiver);
        else this.freeClientCall(f, node);
      } else if (node.type === "attribute_item") {
        this.actixAttribute(f, node);
        this.rocketAttribute(f, node);
      }
    });
  }

  /** axum `.route(path, get(h).post(h2))` / actix `.route(path, web::get().to(h))`. */
  routeCall(f: RustFile, call: Node): void {
    const args = argsOf(call);
    const [pathArg, handler] = args;
    if (!pathArg || !handler) {
      // actix `web::resource("/x").route(web::get().to(h))`
      if (pathArg) this.actixResourceRoute(f, call, pathArg);
      return;
    }
    const axum = f.axum ? this.axumVerbs(handler) : undefined;
    const verbs = axum ?? this.actixVerbs(handler);
    if (!verbs) return;
    const framework = axum ? "axum" : "actix-web";
    this.emitServer(f, call, pathArg, verbs, framework);
  }

  /** Verbs of an axum method router `get(h).post(h2)`, or undefined. */
  axumVerbs(node: Node): string[] | undefined {
    const verbs: string[] = [];
    let n: Node | undefined = unwrap(node);
    while (n) {
      const m = methodCall(n);
      if (m) {
        if (AXUM_METHODS.has(m.name)) verbs.push(verbName(m.name));
        else if (m.name === "on") {
          const v = this.methodFilter(argsOf(n)[0]);
          if (v) verbs.push(v);
        } else if (
          !["layer", "route_layer", "with_state", "fallback"].includes(m.name)
        ) return undefined;
        n = unwrap(m.receiver);
        continue;
      }
      if (n.type !== "call_expression") return undefined;
      const fn = n.childForFieldName("function");
      const name = lastSegment(fn);
      const path = fn?.text ?? "";
      if (fn?.type === "scoped_identifier" && !/(^|::)routing::/.test(path)) {
        return undefined;
      }
      const base = name.replace(/_service$/, "");
      if (AXUM_METHODS.has(base)) verbs.push(verbName(base));
      else if (base === "on") {
        const v = this.methodFilter(argsOf(n)[0]);
        if (!v) return undefined;
        verbs.push(v);
      } else return undefined;
      n = undefined;
    }
    return verbs.length > 0 ? verbs.reverse() : undefined;
  }

  methodFilter(node: Node | undefined): string | undefined {
    const v = lastSegment(node).toUpperCase();
    return HTTP_METHODS.has(v) ? v : undefined;
  }

  /** Verbs of an actix route `web::get().to(h)` / `web::route()`, or undefined. */
  actixVerbs(node: Node): string[] | undefined {
    const n = unwrap(node);
    const m = methodCall(n);
    if (!m || m.name !== "to") return undefined;
    let root = unwrap(m.receiver);
    let verb: string | undefined;
    // `web::route().method(Method::GET).to(h)` / `.guard(..)`
    for (;;) {
      const inner = methodCall(root);
      if (!inner) break;
      if (inner.name === "method") {
        verb = this.methodFilter(argsOf(root)[0]);
      }
      root = unwrap(inner.receiver);
    }
    if (root.type !== "call_expression") return undefined;
    const fn = root.childForFieldName("function");
    if (fn?.type !== "scoped_identifier") return undefined;
    const name = lastSegment(fn);
    if (AXUM_METHODS.has(name) && name !== "any") return [name.toUpperCase()];
    if (name === "route") return [verb ?? "ANY"];
    if (name === "method") {
      const v = this.methodFilter(argsOf(root)[0]);
      return v ? [v] : undefined;
    }
    return undefined;
  }

  /** `web::resource("/x").route(web::get().to(h))`. */
  actixResourceRoute(f: RustFile, call: Node, routeArg: Node): void {
    const verbs = this.actixVerbs(routeArg);
    if (!verbs) return;
    const resource = this.resourceOf(call);
    if (!resource) return;
    this.emitServer(f, call, resource.path, verbs, "actix-web", resource.call);
  }

  /** The `web::resource(path)` at the root of a chain. */
  resourceOf(call: Node): { path: Node; call: Node } | undefined {
    const root = chainRoot(call);
    if (root.type !== "call_expression") return undefined;
    const fn = root.childForFieldName("function")?.text ?? "";
    if (!/(^|::)(resource|Resource::new)$/.test(fn)) return undefined;
    const path = argsOf(root)[0];
    return path ? { path, call: root } : undefined;
  }

  actixResourceOrClient(
    f: RustFile,
    call: Node,
    name: string,
    receiver: Node,
  ): void {
    if (name === "to") {
      // `web::resource("/x").to(h)`: every method.
      const root = chainRoot(call);
      if (
        root.id === unwrap(receiver).id &&
        this.resourceOf(call)
      ) {
        const resource = this.resourceOf(call)!;
        this.emitServer(f, call, resource.path, ["ANY"], "actix-web", root);
      }
      return;
    }
    this.clientCall(f, call, receiver, name);
  }

  emitServer(
    f: RustFile,
    at: Node,
    pathArg: Node,
    verbs: readonly string[],
    framework: string,
    chainStart: Node = at,
  ): void {
    const path = this.evaluate(pathArg);
    const own = this.rootPrefixes(chainRoot(chainStart), 0);
    const above = this.prefixes(at);
    const seen = new Set<string>();
    for (const a of above) {
      for (const o of own) {
        const composed = joinPaths(a, o, path);
        this.emitComposed(
          f,
          at,
          composed,
          verbs,
          framework,
          seen,
          callSite(at),
          hasPath(a) || hasPath(o),
        );
      }
    }
  }

  emitComposed(
    f: RustFile,
    at: Node,
    composed: Value,
    verbs: readonly string[],
    framework: string,
    seen: Set<string>,
    node: Node = at,
    prefixed = false,
  ): void {
    const route = routePath(composed, prefixed);
    for (const verb of verbs) {
      const port = httpPort({
        role: "server",
        method: verb,
        path: route.path,
        node,
        owner: ownerOf(at, f.file.path, "rust"),
        filePath: f.file.path,
        confidence: route.confidence,
        framework,
      });
      if (!port || seen.has(port.ref.key)) continue;
      seen.add(port.ref.key);
      this.ports.push(port);
    }
  }

  /** actix / rocket `#[get("/x")]` on a handler function. */
  actixAttribute(f: RustFile, item: Node): void {
    if (!f.actix) return;
    const attribute = namedChildren(item).find((c) => c.type === "attribute");
    if (!attribute) return;
    const head = namedChildren(attribute)[0];
    const name = lastSegment(head);
    if (!ACTIX_ATTRIBUTES.has(name)) return;
    if (head?.type === "scoped_identifier" && !/^actix_web::/.test(head.text)) {
      return;
    }
    const tokens = attribute.childForFieldName("arguments");
    if (!tokens) return;
    const parts = namedChildren(tokens);
    const pathNode = parts[0];
    if (!pathNode || pathNode.type !== "string_literal") return;
    let verbs: string[];
    if (name === "route") {
      verbs = [];
      for (let i = 1; i < parts.length; i++) {
        if (parts[i]!.text === "method" && parts[i + 1]) {
          const v = exactText(this.evaluate(parts[i + 1]))?.toUpperCase();
          if (v && HTTP_METHODS.has(v)) verbs.push(v);
        }
      }
      if (verbs.length === 0) verbs = ["ANY"];
    } else {
      verbs = [name.toUpperCase()];
    }
    // The handler function the attribute decorates.
    let fn: Node | null = item.nextNamedSibling;
    while (fn && fn.type === "attribute_item") fn = fn.nextNamedSibling;
    if (fn?.type !== "function_item") return;
    const handler = fn.childForFieldName("name")?.text;
    if (!handler) return;
    const path = this.evaluate(pathNode);
    const prefixes = this.callSitePrefixes(handler, fn, 0);
    const seen = new Set<string>();
    for (const pre of prefixes) {
      this.emitComposed(
        f,
        fn,
        joinPaths(pre, path),
        verbs,
        "actix-web",
        seen,
        item,
        hasPath(pre),
      );
    }
  }

  /** Whether a file's unqualified attributes may be Rocket's. */
  rocketFile(f: RustFile): boolean {
    return f.rocket || this.#rocketCrates.has(crateOf(f.file.path));
  }

  /**
   * A Rocket `#[get("/x")]` / `#[route(GET, uri = "/x")]` handler, once per
   * `routes!` list that mounts it (with that `.mount` prefix); a handler no
   * list of the scan mounts gets its bare path at confidence 0.8. An
   * unqualified attribute counts in files that use Rocket (or whose crate
   * has `#[macro_use] extern crate rocket`) or when a `routes!` list names
   * the handler, never in files that use actix-web or import the attribute
   * from another crate.
   */
  rocketAttribute(f: RustFile, item: Node): void {
    // Without any file naming the `rocket` crate, no attribute is Rocket's.
    if (!this.#anyRocket) return;
    const route = rocketRoute(item);
    if (!route) return;
    let fn: Node | null = item.nextNamedSibling;
    while (fn && fn.type === "attribute_item") fn = fn.nextNamedSibling;
    if (fn?.type !== "function_item") return;
    const handler = fn.childForFieldName("name")?.text;
    if (!handler) return;
    if (
      !route.qualified &&
      (f.actix || importsForeign(f.useTexts, route.name))
    ) return;
    const mounts = this.rocketMounts(handler, f);
    if (!route.qualified && !this.rocketFile(f) && mounts.length === 0) {
      return;
    }
    this.emitRocket(f, fn, item, route, mounts);
  }

  emitRocket(
    f: RustFile,
    fn: Node,
    item: Node,
    route: RocketRoute,
    mounts: readonly RocketMount[],
  ): void {
    const path = literal(route.path);
    if (mounts.length > 0) {
      const seen = new Set<string>();
      for (const mount of mounts) {
        this.emitComposed(
          f,
          fn,
          joinPaths(mount.prefix, path),
          route.verbs,
          "rocket",
          seen,
          item,
          hasPath(mount.prefix),
        );
      }
      return;
    }
    for (const verb of route.verbs) {
      const port = httpPort({
        role: "server",
        method: verb,
        path: routePath(literal(route.path)).path,
        node: item,
        owner: ownerOf(fn, f.file.path, "rust"),
        filePath: f.file.path,
        confidence: CONFIDENCE.partial,
        framework: "rocket",
        extra: { mounted: "false" },
      });
      if (port) this.ports.push(port);
    }
  }

  /** The `routes!` entries of the scan that name the handler of `home`. */
  rocketMounts(handler: string, home: RustFile): RocketMount[] {
    if (!this.#mounts) this.#mounts = this.indexMounts();
    const module = moduleName(home.file.path);
    return (this.#mounts.get(handler) ?? []).filter((m) => {
      const q = m.qualifier.filter((s) => s !== "self" && s !== "super");
      if (q.length > 0 && q[q.length - 1] !== "crate") {
        return q[q.length - 1] === module;
      }
      if (m.site.file.path === home.file.path) return true;
      if (q[0] === "crate") return module === "crate";
      return m.site.useTexts.some((text) =>
        text.includes(`${module}::`) &&
        (text.split(/[^A-Za-z0-9_*]+/).includes(handler) ||
          text.includes(`${module}::*`))
      );
    });
  }

  /** Every `routes![...]` list of the scan, by handler name. */
  indexMounts(): Map<string, RocketMount[]> {
    const index = new Map<string, RocketMount[]>();
    for (const f of this.files) {
      if (!this.rocketFile(f) && !f.file.text.includes("routes!")) continue;
      walk(f.tree.rootNode, (n) => {
        if (n.type !== "macro_invocation") return;
        const handlers = routesList(n);
        if (!handlers) return;
        const prefixes = this.mountPrefixes(n, 0);
        for (const segments of handlers) {
          const name = segments[segments.length - 1]!;
          let list = index.get(name);
          if (!list) index.set(name, list = []);
          for (const prefix of prefixes) {
            list.push({ qualifier: segments.slice(0, -1), site: f, prefix });
          }
        }
        return false;
      });
    }
    return index;
  }

  /**
   * The prefixes a `routes!` list (or a value holding it) is mounted
   * with: `.mount(prefix, value)` on a Rocket instance, followed through
   * `let` bindings and functions returning the list.
   */
  mountPrefixes(node: Node, depth: number): Value[] {
    if (depth > MAX_DEPTH) return [];
    const parent = node.parent;
    if (!parent) return [];
    switch (parent.type) {
      case "arguments": {
        const call = parent.parent;
        const m = call ? methodCall(call) : undefined;
        const args = namedChildren(parent);
        if (
          !call || m?.name !== "mount" || args.length !== 2 ||
          args[1]!.id !== node.id || !rocketReceiver(chainRoot(m.receiver))
        ) return [];
        return [this.evaluate(args[0])];
      }
      case "reference_expression":
      case "parenthesized_expression":
        return this.mountPrefixes(parent, depth + 1);
      case "let_declaration": {
        const pattern = parent.childForFieldName("pattern");
        const block = parent.parent;
        if (pattern?.type !== "identifier" || !block) return [];
        const out: Value[] = [];
        walk(block, (n) => {
          if (
            n.type === "identifier" && n.text === pattern.text &&
            n.startIndex > pattern.endIndex
          ) out.push(...this.mountPrefixes(n, depth + 1));
        });
        return out;
      }
      case "block":
      case "return_expression": {
        const fn = parent.type === "block" ? parent.parent : undefined;
        const tail = namedChildren(parent).at(-1)?.id === node.id;
        const owner = parent.type === "block"
          ? (fn?.type === "function_item" && tail ? fn : undefined)
          : this.enclosingFunction(node);
        const name = owner?.childForFieldName("name")?.text;
        const home = owner ? this.fileOf(owner) : undefined;
        if (!owner || !name || !home) return [];
        const out: Value[] = [];
        for (const use of this.uses(name)) {
          if (use.parent?.id === owner.id || !this.refersTo(use, home)) {
            continue;
          }
          const site = use.parent?.type === "scoped_identifier"
            ? use.parent
            : use;
          const call = site.parent;
          if (
            call?.type === "call_expression" &&
            call.childForFieldName("function")?.id === site.id
          ) out.push(...this.mountPrefixes(call, depth + 1));
        }
        return out;
      }
      default:
        return [];
    }
  }

  /** Calls on reqwest/awc clients: `client.get(url)`, `request(Method, url)`. */
  clientCall(f: RustFile, call: Node, receiver: Node, name = "request"): void {
    if (f.crates.size === 0) return;
    const crate = this.clientCrate(f, receiver);
    if (!crate) return;
    const args = argsOf(call);
    let method: string | undefined;
    let url: Node | undefined;
    if (name === "request") {
      method = this.methodFilter(args[0]);
      url = args[1];
    } else {
      method = name.toUpperCase();
      url = args[0];
    }
    if (!method || !url) return;
    this.emitClient(f, call, method, url, crate);
  }

  /** `reqwest::get(url)` and `reqwest::blocking::get(url)`. */
  freeClientCall(f: RustFile, call: Node): void {
    if (!f.crates.has("reqwest")) return;
    const fn = call.childForFieldName("function");
    if (fn?.type !== "scoped_identifier") return;
    if (!/^reqwest::(blocking::)?get$/.test(fn.text)) return;
    const url = argsOf(call)[0];
    if (url) this.emitClient(f, call, "GET", url, "reqwest");
  }

  /** Which client crate a receiver belongs to, or undefined. */
  clientCrate(f: RustFile, receiver: Node): string | undefined {
    const r = unwrap(receiver);
    let type: string | undefined;
    if (r.type === "identifier") {
      const value = this.letValue(r.text, r);
      if (value) type = this.constructedType(value);
      else type = this.paramType(r);
    } else if (
      r.type === "field_expression" &&
      r.childForFieldName("value")?.text === "self"
    ) {
      type = this.fieldType(f, r.childForFieldName("field")?.text ?? "");
    } else if (r.type === "call_expression") {
      type = this.constructedType(r);
    }
    if (!type) return undefined;
    const crate = /^(reqwest|awc)\b/.exec(type)?.[1];
    if (crate) return f.crates.has(crate) ? crate : undefined;
    // A bare `Client` imported from one of the crates.
    if (/^Client\b/.test(type) && f.crates.size === 1) {
      return [...f.crates][0];
    }
    return undefined;
  }

  constructedType(value: Node): string | undefined {
    const root = chainRoot(value);
    if (root.type !== "call_expression") return undefined;
    const fn = root.childForFieldName("function")?.text ?? "";
    const m = /^((?:\w+::)*)(Client|ClientBuilder)::(new|builder|default)$/
      .exec(fn);
    return m ? `${m[1]}Client` : undefined;
  }

  paramType(id: Node): string | undefined {
    const fn = this.enclosingFunction(id);
    const params = fn?.childForFieldName("parameters");
    for (const p of params ? namedChildren(params) : []) {
      if (p.childForFieldName("pattern")?.text === id.text) {
        return (p.childForFieldName("type")?.text ?? "").replace(
          /^&(mut )?/,
          "",
        );
      }
    }
    return undefined;
  }

  fieldType(f: RustFile, field: string): string | undefined {
    let found: string | undefined;
    walk(f.tree.rootNode, (n) => {
      if (found) return false;
      if (
        n.type === "field_declaration" &&
        n.childForFieldName("name")?.text === field
      ) {
        found = n.childForFieldName("type")?.text;
      }
    });
    return found;
  }

  emitClient(
    f: RustFile,
    call: Node,
    method: string,
    urlNode: Node,
    framework: string,
  ): void {
    const path = clientPath(this.evaluate(urlNode));
    if (!path) return;
    const port = httpPort({
      role: "client",
      method,
      path: path.path,
      node: callSite(call),
      owner: ownerOf(call, f.file.path, "rust"),
      filePath: f.file.path,
      confidence: path.confidence,
      framework,
      extra: { raw: urlNode.text },
    });
    if (port) this.ports.push(port);
  }
}

/** Whether a prefix adds a path segment (not empty, not just `/`). */
function hasPath(prefix: Value): boolean {
  return prefix.parts.some((p) =>
    typeof p !== "string" || p.replaceAll("/", "") !== ""
  );
}

/** Distinct prefixes (by their text). */
function dedupe(list: readonly Value[]): Value[] {
  const seen = new Set<string>();
  const out: Value[] = [];
  for (const item of list) {
    const text = keyText(item) + (item.composed ? "#" : "");
    if (seen.has(text)) continue;
    seen.add(text);
    out.push(item);
  }
  return out;
}

/**
 * The module a file defines: its stem, the directory for `mod.rs`, `crate`
 * for `main.rs`/`lib.rs`.
 */
function moduleName(path: string): string {
  const parts = path.split("/");
  const file = parts[parts.length - 1] ?? "";
  const stem = file.endsWith(".rs") ? file.slice(0, -3) : file;
  if (stem === "main" || stem === "lib") return "crate";
  if (stem === "mod") return parts[parts.length - 2] ?? stem;
  return stem;
}

function verbName(name: string): string {
  return name === "any" ? "ANY" : name.toUpperCase();
}

/** `const X: &str = "..."` and `static X: &str = "..."`. */
function collectConstants(
  root: Node,
  constants: Map<string, Value>,
): void {
  for (const item of namedChildren(root)) {
    if (item.type !== "const_item" && item.type !== "static_item") continue;
    const name = item.childForFieldName("name")?.text;
    const value = item.childForFieldName("value");
    if (!name || !value) continue;
    const v = literalString(value);
    if (v && !constants.has(name)) {
      constants.set(name, v);
    }
  }
}

function usedCrates(root: Node): {
  crates: Set<string>;
  axum: boolean;
  actix: boolean;
  rocket: boolean;
  rocketMacros: boolean;
  useTexts: string[];
} {
  const crates = new Set<string>();
  const useTexts: string[] = [];
  let axum = false;
  let actix = false;
  let rocket = false;
  let rocketMacros = false;
  walk(root, (n) => {
    if (n.type === "use_declaration" || n.type === "scoped_identifier") {
      const text = n.text;
      if (n.type === "use_declaration") useTexts.push(text);
      if (/\breqwest\b/.test(text)) crates.add("reqwest");
      if (/\bawc\b/.test(text)) crates.add("awc");
      if (/\baxum\b/.test(text)) axum = true;
      if (/\bactix_web\b/.test(text)) actix = true;
      if (/^(use\s+)?(::)?rocket::/.test(text)) rocket = true;
      return n.type !== "use_declaration";
    }
    if (n.type === "extern_crate_declaration") {
      if (n.childForFieldName("name")?.text === "rocket") {
        rocket = true;
        const before = n.previousNamedSibling;
        if (
          before?.type === "attribute_item" &&
          /^#\[\s*macro_use\s*\]$/.test(before.text)
        ) rocketMacros = true;
      }
      return false;
    }
    if (n.type === "scoped_type_identifier") {
      if (/^reqwest\b/.test(n.text)) crates.add("reqwest");
      if (/^awc\b/.test(n.text)) crates.add("awc");
    }
  });
  return { crates, axum, actix, rocket, rocketMacros, useTexts };
}

/**
 * Extracts axum and actix-web routes and reqwest/awc calls from Rust files.
 *
 * axum: `.route("/x", get(h).post(h2))` (`any` → `ANY`, `on(MethodFilter::X)`),
 * prefixes from `.nest("/api", router)` followed through method chains,
 * `let` bindings and functions returning routers, across files. actix-web:
 * `#[get("/x")]`/`#[route("/x", method = "GET")]` handlers (in files that
 * use `actix_web`), prefixed by the `web::scope("/api")` they are
 * `.service(...)`-registered on (also through `.configure(f)`),
 * `web::resource("/x").route(web::get().to(h))` and `.route("/x",
 * web::post().to(h))`. Rocket: `#[get("/x/<id>")]`, `#[post("/", data =
 * "<d>")]`... and `#[route(GET, uri = "/x")]` handlers (in files or crates
 * that use `rocket`, never in actix-web files), once per `.mount("/api",
 * routes![h, module::h])` that lists them (also through `let` bindings and
 * functions returning `routes!`), `?<query>` parts dropped; a handler no
 * list mounts gets its bare path at confidence 0.8. Clients: `reqwest::get(url)`, and `get/post/...`
 * or `request(Method::X, url)` on receivers built by `reqwest::Client::new()`
 * / `awc::Client::default()` or declared with those types.
 *
 * @example Usage
 * ```ts
 * import { rustExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `use axum::{routing::get, Router};
 * fn app() -> Router {
 *     Router::new().nest("/api", Router::new().route("/users/:id", get(show)))
 * }`;
 * const { ports } = await rustExtractor.extract([{ path: "src/main.rs", text }]);
 * assert.equal(ports[0]?.ref.key, "GET /api/users/{}");
 * ```
 */
export const rustExtractor: LanguageExtractor = {
  name: "rust",
  accepts(path: string): boolean {
    return path.endsWith(".rs");
  },
  async extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const diagnostics: ExtractDiagnostic[] = [];
    const parsed: RustFile[] = [];
    const constants = new Map<string, Value>();
    try {
      await eachFile(files, diagnostics, async (file) => {
        const tree = await parseSource("rust", file.text);
        syntaxWarning(tree.rootNode, file.path, diagnostics);
        collectConstants(tree.rootNode, constants);
        parsed.push({ file, tree, ...usedCrates(tree.rootNode) });
      });
      const scan = new RustScan(parsed, constants);
      await eachFile(
        parsed.map((p) => ({ ...p, path: p.file.path })),
        diagnostics,
        (f) => {
          scan.run(f);
          return Promise.resolve();
        },
      );
      return { ports: scan.ports, diagnostics };
    } finally {
      for (const p of parsed) p.tree.delete();
    }
  },
};
