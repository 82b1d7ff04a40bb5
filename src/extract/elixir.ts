// Elixir extractor: Phoenix router scopes and routes. No tree-sitter grammar
// for Elixir ships with the package, so this is a small single-pass
// tokenizer (no regular expressions on the input, linear time) plus a
// do/end block tracker. See the limits in the extractor's documentation.
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "./_extractor.ts";
import type { ExtractedPort, PortOwner } from "./types.ts";
import { httpBoundaryKey } from "../boundary/http_path.ts";
import { HTTP_VERBS, joinPaths } from "./_more_common.ts";
import { moduleOwner } from "./_owner.ts";

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
  readonly ports: ExtractedPort[];
  readonly frames: Frame[] = [];
  readonly attributes = new Map<string, string>();
  owner: PortOwner;

  constructor(file: SourceFile, ports: ExtractedPort[]) {
    this.file = file;
    this.ports = ports;
    this.owner = moduleOwner(file.path);
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
      this.frames.push({ prefix: "" });
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
      if (block) this.frames.push({ prefix: path });
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

  emit(
    at: Token,
    verbs: readonly string[],
    path: string,
    derived = false,
  ): void {
    const prefixes = this.frames.map((f) => f.prefix).filter((p) =>
      p !== "" && p !== "/"
    );
    const full = joinPaths(...prefixes, path);
    const confidence = prefixes.length > 0 || derived ? 0.95 : 1;
    for (const verb of verbs) {
      let key: string;
      try {
        key = httpBoundaryKey(verb, full);
      } catch {
        continue;
      }
      this.ports.push({
        ref: {
          mechanism: "http",
          role: "server",
          key,
          line: at.line,
          col: at.col,
          confidence,
          detail: { method: verb, path: full, framework: "phoenix" },
        },
        owner: this.owner,
        filePath: this.file.path,
      });
    }
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
 * attributes holding a literal path (`@api "/api"`, `scope @api do`).
 *
 * Limits: there is no Elixir parser; a single-pass tokenizer follows
 * `do`/`end` and `fn`/`end` nesting line by line. Paths computed at compile
 * time (function calls, string concatenation, macros that generate routes),
 * `forward` mounts and routes in `do:` one-liners (`scope "/x", do: get
 * ...`) are not followed. Client calls are not extracted.
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
    const ports: ExtractedPort[] = [];
    for (const file of files) {
      if (
        !file.text.includes("Phoenix.Router") && !file.text.includes(":router")
      ) continue;
      try {
        new RouterScan(file, ports).run(tokenizeElixir(file.text));
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
    return Promise.resolve({ ports, diagnostics });
  },
};
