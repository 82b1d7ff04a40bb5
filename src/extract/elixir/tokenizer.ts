// A single-pass Elixir tokenizer for router files (no tree-sitter grammar for
// Elixir ships with the package): strings, atoms, words, keyword keys,
// punctuation and newlines; comments, charlists, sigils and heredocs are
// skipped. No regular expressions on the input; linear time.

export type TokenType =
  | "string"
  | "atom"
  | "word"
  | "key"
  | "punct"
  | "newline";

export interface Token {
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
