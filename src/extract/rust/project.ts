// Rust extractor: axum routers (`.route(path, get(h).post(h2))`, `.nest`,
// `.merge`), actix-web (`#[get("/x")]` handlers, `web::resource`,
// `web::scope`, `.service`, `.configure`), Rocket (`#[get("/x")]` handlers
// mounted with `.mount("/api", routes![...])`) and reqwest/awc clients.
import type { Node, Tree } from "web-tree-sitter";
import type { SourceFile } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import type { Value } from "../_value/mod.ts";
import {
  composed,
  concat,
  exactText,
  formatRust,
  hole,
  joinPaths,
  keyText,
  literal,
} from "../_value/mod.ts";
import { HTTP_METHODS, HTTP_VERBS, routePorts } from "../_port/http.ts";
import {
  evaluateConcatenation,
  evaluateStringNode,
  literalString,
} from "../_value/literals.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { namedChildren, walk } from "../_syntax/tree.ts";
import { crateOf } from "./rocket.ts";
import { formatMacro, parameterValue, RustCalls } from "./flow.ts";
import { fieldType, paramType } from "./clients.ts";
import {
  argsOf,
  callSite,
  chainRoot,
  lastSegment,
  methodCall,
  unwrap,
} from "./nodes.ts";
import { prefixes, rootPrefixes } from "./mounts.ts";
import { scanFile } from "./scan_file.ts";

export const AXUM_METHODS = new Set([...HTTP_VERBS, "trace", "any"]);
export const ACTIX_ATTRIBUTES = new Set([...HTTP_VERBS, "route"]);
/** The request methods of reqwest and awc clients. */
export const CLIENT_VERBS: ReadonlySet<string> = new Set(
  [...HTTP_VERBS].filter((v) => v !== "options"),
);
export const MAX_DEPTH = 12;

/** The crates a Rust file uses, as its `use` declarations and paths tell. */
export interface RustCrates {
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

/** One Rust file of a scan, with the crates it uses. */
export interface RustFile extends RustCrates {
  file: SourceFile;
  tree: Tree;
  /** Trees of its `vec![...]` bodies, at the file's positions. */
  macros: Tree[];
}

/** Where a `routes![...]` list names a handler, and the prefix it gets. */
export interface RocketMount {
  /** The path segments before the handler name (`users` in `users::show`). */
  qualifier: string[];
  /** The file of the `routes!` invocation. */
  site: RustFile;
  prefix: Value;
}

/** A method call `receiver.name(..)` of a scanned file. */
export interface MethodSite {
  call: Node;
  name: string;
  receiver: Node;
}

/** The Rust files of a scan root: constants, uses of functions, mounts. */
export class RustScan {
  readonly files: RustFile[];
  readonly constants: Map<string, Value>;
  readonly ports: ExtractedPort[] = [];
  readonly useIndex = new Map<string, Node[]>();
  readonly memo = new Map<string, Value[]>();
  readonly byTree = new Map<unknown, RustFile>();
  indexed = false;
  /** Handler name → where `routes!` lists mount it (built on first use). */
  mounts: Map<string, RocketMount[]> | undefined;
  /** Crates (see `crateOf`) with `#[macro_use] extern crate rocket`. */
  readonly rocketCrates = new Set<string>();
  /** Whether some file of the scan names the `rocket` crate. */
  readonly anyRocket: boolean;

  constructor(files: RustFile[], constants: Map<string, Value>) {
    this.files = files;
    this.constants = constants;
    for (const f of files) {
      this.byTree.set(f.tree, f);
      for (const t of f.macros) this.byTree.set(t, f);
      if (f.rocketMacros) this.rocketCrates.add(crateOf(f.file.path));
    }
    this.anyRocket = files.some((f) => f.rocket);
  }

