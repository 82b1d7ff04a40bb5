// C++ source as route macros and calls see it: comments blanked (offsets and
// lines kept), string literals read (`"a" "b"`, raw `R"(...)"`), the
// arguments of a call split at top-level commas, and the namespaces and
// classes around an offset.

/** The most calls tried in one file (a bound on hostile input). */
export const MAX_CALLS = 5_000;

/** The most characters one call's arguments may span. */
const MAX_CALL_SPAN = 20_000;

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
 * Comment-free C++ text with its line starts and string literal spans,
 * computed once (lookups by binary search).
 */
export class CppText {
  /** The text with comments blanked. */
  readonly code: string;
  readonly #lines: number[] = [0];
  /** Start and end offsets of each string literal, flattened. */
  readonly #strings: number[] = [];

  constructor(code: string) {
    this.code = code;
    for (let i = 0; i < code.length; i++) {
      const c = code[i];
      if (c === "\n") this.#lines.push(i + 1);
      else if (c === '"' || c === "'") {
        const end = skipString(code, i);
        this.#strings.push(i, end);
        for (let k = i + 1; k < end && k < code.length; k++) {
          if (code[k] === "\n") this.#lines.push(k + 1);
        }
        i = end - 1;
      }
    }
  }

  /** The 1-based line of an offset. */
  lineAt(offset: number): number {
    return upperBound(this.#lines, offset);
  }

  /** The 0-based column of an offset. */
  columnAt(offset: number): number {
    return offset - this.#lines[this.lineAt(offset) - 1]!;
  }

  /** Whether an offset lies inside a string literal. */
  inString(offset: number): boolean {
    const s = this.#strings;
    let lo = 0;
    let hi = s.length / 2;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s[mid * 2]! <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && offset < s[(lo - 1) * 2 + 1]!;
  }
}

/** The number of sorted values at or below `value`. */
function upperBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The calls whose callee (the text just before `(`) matches `pattern`,
 * outside string literals.
 */
export function findCalls(text: CppText, pattern: RegExp): CppCall[] {
  const code = text.code;
  const out: CppCall[] = [];
  const re = new RegExp(`(${pattern.source})\\s*\\(`, "g");
  let tried = 0;
  for (const match of code.matchAll(re)) {
    if (++tried > MAX_CALLS) break;
    const start = match.index!;
    if (start > 0 && /[\w$]/.test(code[start - 1]!)) continue;
    if (text.inString(start)) continue;
    const open = start + match[0].length - 1;
    const split = splitArgs(code, open);
    if (!split) continue;
    out.push({ callee: match[1]!, start, end: split.end, args: split.args });
  }
  return out;
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
  const stop = Math.min(code.length, open + MAX_CALL_SPAN);
  while (i < stop) {
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
  const closes = bracePairs(code);
  const out: Scope[] = [];
  const re =
    /\b(namespace|class|struct)\s+([A-Za-z_][\w:]*)([^;{()]{0,400}?(?:\([^()]{0,400}\)[^;{()]{0,400}?){0,8})\{/g;
  for (const m of code.matchAll(re)) {
    if (out.length >= MAX_CALLS) break;
    const open = m.index! + m[0].length - 1;
    const close = closes.get(open);
    if (close === undefined) continue;
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

/** The offset of the `}` that closes each `{` (strings skipped), in one pass. */
function bracePairs(code: string): Map<number, number> {
  const out = new Map<number, number>();
  const stack: number[] = [];
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '"' || c === "'") {
      i = skipString(code, i) - 1;
      continue;
    }
    if (c === "{") stack.push(i);
    else if (c === "}") {
      const open = stack.pop();
      if (open !== undefined) out.set(open, i);
    }
  }
  return out;
}

/** The scopes around an offset, outermost first. */
export function scopesAt(scopes: readonly Scope[], offset: number): Scope[] {
  return scopes.filter((s) => s.open < offset && offset < s.close)
    .sort((a, b) => a.open - b.open);
}
