// Phoenix router files: `scope`, `pipe_through`, verb macros, `resources`,
// `live`, `forward` and the `do`/`end` blocks that nest them, read from the
// token stream.
import { HTTP_VERBS, resourceActions } from "../_port/http.ts";
import { moduleOwner } from "../_syntax/owner.ts";
import { CONFIDENCE } from "../_value/mod.ts";
import { joinRoute } from "./project.ts";
import type { Token } from "./tokenizer.ts";
import type { PortOwner } from "../types.ts";
import type { SourceFile } from "../extractor.ts";

export interface Frame {
  /** Path contributed by this block (`scope "/api"`, nested resources). */
  prefix: string;
  /** A `fn` block (closed by `end`, no statement). */
  fn?: boolean;
  /** Module alias of a `scope "/x", MyAppWeb` block. */
  alias?: string;
  /** The module a `defmodule` block defines. */
  module?: string;
  /** An `if`/`unless` block on `Mix.env()` or `:dev_routes` (development only). */
  dev?: boolean;
  /** A `defmacro` block: its routes are read where the macro is called. */
  macro?: { name: string; start: number };
}

/** A route found in a router module, before forward mounts are applied. */
export interface Route {
  at: Token;
  /** `phoenix` or `plug` (a `Plug.Router` module). */
  framework: string;
  verb: string;
  path: string;
  confidence: number;
  owner: PortOwner;
  filePath: string;
}

/** `forward "/path", Plug` in a router module. */
export interface Forward {
  at: Token;
  framework: string;
  /** Full path of the mount in its router (enclosing scopes applied). */
  path: string;
  /** Module names the plug may be (scope alias applied first). */
  candidates: string[];
  /** The plug as written. */
  plug: string;
  /** Inside a development-only block. */
  dev: boolean;
  owner: PortOwner;
  filePath: string;
}

/** What one module of the scan holds. */
export interface ModuleInfo {
  router: boolean;
  /** A `Plug.Router` module (else Phoenix). */
  plug?: boolean | undefined;
  routes: Route[];
  forwards: Forward[];
}

/** Phoenix's resource actions: name, method, path suffix. */
export const RESOURCE_ACTIONS: ReadonlyArray<[string, string, string]> =
  resourceActions({ names: { destroy: "delete" }, member: "/:id" });

/** The most nested `do` blocks a route is read in (real routers nest a few). */
export const MAX_BLOCK_DEPTH = 64;

/** Most tokens read again for the macro calls of one file. */
export const MAX_MACRO_TOKENS = 200_000;

/** Reads the routes and forwards of one router file. */
export class RouterScan {
  readonly file: SourceFile;
  readonly modules: Map<string, ModuleInfo>;
  readonly frames: Frame[] = [];
  readonly attributes = new Map<string, string>();
  readonly aliases = new Map<string, string>();
  owner: PortOwner;
  /** Whether routes nested deeper than `MAX_BLOCK_DEPTH` were skipped. */
  skippedDeep = false;
  /** `defmacro` bodies of the file, by name. */
  readonly macros = new Map<string, Token[]>();
  /** `unquote(x)` values while a macro call is read. */
  bindings = new Map<string, Token>();
  /** The keyword arguments of the macro call being read. */
  callArguments: Map<string, Token> | undefined;
  /** Tokens read again for macro calls so far (bounded). */
  #replayed = 0;
  #tokens: readonly Token[] = [];
  #at = 0;

  constructor(file: SourceFile, modules: Map<string, ModuleInfo>) {
    this.file = file;
    this.modules = modules;
    this.owner = moduleOwner(file.path);
  }

  /** The module the scan is in (`""` outside any `defmodule`). */
  module(): ModuleInfo {
    let name = "";
    for (let k = this.frames.length - 1; k >= 0; k--) {
      const module = this.frames[k]!.module;
      if (module !== undefined) {
        name = module;
        break;
      }
    }
    let info = this.modules.get(name);
    if (!info) {
      this.modules.set(
        name,
        info = { router: false, routes: [], forwards: [] },
      );
    }
    return info;
  }

