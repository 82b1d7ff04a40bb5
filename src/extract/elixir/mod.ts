// Elixir extractor: Phoenix router scopes and routes. No tree-sitter grammar
// for Elixir ships with the package, so this is a small single-pass
// tokenizer (no regular expressions on the input, linear time) plus a
// do/end block tracker. See the limits in the extractor's documentation.
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import type { ExtractedPort, PortOwner } from "../types.ts";
import { httpBoundaryKey } from "../../boundary/http_path.ts";
import { CONFIDENCE, joinPaths, routePath } from "../_value/mod.ts";
import { HTTP_VERBS } from "../_port/http.ts";
import { moduleOwner } from "../_syntax/owner.ts";

type TokenType = "string" | "atom" | "word" | "key" | "punct" | "newline";

interface Token {
  type: TokenType;
  text: string;
  line: number;
  col: number;
  /** A string with `#{...}` interpolation. */
  interpolated?: boolean;
}

function isWordStart(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_" ||
    c === "@";
}

function isWordChar(c: string): boolean {
  return isWordStart(c) || (c >= "0" && c <= "9") || c === "?" || c === "!" ||
    c === ".";
}

/**
 * Splits Elixir source into the tokens a router needs. Comments, charlists,
 * sigils and heredocs are skipped; strings keep their text (an
 * interpolation is marked). Every character is visited once.
 */
export function tokenizeElixir(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const n = text.length;
  const push = (
    type: TokenType,
    value: string,
    start: number,
    at: number,
    interpolated = false,
  ): void => {
    const token: Token = {
      type,
      text: value,
      line: at,
      col: start - lineStart + 1,
    };
    if (interpolated) token.interpolated = true;
    tokens.push(token);
  };
  /** Skips a quoted body ending with `quote`; returns [value, interpolated]. */
  const readQuoted = (quote: string): [string, boolean] => {
    let value = "";
    let interpolated = false;
    while (i < n) {
      const c = text[i]!;
      if (c === "\\" && i + 1 < n) {
        value += text[i + 1];
        i += 2;
        continue;
      }
      if (c === "\n") {
        line++;
        lineStart = i + 1;
      }
      if (c === quote) {
        i++;
        return [value, interpolated];
      }
      if (c === "#" && text[i + 1] === "{") {
        interpolated = true;
        let depth = 0;
        while (i < n) {
          const d = text[i]!;
          if (d === "\n") {
            line++;
            lineStart = i + 1;
          }
          if (d === "{") depth++;
          else if (d === "}" && --depth === 0) {
            i++;
            break;
          }
          i++;
        }
        value += "{}";
        continue;
      }
      value += c;
      i++;
    }
    return [value, interpolated];
  };
  while (i < n) {
    const c = text[i]!;
    if (c === "\n") {
      push("newline", "\n", i, line);
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "#") {
      while (i < n && text[i] !== "\n") i++;
      continue;
    }
    if (c === '"') {
      const start = i;
      const startLine = line;
      if (text.startsWith('"""', i)) {
        // Heredoc: skip to the closing triple quote.
        i += 3;
        while (i < n && !text.startsWith('"""', i)) {
          if (text[i] === "\n") {
            line++;
            lineStart = i + 1;
          }
          i++;
        }
        i += 3;
        continue;
      }
      i++;
      const [value, interpolated] = readQuoted('"');
      push("string", value, start, startLine, interpolated);
      continue;
    }
    if (c === "'") {
      i++;
      readQuoted("'");
      continue;
    }
    if (c === "~" && i + 1 < n && isWordStart(text[i + 1]!)) {
      // Sigil: ~p"/x", ~r/.../, ~w(a b) ... skip its body.
      i += 2;
      const open = text[i] ?? "";
      const close = open === "("
        ? ")"
        : open === "["
        ? "]"
        : open === "{"
        ? "}"
        : open === "<"
        ? ">"
        : open;
      if (open) {
        i++;
        readQuoted(close);
      }
      while (i < n && isWordStart(text[i]!)) i++;
      continue;
    }
    if (c === ":" && text[i + 1] === "*") {
      push("atom", "*", i, line);
      i += 2;
      continue;
    }
    if (
      c === ":" && i + 1 < n &&
      (isWordStart(text[i + 1]!) || text[i + 1] === '"')
    ) {
      const start = i;
      i++;
      if (text[i] === '"') {
        i++;
        const [value] = readQuoted('"');
        push("atom", value, start, line);
      } else {
        const s = i;
        while (i < n && isWordChar(text[i]!)) i++;
        push("atom", text.slice(s, i), start, line);
      }
      continue;
    }
    if (isWordStart(c)) {
      const start = i;
      while (i < n && isWordChar(text[i]!)) i++;
      let word = text.slice(start, i);
      // Trailing dots belong to the next token (`Foo.` is rare).
      while (word.endsWith(".")) {
        word = word.slice(0, -1);
        i--;
      }
      if (
        text[i] === ":" &&
        (text[i + 1] === " " || text[i + 1] === "\n" || text[i + 1] === "\t")
      ) {
        i++;
        push("key", word, start, line);
      } else {
        push("word", word, start, line);
      }
      continue;
    }
    push("punct", c, i, line);
    i++;
  }
  return tokens;
}

