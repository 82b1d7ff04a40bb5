// Random patterns for casbin's pattern functions and random request values,
// shared by the tests of the compiled patterns and of the path trie.
import fc from "fast-check";
import { Util } from "casbin";
import type { PatternFunction } from "../../../src/guard/_index/pattern.ts";

export type Fn = Exclude<PatternFunction, "ipMatch">;

/** casbin 5.51.1's own implementations. */
export const CASBIN: Record<Fn, (value: string, pattern: string) => boolean> = {
  keyMatch: Util.keyMatchFunc,
  keyMatch2: Util.keyMatch2Func,
  keyMatch3: Util.keyMatch3Func,
  keyMatch4: Util.keyMatch4Func,
  keyMatch5: Util.keyMatch5Func,
  regexMatch: Util.regexMatchFunc,
  globMatch: Util.globMatch,
};

// Pieces of patterns: literal segments, the parameters of each function,
// wildcards, regex and glob syntax, and characters that trip rewriting.
const PIECES = [
  "/",
  "/",
  "/",
  "api",
  "users",
  "a",
  "b",
  "1",
  "x.y",
  ":id",
  ":name",
  "{id}",
  "{id}",
  "{name}",
  "*",
  "/*",
  "**",
  ".*",
  "(a|b)",
  "a|b",
  "[0-9]+",
  "\\d",
  "?",
  "+",
  "$",
  "^",
  "{a,b}",
  "!",
  "#",
  "@(a|b)",
  "-",
  "é",
  "\n",
  " ",
];

// The values requests carry: paths made of the same segments, numbers,
// query strings, trailing and doubled slashes, line breaks.
const VALUE_PIECES = [
  "/",
  "/",
  "/",
  "api",
  "users",
  "a",
  "b",
  "1",
  "42",
  "x.y",
  "xzy",
  "{id}",
  ":id",
  "?q=1",
  "?",
  "*",
  "é",
  "\n",
  " ",
  "ab",
  "",
];

export const pattern: fc.Arbitrary<string> = fc.array(
  fc.constantFrom(...PIECES),
  { maxLength: 7 },
)
  .map((parts) => parts.join(""));
export const value: fc.Arbitrary<string> = fc.array(
  fc.constantFrom(...VALUE_PIECES),
  { maxLength: 8 },
)
  .map((parts) => parts.join(""));
export const fnArb: fc.Arbitrary<Fn> = fc.constantFrom<Fn>(
  ...(Object.keys(CASBIN) as Fn[]),
);