  run(tokens: readonly Token[]): void {
    const outer = [this.#tokens, this.#at] as const;
    this.#tokens = tokens;
    try {
      this.#run(tokens);
    } finally {
      [this.#tokens, this.#at] = outer;
    }
  }

  #run(tokens: readonly Token[]): void {
    let statement: Token[] = [];
    let depth = 0; // ( [ { nesting
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k]!;
      this.#at = k;
      if (t.type === "punct") {
        if (t.text === "(" || t.text === "[" || t.text === "{") depth++;
        else if (t.text === ")" || t.text === "]" || t.text === "}") {
          depth = Math.max(0, depth - 1);
        }
      }
      if (t.type === "newline") {
        const last = statement[statement.length - 1];
        if (depth > 0 || last?.text === "," || last?.type === "key") continue;
        this.statement(statement, false);
        statement = [];
        continue;
      }
      if (t.type === "word" && t.text === "fn") {
        this.frames.push({ prefix: "", fn: true });
        statement.push(t);
        continue;
      }
      if (t.type === "word" && t.text === "do" && depth === 0) {
        this.statement(statement, true);
        statement = [];
        continue;
      }
      if (t.type === "word" && t.text === "end") {
        if (this.frames[this.frames.length - 1]?.fn) {
          this.frames.pop();
          statement.push(t);
          continue;
        }
        this.statement(statement, false);
        const macro = this.frames.pop()?.macro;
        if (macro && !this.macros.has(macro.name)) {
          this.macros.set(macro.name, tokens.slice(macro.start, k));
        }
        statement = [];
        depth = 0;
        continue;
      }
      statement.push(t);
    }
    this.statement(statement, false);
  }

  /** Handles one statement; `block` when it opens a `do ... end` block. */
  statement(tokens: readonly Token[], block: boolean): void {
    if (this.bindings.size > 0) tokens = this.#unquoted(tokens);
    if (!block) {
      // `scope "/x", X, do: get "/y", C, :a`: the head opens a block that
      // holds the statement after `do:`
      let depth = 0;
      for (let k = 1; k < tokens.length; k++) {
        const t = tokens[k]!;
        if (t.type === "punct") {
          if (t.text === "(" || t.text === "[" || t.text === "{") depth++;
          else if (t.text === ")" || t.text === "]" || t.text === "}") depth--;
        } else if (depth === 0 && t.type === "key" && t.text === "do") {
          this.statement(tokens.slice(0, k), true);
          this.statement(tokens.slice(k + 1), false);
          this.frames.pop();
          return;
        }
      }
    }
    if (tokens[1]?.text === "(" && tokens[tokens.length - 1]?.text === ")") {
      // `scope("/b", do: ...)`: the call's parentheses hold the whole statement
      let depth = 0;
      let closes = -1;
      for (let k = 1; k < tokens.length && closes === -1; k++) {
        const t = tokens[k]!;
        if (t.type !== "punct") continue;
        if (t.text === "(" || t.text === "[" || t.text === "{") depth++;
        else if (
          (t.text === ")" || t.text === "]" || t.text === "}") && --depth === 0
        ) closes = k;
      }
      if (closes === tokens.length - 1 && tokens.length > 2) {
        this.statement([tokens[0]!, ...tokens.slice(2, -1)], block);
        return;
      }
    }
    const head = tokens[0];
    if (!head) {
      if (block) this.frames.push({ prefix: "" });
      return;
    }
    const args = tokens.slice(1).filter((t) =>
      t.type !== "punct" || (t.text !== "(" && t.text !== ")" && t.text !== ",")
    );
    const word = head.type === "word" ? head.text : "";
    if (word === "defmacro" && block) {
      const name = args[0]?.type === "word" ? args[0].text : "";
      this.frames.push({
        prefix: "",
        macro: { name, start: this.#at + 1 },
      });
      return;
    }
    if (!block && this.macros.has(word) && !this.#inMacro()) {
      this.#callMacro(word, args);
      return;
    }
    if (
      !block && this.callArguments && tokens[1]?.text === "=" &&
      tokens[2]?.text === "Keyword.get"
    ) {
      // `scoped = Keyword.get(options, :scope, "/admin")` in a macro
      const key = args.find((t) => t.type === "atom");
      const value = key && this.callArguments.get(key.text);
      const fallback = args[args.indexOf(key!) + 1];
      const bound = value ?? fallback;
      if (head?.type === "word" && bound) this.bindings.set(head.text, bound);
      return;
    }
    if (word === "defmodule" && block) {
      const name = args.find((t) => t.type === "word")?.text ?? "";
      this.owner = {
        kind: "class",
        name,
        qualifiedName: `${this.file.path}::${name}`,
        filePath: this.file.path,
      };
      this.frames.push({ prefix: "", module: name });
      return;
    }
    if (word === "use") {
      const first = args[0];
      if (
        first?.type === "word" &&
        (first.text === "Phoenix.Router" ||
          (args[1]?.type === "atom" && args[1].text === "router"))
      ) this.module().router = true;
      if (first?.type === "word" && first.text === "Plug.Router") {
        this.module().router = true;
        this.module().plug = true;
      }
    }
    if (word === "alias" && !block) {
      const first = args[0];
      if (first?.type === "word" && args.length === 1) {
        const last = first.text.slice(first.text.lastIndexOf(".") + 1);
        this.aliases.set(last, first.text);
      } else if (first?.type === "word") {
        const as = args.findIndex((t) => t.type === "key" && t.text === "as");
        const value = as === -1 ? undefined : args[as + 1];
        if (value?.type === "word") this.aliases.set(value.text, first.text);
      }
      return;
    }
    if ((word === "if" || word === "unless") && block) {
      const dev = args.some((t) =>
        (t.type === "word" && t.text.startsWith("Mix.env")) ||
        (t.type === "atom" && t.text === "dev_routes")
      );
      this.frames.push({ prefix: "", dev });
      return;
    }
    if (word === "forward" && !block) {
      this.forward(head, args);
      return;
    }
    if (word.startsWith("@") && !block) {
      const value = args[0];
      if (value?.type === "string" && !value.interpolated) {
        this.attributes.set(word, value.text);
      }
      return;
    }
    if (word === "scope") {
      const path = this.pathArg(args) ?? this.keyword(args, "path") ?? "";
      if (block) {
        // scope "/x", Alias / scope Alias / scope path: "/x", alias: Alias
        const positional = args[0]?.type === "word" &&
            !args[0].text.startsWith("@")
          ? args[0]
          : args[1];
        const keyed = args.findIndex((t) =>
          t.type === "key" && t.text === "alias"
        );
        const aliasToken = positional?.type === "word" &&
            !positional.text.startsWith("@")
          ? positional
          : keyed === -1
          ? undefined
          : args[keyed + 1];
        const frame: Frame = { prefix: path };
        if (aliasToken?.type === "word" && /^[A-Z]/.test(aliasToken.text)) {
          frame.alias = aliasToken.text;
        }
        this.frames.push(frame);
      }
      return;
    }
    if (word === "resources") {
      this.resources(head, args, block);
      return;
    }
    if (word === "live_dashboard") {
      // Phoenix.LiveDashboard's `live "/"`, `live "/:page"`, `live "/:node/:page"`
      const path = this.pathArg(args);
      if (path !== undefined) {
        for (const page of ["", "/:page", "/:node/:page"]) {
          this.emit(head, ["GET"], path + page, true);
        }
      }
    } else if (HTTP_VERBS.has(word) || word === "live") {
      const path = this.pathArg(args);
      if (path !== undefined) {
        this.emit(head, [word === "live" ? "GET" : word.toUpperCase()], path);
      }
    } else if (word === "query" && this.module().plug) {
      // Plug.Router's `query/2` (RFC 10008)
      const path = this.pathArg(args);
      if (path !== undefined) this.emit(head, ["QUERY"], path);
    } else if (word === "match" && args[0]?.type === "string") {
      // Plug.Router: `match "/x", via: [:post, :put]` (no `via:`: any method)
      const path = this.pathArg(args)!;
      const via = this.atoms(args, "via");
      const verbs = via === undefined
        ? ["ANY"]
        : via.map((v) => v.toUpperCase()).filter((v) =>
          HTTP_VERBS.has(v.toLowerCase()) || v === "QUERY"
        );
      if (verbs.length > 0) this.emit(head, verbs, path);
    } else if (word === "match") {
      const verb = args[0];
      const path = this.pathArg(args.slice(1));
      if (verb?.type === "atom" && path !== undefined) {
        const v = verb.text === "*" ? "ANY" : verb.text.toUpperCase();
        this.emit(head, [v], path);
      }
    }
    if (block) this.frames.push({ prefix: "" });
  }

  /** Whether the scan is in a `defmacro` definition. */
  #inMacro(): boolean {
    return this.frames.some((f) => f.macro);
  }

  /** `admin_routes(scope: "/x")`: the macro's routes, here. */
  #callMacro(name: string, args: readonly Token[]): void {
    const body = this.macros.get(name)!;
    // macros calling each other twice over would read exponentially many
    if (this.#replayed + body.length > MAX_MACRO_TOKENS) return;
    this.#replayed += body.length;
    const given = new Map<string, Token>();
    for (let k = 0; k < args.length - 1; k++) {
      if (args[k]!.type === "key") given.set(args[k]!.text, args[k + 1]!);
    }
    const saved = [
      this.bindings,
      this.callArguments,
      this.frames.length,
    ] as const;
    this.bindings = new Map();
    this.callArguments = given;
    // a macro calling itself is read once
    this.macros.delete(name);
    try {
      this.run(body);
    } finally {
      this.macros.set(name, body);
      [this.bindings, this.callArguments] = saved;
      this.frames.length = Math.min(this.frames.length, saved[2]);
    }
  }

  /** `unquote(x)` replaced by the value bound to `x`. */
  #unquoted(tokens: readonly Token[]): Token[] {
    const out: Token[] = [];
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k]!;
      const bound = t.text === "unquote" && tokens[k + 1]?.text === "(" &&
          tokens[k + 3]?.text === ")"
        ? this.bindings.get(tokens[k + 2]!.text)
        : undefined;
      if (bound) {
        out.push({ ...bound, line: t.line, col: t.col });
        k += 3;
      } else out.push(t);
    }
    return out;
  }

  /** The first argument as a path: a string or a module attribute. */
  pathArg(args: readonly Token[]): string | undefined {
    const first = args[0];
    if (first?.type === "string") return first.text;
    if (first?.type === "word" && first.text.startsWith("@")) {
      return this.attributes.get(first.text);
    }
    return undefined;
  }

  keyword(args: readonly Token[], key: string): string | undefined {
    for (let k = 0; k < args.length - 1; k++) {
      if (args[k]!.type === "key" && args[k]!.text === key) {
        const value = args[k + 1]!;
        return value.type === "string" ? value.text : undefined;
      }
    }
    return undefined;
  }

  /** Atoms of `key: [:a, :b]` (or one `key: :a`), or undefined. */
  atoms(args: readonly Token[], key: string): string[] | undefined {
    for (let k = 0; k < args.length - 1; k++) {
      if (args[k]!.type !== "key" || args[k]!.text !== key) continue;
      const out: string[] = [];
      let j = k + 1;
      if (args[j]?.text === "[") {
        for (j++; j < args.length && args[j]!.text !== "]"; j++) {
          if (args[j]!.type === "atom") out.push(args[j]!.text);
        }
      } else if (args[j]?.type === "atom") out.push(args[j]!.text);
      return out;
    }
    return undefined;
  }

  resources(head: Token, args: readonly Token[], block: boolean): void {
    const path = this.pathArg(args);
    if (path === undefined) {
      if (block) this.frames.push({ prefix: "" });
      return;
    }
    const only = this.atoms(args, "only");
    const except = this.atoms(args, "except") ?? [];
    const singleton = args.some((t, k) =>
      t.type === "key" && t.text === "singleton" && args[k + 1]?.text === "true"
    );
    for (const [action, verb, suffix] of RESOURCE_ACTIONS) {
      if (only && !only.includes(action)) continue;
      if (except.includes(action)) continue;
      if (singleton && action === "index") continue;
      const s = singleton ? suffix.replace("/:id", "") : suffix;
      this.emit(head, [verb], path + s, true);
    }
    if (block) {
      const name = path.split("/").filter((s) => s !== "").pop() ?? "id";
      const param = name.endsWith("s") ? name.slice(0, -1) : name;
      this.frames.push({
        prefix: singleton ? path : `${path}/:${param}_id`,
      });
    }
  }

  /** `forward "/admin", AdminRouter` (and `forward "/x", Plug, opts`). */
  forward(head: Token, args: readonly Token[]): void {
    if (this.#tooDeep() || this.#inMacro()) return;
    const module = this.module();
    if (!module.router) return;
    const path = this.pathArg(args);
    // Phoenix: `forward "/x", Plug`; Plug.Router: `forward "/x", to: Plug`
    const to = args.findIndex((t) => t.type === "key" && t.text === "to");
    const plug = args[1]?.type === "key" && to !== -1 ? args[to + 1] : args[1];
    if (
      path === undefined || plug?.type !== "word" || !/^[A-Z]/.test(plug.text)
    ) return;
    const candidates: string[] = [];
    const alias = this.frames.map((f) => f.alias).filter((a) => a).join(".");
    if (alias) candidates.push(`${alias}.${plug.text}`);
    const dot = plug.text.indexOf(".");
    const first = dot === -1 ? plug.text : plug.text.slice(0, dot);
    const aliased = this.aliases.get(first);
    if (aliased) candidates.push(aliased + plug.text.slice(first.length));
    candidates.push(plug.text);
    module.forwards.push({
      at: head,
      framework: module.plug ? "plug" : "phoenix",
      path: joinRoute(...this.prefixes(), path),
      candidates,
      plug: plug.text,
      dev: this.frames.some((f) => f.dev),
      owner: this.owner,
      filePath: this.file.path,
    });
  }

  /**
   * Whether the scan is inside more than `MAX_BLOCK_DEPTH` blocks, where
   * routes are skipped (and `skippedDeep` set): each route's path spans every
   * enclosing scope, so thousands of routes under thousands of scopes would
   * print a quadratic report.
   */
  #tooDeep(): boolean {
    if (this.frames.length <= MAX_BLOCK_DEPTH) return false;
    this.skippedDeep = true;
    return true;
  }

  prefixes(): string[] {
    return this.frames.map((f) => f.prefix).filter((p) =>
      p !== "" && p !== "/"
    );
  }

  emit(
    at: Token,
    verbs: readonly string[],
    path: string,
    derived = false,
  ): void {
    if (this.#tooDeep() || this.#inMacro()) return;
    const prefixes = this.prefixes();
    const full = joinRoute(...prefixes, path);
    const confidence = prefixes.length > 0 || derived
      ? CONFIDENCE.composed
      : CONFIDENCE.literal;
    const module = this.module();
    for (const verb of verbs) {
      module.routes.push({
        at,
        framework: module.plug ? "plug" : "phoenix",
        verb,
        path: full,
        confidence,
        owner: this.owner,
        filePath: this.file.path,
      });
    }
  }
}

/** Confidence of a `forward` to a plug that is not a router of the scan. */
