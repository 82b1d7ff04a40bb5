// casbin's pattern functions (keyMatch, keyMatch2 to keyMatch5, regexMatch,
// globMatch), compiled once per policy pattern instead of once per call,
// with the answers casbin 5's own implementations give (its source is the
// specification: the same path-to-regex rewriting, the same unescaped
// regular expressions, the same anchoring, minimatch for globs). A pattern
// on which casbin would throw or never return is refused: the index then
// leaves the model to casbin.
import { Minimatch } from "minimatch";

/** The functions of casbin's function map that the index evaluates. */
export type PatternFunction =
  | "keyMatch"
  | "keyMatch2"
  | "keyMatch3"
  | "keyMatch4"
  | "keyMatch5"
  | "regexMatch"
  | "globMatch"
  | "ipMatch";

export const PATTERN_FUNCTIONS: ReadonlySet<string> = new Set<PatternFunction>([
  "keyMatch",
  "keyMatch2",
  "keyMatch3",
  "keyMatch4",
  "keyMatch5",
  "regexMatch",
  "globMatch",
  "ipMatch",
]);

/** A compiled pattern: whether a request string matches it. */
export type PatternTest = (value: string) => boolean;

/**
 * Longest pattern the index compiles. casbin rewrites keyMatch patterns
 * with `(.*)` regular expressions, once per parameter: on a long pattern
 * with many parameters that costs time cubic in its length, on every
 * decision. Longer patterns are left to casbin, where a policy author who
 * writes them pays that cost.
 */
export const MAX_PATTERN_LENGTH = 2048;

const KEY2_PARAM = /(.*):[^/]+(.*)/g;
const KEY3_PARAM = /(.*){[^/]+}(.*)/g;
const STAR_SEGMENT = /\/\*/g;

/**
 * Replaces parameters (`:id`, `{id}`) as casbin does, while `marker` is in
 * the pattern; `undefined` when casbin's loop would never end (the marker
 * is there but the parameter regex replaces nothing, as in `/:` or `/{a`).
 */
function expand(
  key2: string,
  marker: string,
  param: RegExp,
  replacement: string,
): string | undefined {
  while (key2.includes(marker)) {
    const next = key2.replace(param, replacement);
    if (next === key2) return undefined;
    key2 = next;
  }
  return key2;
}

/** The regex source casbin's keyMatch2..5 test against (or undefined). */
export function keyMatchSource(
  fn: "keyMatch2" | "keyMatch3" | "keyMatch4" | "keyMatch5",
  pattern: string,
): string | undefined {
  const key2 = pattern.replace(STAR_SEGMENT, "/.*");
  const expanded = fn === "keyMatch2"
    ? expand(key2, "/:", KEY2_PARAM, "$1[^/]+$2")
    : expand(
      key2,
      "/{",
      KEY3_PARAM,
      fn === "keyMatch4" ? "$1([^/]+)$2" : "$1[^/]+$2",
    );
  if (expanded === undefined) return undefined;
  return "^" + (fn === "keyMatch2" && expanded === "*" ? "(.*)" : expanded) +
    "$";
}

/** keyMatch4's `{name}` tokens, read as casbin reads them. */
function keyMatch4Tokens(pattern: string): string[] {
  const key2 = pattern.replace(STAR_SEGMENT, "/.*");
  const tokens: string[] = [];
  let open = -1;
  for (let i = 0; i < key2.length; i++) {
    const c = key2[i];
    if (c === "{") open = i;
    else if (c === "}") tokens.push(key2.substring(open, i + 1));
  }
  return tokens;
}

function regexOf(source: string): RegExp | string {
  try {
    return new RegExp(source);
  } catch (error) {
    return `casbin cannot compile it (${(error as Error).message})`;
  }
}

function compileKeyMatch4(pattern: string): PatternTest | string {
  const source = keyMatchSource("keyMatch4", pattern);
  if (source === undefined) return "casbin's keyMatch4 never returns on it";
  const regex = regexOf(source);
  if (typeof regex === "string") return regex;
  const tokens = keyMatch4Tokens(pattern);
  // casbin throws on every match whose captures do not pair with the
  // tokens; count the groups by matching the empty alternative.
  const groups = new RegExp(source + "|").exec("")!.length - 1;
  if (groups !== tokens.length) {
    return "casbin's keyMatch4 throws on it (tokens and groups differ)";
  }
  // casbin compares every capture with the first as soon as one token
  // repeats (all of them, not only the repeated token's).
  const repeated = new Set(tokens).size !== tokens.length;
  return (value) => {
    const match = regex.exec(value);
    if (match === null) return false;
    if (!repeated) return true;
    for (let i = 2; i < match.length; i++) {
      if (match[i] !== match[1]) return false;
    }
    return true;
  };
}

/**
 * Compiles a policy pattern for one of casbin's pattern functions (not
 * ipMatch: see ip_match.ts), or says why the index must not: casbin would
 * throw or loop on it, or it is longer than {@linkcode MAX_PATTERN_LENGTH}.
 */
export function compilePattern(
  fn: Exclude<PatternFunction, "ipMatch">,
  pattern: string,
): PatternTest | string {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return `it is longer than ${MAX_PATTERN_LENGTH} characters`;
  }
  switch (fn) {
    case "keyMatch": {
      const star = pattern.indexOf("*");
      if (star === -1) return (value) => value === pattern;
      const prefix = pattern.slice(0, star);
      return (value) =>
        value.length > star ? value.startsWith(prefix) : value === prefix;
    }
    case "keyMatch2":
    case "keyMatch3":
    case "keyMatch5": {
      const source = keyMatchSource(fn, pattern);
      if (source === undefined) return `casbin's ${fn} never returns on it`;
      const regex = regexOf(source);
      if (typeof regex === "string") return regex;
      if (fn !== "keyMatch5") return (value) => regex.test(value);
      // keyMatch5 ignores the request's query string.
      return (value) => {
        const query = value.indexOf("?");
        return regex.test(query === -1 ? value : value.slice(0, query));
      };
    }
    case "keyMatch4":
      return compileKeyMatch4(pattern);
    case "regexMatch": {
      const regex = regexOf(pattern);
      if (typeof regex === "string") return regex;
      return (value) => regex.test(value);
    }
    case "globMatch": {
      // casbin drops a leading `*` before a `/` (minimatch issue 195).
      const glob = pattern[0] === "*" && pattern[1] === "/"
        ? pattern.substring(1)
        : pattern;
      let matcher: Minimatch;
      try {
        matcher = new Minimatch(glob);
      } catch (error) {
        return `minimatch refuses it (${(error as Error).message})`;
      }
      return (value) => matcher.match(value);
    }
  }
}