  /**
   * Identifiers named `name` used as a call's function (`api()`,
   * `users::routes()`) or registered with `.service(h)`/`.configure(f)`,
   * across the scan. The index is built in one walk on first use.
   */
  uses(name: string): Node[] {
    if (!this.indexed) {
      this.indexed = true;
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
          let list = this.useIndex.get(n.text);
          if (!list) this.useIndex.set(n.text, list = []);
          list.push(n);
        });
      }
    }
    return this.useIndex.get(name) ?? [];
  }

  /**
   * The uses of the function `name` defined in `home` (see `uses`), also
   * under the names `use ...module::name as alias` gives it.
   */
  usesOf(name: string, home: RustFile): Node[] {
    const out = this.uses(name).filter((u) => this.refersTo(u, home));
    const module = moduleName(home.file.path);
    const alias = new RegExp(`\\b${name}\\s+as\\s+(\\w+)`, "g");
    const fromModule = new RegExp(`\\b${module}::`);
    for (const f of this.files) {
      for (const text of f.useTexts) {
        if (!fromModule.test(text)) continue;
        for (const m of text.matchAll(alias)) {
          for (const u of this.uses(m[1]!)) {
            if (
              this.fileOf(u) === f && u.parent?.type !== "scoped_identifier"
            ) {
              out.push(u);
            }
          }
        }
      }
    }
    return out;
  }

  /** The values remembered under `key`, computed by `compute` once. */
  remember(key: string, compute: () => Value[]): Value[] {
    const cached = this.memo.get(key);
    if (cached) return cached;
    const result = compute();
    this.memo.set(key, result);
    return result;
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
        if (name === "format" && tokens) {
          const formatted = formatMacro(this, tokens, depth);
          if (formatted) return formatted;
        }
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
        if (c) return composed(c);
        return (n.type === "identifier"
          ? parameterValue(this.enclosingFunction(n), n.text)
          : undefined) ?? hole(n.text);
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
        if (m && (m.name === "concat" || m.name === "join")) {
          // `[base, "/admin"].concat()`, `["/api", v].join("")`
          const array = unwrap(m.receiver);
          const sep = m.name === "join" ? argsOf(n)[0] : undefined;
          if (
            array.type === "array_expression" &&
            (!sep || exactText(this.evaluate(sep, depth + 1)) === "")
          ) {
            return concat(
              namedChildren(array).map((e) => this.evaluate(e, depth + 1)),
            );
          }
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

  /** The value a name has at a node: a `let`, a constant or a parameter. */
  nameValue(name: string, at: Node, depth: number): Value {
    const local = this.letValue(name, at);
    if (local) return composed(this.evaluate(local, depth + 1));
    const c = this.constants.get(name);
    if (c) return composed(c);
    return parameterValue(this.enclosingFunction(at), name) ?? hole(name);
  }

  /** The calls `x.name(...)` of a method name across the scan. */
  methodCalls(name: string): Node[] {
    if (!this.#methodCalls) {
      const index = new Map<string, Node[]>();
      for (const f of this.files) {
        walk(f.tree.rootNode, (n) => {
          const m = methodCall(n);
          if (!m) return;
          const list = index.get(m.name);
          if (list) list.push(n);
          else index.set(m.name, [n]);
        });
      }
      this.#methodCalls = index;
    }
    return this.#methodCalls.get(name) ?? [];
  }
  #methodCalls: Map<string, Node[]> | undefined;

  /** The calls of the scan's functions (for values through parameters). */
  get calls(): RustCalls {
    return this.#calls ??= new RustCalls(this);
  }
  #calls: RustCalls | undefined;

  /** The type of a receiver: declared, or built by `T::new()`/`T { .. }`. */
  typeOf(receiver: Node): string | undefined {
    const r = unwrap(receiver);
    if (r.type === "identifier") {
      const value = this.letValue(r.text, r);
      if (!value) return paramType(this, r);
      const root = chainRoot(value);
      const fn = root.type === "call_expression"
        ? root.childForFieldName("function")
        : root.type === "struct_expression"
        ? root.childForFieldName("name")
        : undefined;
      return fn?.text.replace(/::(new|default|builder)$/, "");
    }
    if (
      r.type === "field_expression" &&
      r.childForFieldName("value")?.text === "self"
    ) {
      const f = this.fileOf(r);
      return f
        ? fieldType(f, r.childForFieldName("field")?.text ?? "")
        : undefined;
    }
    return undefined;
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

  /** The scanned file a node belongs to. */
  fileOf(node: Node): RustFile | undefined {
    return this.byTree.get(node.tree);
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
      // `use crate::todo::controllers as td;` ... `td::init_routes`
      const owner = parentModule(home.file.path);
      const aliased = from?.useTexts.some((text) =>
        new RegExp(`(^|::|\\s)${owner}${module}\\s+as\\s+${segment}\\b`)
          .test(text)
      );
      return segment === module || aliased === true;
    }
    if (from === home) return true;
    if (!from) return false;
    return from.useTexts.some((text) =>
      text.includes(`${module}::`) &&
      text.split(/[^A-Za-z0-9_]+/).includes(use.text)
    );
  }

  run(f: RustFile): void {
    scanFile(this, f);
  }

  methodFilter(node: Node | undefined): string | undefined {
    const v = lastSegment(node).toUpperCase();
    return HTTP_METHODS.has(v) ? v : undefined;
  }

  emitServer(
    f: RustFile,
    at: Node,
    pathArg: Node,
    verbs: readonly string[],
    framework: string,
    chainStart: Node = at,
  ): void {
    this.emitServerPath(
      f,
      at,
      this.evaluate(pathArg),
      verbs,
      framework,
      chainStart,
    );
  }

  /** {@linkcode emitServer} for a path already evaluated. */
  emitServerPath(
    f: RustFile,
    at: Node,
    path: Value,
    verbs: readonly string[],
    framework: string,
    chainStart: Node = at,
  ): void {
    const own = rootPrefixes(this, chainRoot(chainStart), 0);
    const above = prefixes(this, at);
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
    this.ports.push(...routePorts({
      methods: verbs,
      path: composed,
      prefixed,
      node,
      owner: ownerOf(at, f.file.path, "rust"),
      filePath: f.file.path,
      framework,
      seen,
    }));
  }

  /** Whether a file's unqualified attributes may be Rocket's. */
  rocketFile(f: RustFile): boolean {
    return f.rocket || this.rocketCrates.has(crateOf(f.file.path));
  }
}

/** Whether a prefix adds a path segment (not empty, not just `/`). */
export function hasPath(prefix: Value): boolean {
  return prefix.parts.some((p) =>
    typeof p !== "string" || p.replaceAll("/", "") !== ""
  );
}

/** Distinct prefixes (by their text). */
export function dedupe(list: readonly Value[]): Value[] {
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
export function moduleName(path: string): string {
  const parts = path.split("/");
  const file = parts[parts.length - 1] ?? "";
  const stem = file.endsWith(".rs") ? file.slice(0, -3) : file;
  if (stem === "main" || stem === "lib") return "crate";
  if (stem === "mod") return parts[parts.length - 2] ?? stem;
  return stem;
}

/**
 * The module a file's module sits in, as a `use` path names it before the
 * file's own module: `todo::` for `src/todo/controllers.rs`, `` at the crate
 * root.
 */
function parentModule(path: string): string {
  const parts = path.split("/");
  const offset = parts[parts.length - 1] === "mod.rs" ? 3 : 2;
  const dir = parts[parts.length - offset];
  return dir === undefined || dir === "src" ? "" : `${dir}::`;
}

/** `const X: &str = "..."` and `static X: &str = "..."`. */
export function collectConstants(
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

export function usedCrates(root: Node): RustCrates {
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
