// C++ source as route macros and calls see it: comments blanked (offsets and
// lines kept), string literals read (`"a" "b"`, raw `R"(...)"`), the
// arguments of a call split at top-level commas, and the namespaces and
// classes around an offset.

/** The most calls read from one file (a bound on hostile input). */
export const MAX_CALLS = 5_000;

/** A call (or macro use) found in the text. */
export interface CppCall {
  /** The callee as written before `(`, e.g. `CROW_ROUTE` or `svr.Get`. */
  callee: string;
  /** Offset of the callee. */
  start: number;
  /** Offset just after the closing `)`. */
  end: number;
  /** The arguments, trimmed, as written. */
  args: string[];
}

/** The text with comments replaced by spaces (newlines kept). */
export function blankComments(text: string): string {
  const out = text.split("");
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") out[i++] = " ";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (; i < stop; i++) if (text[i] !== "\n") out[i] = " ";
    } else if (c === '"' || c === "'") {
      i = skipString(text, i);
    } else i++;
  }
  return out.join("");
}

/** The offset after the string or char literal (or raw string) at `i`. */
function skipString(text: string, i: number): number {
  if (text[i] === '"' && text[i - 1] === "R") {
    const open = text.indexOf("(", i);
    if (open > 0 && open - i <= 17) {
      const delimiter = text.slice(i + 1, open);
      const close = text.indexOf(`)${delimiter}"`, open);
      if (close >= 0) return close + delimiter.length + 2;
    }
  }
  const quote = text[i];
  let k = i + 1;
  while (k < text.length && text[k] !== quote && text[k] !== "\n") {
    k += text[k] === "\\" ? 2 : 1;
  }
  return k + 1;
}

/**
 * The value of an argument made only of string literals (`"/a"`,
 * `"/a" "/b"`, `R"(/x/(.*))"`, `u8"/x"`), else undefined.
 */
export function stringValue(arg: string): string | undefined {
  let rest = arg.trim();
  if (rest === "") return undefined;
  let out = "";
  while (rest !== "") {
    const raw = /^(?:u8|u|U|L)?R"([^(\s"\\]{0,16})\(/.exec(rest);
    if (raw) {
      const close = rest.indexOf(`)${raw[1]}"`, raw[0].length);
      if (close < 0) return undefined;
      out += rest.slice(raw[0].length, close);
      rest = rest.slice(close + raw[1]!.length + 2).trim();
      continue;
    }
    const plain = /^(?:u8|u|U|L)?"((?:[^"\\\n]|\\.)*)"/.exec(rest);
    if (!plain) return undefined;
    out += plain[1]!.replace(/\\(.)/g, "$1");
    rest = rest.slice(plain[0].length).trim();
  }
  return out;
}

/**
 * The calls of `callee` pattern in `code` (comments already blanked):
 * `pattern` matches the callee text just before `(`.
 */
export function findCalls(code: string, pattern: RegExp): CppCall[] {
  const out: CppCall[] = [];
  const re = new RegExp(`(${pattern.source})\\s*\\(`, "g");
  for (const match of code.matchAll(re)) {
    if (out.length >= MAX_CALLS) break;
    const start = match.index!;
    if (start > 0 && /[\w$]/.test(code[start - 1]!)) continue;
    if (insideString(code, start)) continue;
    const open = start + match[0].length - 1;
    const split = splitArgs(code, open);
    if (!split) continue;
    out.push({ callee: match[1]!, start, end: split.end, args: split.args });
  }
  return out;
}

/** Whether an offset is inside a string literal of its line. */
function insideString(code: string, at: number): boolean {
  const lineStart = code.lastIndexOf("\n", at - 1) + 1;
  let i = lineStart;
  while (i < at) {
    if (code[i] === '"' || code[i] === "'") {
      const next = skipString(code, i);
      if (next > at) return true;
      i = next;
    } else i++;
  }
  return false;
}

/** The arguments of the parenthesis at `open`, split at top-level commas. */
export function splitArgs(
  code: string,
  open: number,
): { args: string[]; end: number } | undefined {
  const args: string[] = [];
  let depth = 0;
  let current = open + 1;
  let i = open;
  // Angle brackets are not tracked: `a < b, c` is ambiguous in C++.
  while (i < code.length) {
    const c = code[i]!;
    if (c === '"' || c === "'") {
      i = skipString(code, i);
      continue;
    }
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      depth--;
      if (depth === 0) {
        const last = code.slice(current, i).trim();
        if (last !== "" || args.length > 0) args.push(last);
        return { args, end: i + 1 };
      }
    } else if (c === "," && depth === 1) {
      args.push(code.slice(current, i).trim());
      current = i + 1;
    }
    i++;
  }
  return undefined;
}

/** The 1-based line of an offset. */
export function lineAt(code: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < code.length; i++) {
    if (code[i] === "\n") line++;
  }
  return line;
}

/** A `namespace x {` or `class X ... {` scope of the text. */
export interface Scope {
  kind: "namespace" | "class";
  name: string;
  /** The text between the name and `{` (the base list of a class). */
  head: string;
  open: number;
  close: number;
}

/** The namespace and class scopes of the text (comments blanked). */
export function scopesOf(code: string): Scope[] {
  const out: Scope[] = [];
  const re =
    /\b(namespace|class|struct)\s+([A-Za-z_][\w:]*)([^;{()]*(?:\([^()]*\)[^;{()]*)*)\{/g;
  for (const m of code.matchAll(re)) {
    if (out.length >= MAX_CALLS) break;
    const open = m.index! + m[0].length - 1;
    const close = matchingBrace(code, open);
    if (close < 0) continue;
    out.push({
      kind: m[1] === "namespace" ? "namespace" : "class",
      name: m[2]!,
      head: m[3]!.trim(),
      open,
      close,
    });
  }
  return out;
}

function matchingBrace(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const c = code[i];
    if (c === '"' || c === "'") {
      i = skipString(code, i) - 1;
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/** The scopes around an offset, outermost first. */
export function scopesAt(scopes: readonly Scope[], offset: number): Scope[] {
  return scopes.filter((s) => s.open < offset && offset < s.close)
    .sort((a, b) => a.open - b.open);
}