interface Frame {
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
}

/** A route found in a router module, before forward mounts are applied. */
interface Route {
  at: Token;
  verb: string;
  path: string;
  confidence: number;
  owner: PortOwner;
  filePath: string;
}

/** `forward "/path", Plug` in a router module. */
interface Forward {
  at: Token;
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
interface ModuleInfo {
  router: boolean;
  routes: Route[];
  forwards: Forward[];
}

const RESOURCE_ACTIONS: ReadonlyArray<[string, string, string]> = [
  ["index", "GET", ""],
  ["edit", "GET", "/:id/edit"],
  ["new", "GET", "/new"],
  ["show", "GET", "/:id"],
  ["create", "POST", ""],
  ["update", "PATCH", "/:id"],
  ["update", "PUT", "/:id"],
  ["delete", "DELETE", "/:id"],
];

class RouterScan {
  readonly file: SourceFile;
  readonly modules: Map<string, ModuleInfo>;
  readonly frames: Frame[] = [];
  readonly attributes = new Map<string, string>();
  readonly aliases = new Map<string, string>();
  owner: PortOwner;

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
    let statement: Token[] = [];
    let depth = 0; // ( [ { nesting
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k]!;
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
        this.frames.pop();
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
    if (HTTP_VERBS.has(word) || word === "live") {
      const path = this.pathArg(args);
      if (path !== undefined) {
        this.emit(head, [word === "live" ? "GET" : word.toUpperCase()], path);
      }
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
    const module = this.module();
    if (!module.router) return;
    const path = this.pathArg(args);
    const plug = args[1];
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
      path: joinRoute(...this.prefixes(), path),
      candidates,
      plug: plug.text,
      dev: this.frames.some((f) => f.dev),
      owner: this.owner,
      filePath: this.file.path,
    });
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
    const prefixes = this.prefixes();
    const full = joinRoute(...prefixes, path);
    const confidence = prefixes.length > 0 || derived
      ? CONFIDENCE.composed
      : CONFIDENCE.literal;
    const module = this.module();
    for (const verb of verbs) {
      module.routes.push({
        at,
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
const FORWARD_PLUG_CONFIDENCE = CONFIDENCE.weak;

/** Route path texts joined, starting with a slash. */
function joinRoute(...texts: string[]): string {
  return routePath(joinPaths(...texts)).path;
}

function httpServerPort(
  at: Token,
  verb: string,
  path: string,
  confidence: number,
  owner: PortOwner,
  filePath: string,
  extra: Record<string, string> = {},
): ExtractedPort | undefined {
  let key: string;
  try {
    key = httpBoundaryKey(verb, path);
  } catch {
    return undefined;
  }
  return {
    ref: {
      mechanism: "http",
      role: "server",
      key,
      line: at.line,
      col: at.col,
      confidence,
      detail: { method: verb, path, framework: "phoenix", ...extra },
    },
    owner,
    filePath,
  };
}

interface Mount {
  prefix: string;
  /** The forward that mounts it (none for a router served at the root). */
  via?: Forward;
}

/**
 * Turns the routes and forwards of every module into ports: a router that
 * another router of the scan forwards to is served under each forward path
 * (and at the root only when an endpoint plugs it directly); a forward to
 * any other plug is one `ANY <path>/*` port.
 */
function resolvePorts(
  modules: Map<string, ModuleInfo>,
  endpointPlugs: ReadonlySet<string>,
): ExtractedPort[] {
  const routerNamed = (forward: Forward): string | undefined =>
    forward.candidates.find((c) => modules.get(c)?.router);
  const into = new Map<string, Forward[]>();
  for (const info of modules.values()) {
    for (const forward of info.forwards) {
      const target = routerNamed(forward);
      if (target === undefined) continue;
      let list = into.get(target);
      if (!list) into.set(target, list = []);
      list.push(forward);
    }
  }
  const from = new Map<Forward, string>();
  for (const [name, info] of modules) {
    for (const forward of info.forwards) from.set(forward, name);
  }
  const mountsOf = (name: string, seen: Set<string>): Mount[] => {
    const forwards = into.get(name);
    if (!forwards) return [{ prefix: "" }];
    if (seen.has(name)) return [];
    const next = new Set(seen).add(name);
    const mounts: Mount[] = endpointPlugs.has(name) ? [{ prefix: "" }] : [];
    for (const forward of forwards) {
      for (const outer of mountsOf(from.get(forward)!, next)) {
        mounts.push({
          prefix: joinRoute(outer.prefix, forward.path),
          via: forward,
        });
      }
    }
    return mounts;
  };
  const ports: ExtractedPort[] = [];
  for (const [name, info] of modules) {
    const mounts = mountsOf(name, new Set());
    for (const route of info.routes) {
      for (const mount of mounts) {
        const port = mount.via
          ? httpServerPort(
            route.at,
            route.verb,
            joinRoute(mount.prefix, route.path),
            Math.min(route.confidence, CONFIDENCE.composed),
            route.owner,
            route.filePath,
            {
              forward: mount.prefix,
              mountedAt: `${mount.via.filePath}:${mount.via.at.line}`,
            },
          )
          : httpServerPort(
            route.at,
            route.verb,
            route.path,
            route.confidence,
            route.owner,
            route.filePath,
          );
        if (port) ports.push(port);
      }
    }
    for (const forward of info.forwards) {
      if (routerNamed(forward) !== undefined || forward.dev) continue;
      for (const mount of mounts) {
        const path = joinRoute(mount.prefix, forward.path, "*path");
        const port = httpServerPort(
          forward.at,
          "ANY",
          path,
          FORWARD_PLUG_CONFIDENCE,
          forward.owner,
          forward.filePath,
          {
            forward: joinRoute(mount.prefix, forward.path),
            plug: forward.plug,
            ...(mount.via
              ? { mountedAt: `${mount.via.filePath}:${mount.via.at.line}` }
              : {}),
          },
        );
        if (port) ports.push(port);
      }
    }
  }
  return ports;
}

/** `plug MyAppWeb.Router` statements of Phoenix endpoints. */
function endpointPlugs(tokens: readonly Token[], into: Set<string>): void {
  let lineStart = true;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.type === "newline") {
      lineStart = true;
      continue;
    }
    if (lineStart && t.type === "word" && t.text === "plug") {
      const next = tokens[k + 1];
      if (next?.type === "word" && /^[A-Z]/.test(next.text)) {
        into.add(next.text);
      }
    }
    lineStart = false;
  }
}

/**
 * Extracts Phoenix router routes from Elixir files that `use` a router
 * (`use Phoenix.Router` or `use MyAppWeb, :router`).
 *
 * Understood: `scope "/api", MyAppWeb do ... end` (nested, prefixes
 * composed; `scope path: "/x"`), `get/post/put/patch/delete/options/head
 * "/x", Controller, :action`, `match :*` (`ANY`), `live "/x", Live` (GET),
 * `resources "/posts", C` (the eight Phoenix routes; `only:`/`except:`,
 * `singleton: true`, nested blocks under `/posts/:post_id`), and module
 * attributes holding a literal path (`@api "/api"`, `scope @api do`), and
 * `do:` one-liners (`scope "/x", X, do: get "/y", C, :a`).
 *
 * `forward "/admin", AdminRouter` (in a router module; the scope alias and
 * `alias` directives apply to the plug): when the plug is a router module
 * of the scan, its routes are reported under the forward path and the
 * enclosing scopes (confidence at most 0.95, `detail.forward` and
 * `detail.mountedAt`), once per forward that mounts it, and not at the
 * root, unless an endpoint of the scan (`use Phoenix.Endpoint`) also plugs
 * it directly (`plug AppWeb.AdminRouter`), in which case it is reported at
 * the root too. Any other plug (`forward "/graphql", Absinthe.Plug, opts`)
 * gives one `ANY <path>/*path` port (key `ANY /graphql/{}`) at confidence
 * 0.6 with `detail.plug`. Forwards inside a development-only block (`if
 * Mix.env() ...`, `if Application.compile_env(_, :dev_routes)`), such as
 * mailbox previews, are not reported.
 *
 * Limits: there is no Elixir parser; a single-pass tokenizer follows
 * `do`/`end` and `fn`/`end` nesting line by line. Paths computed at compile
 * time (function calls, string concatenation, macros that generate routes)
 * are not followed. Client calls are not extracted.
 *
 * @example Usage
 * ```ts
 * import { elixirExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `defmodule AppWeb.Router do
 *   use Phoenix.Router
 *   scope "/api", AppWeb do
 *     get "/users/:id", UserController, :show
 *   end
 * end`;
 * const { ports } = await elixirExtractor.extract([{ path: "lib/app_web/router.ex", text }]);
 * assert.equal(ports[0]?.ref.key, "GET /api/users/{}");
 * assert.equal(ports[0]?.ref.line, 4);
 * ```
 */
export const elixirExtractor: LanguageExtractor = {
  name: "elixir",
  accepts(path: string): boolean {
    return path.endsWith(".ex") || path.endsWith(".exs");
  },
  extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const diagnostics: ExtractDiagnostic[] = [];
    const modules = new Map<string, ModuleInfo>();
    const plugged = new Set<string>();
    for (const file of files) {
      const router = file.text.includes("Phoenix.Router") ||
        file.text.includes(":router");
      const endpoint = file.text.includes("Phoenix.Endpoint") ||
        file.text.includes(":endpoint");
      if (!router && !endpoint) continue;
      try {
        const tokens = tokenizeElixir(file.text);
        if (endpoint) endpointPlugs(tokens, plugged);
        if (!router) continue;
        // each file's modules are merged in only once the file is read
        const own = new Map<string, ModuleInfo>();
        new RouterScan(file, own).run(tokens);
        for (const [name, info] of own) {
          const known = modules.get(name);
          if (!known) modules.set(name, info);
          else {
            known.router ||= info.router;
            known.routes.push(...info.routes);
            known.forwards.push(...info.forwards);
          }
        }
      } catch (error) {
        diagnostics.push({
          filePath: file.path,
          severity: "error",
          message: `Cannot extract ports: ${
            error instanceof Error ? error.message : String(error)
          }`,
        });
      }
    }
    return Promise.resolve({
      ports: resolvePorts(modules, plugged),
      diagnostics,
    });
  },
};
