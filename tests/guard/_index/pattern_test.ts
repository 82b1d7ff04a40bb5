// The compiled pattern functions against casbin 5.51.1's own (Util.*) on
// random patterns and values: the same answers, and the same refusals where
// casbin throws.
import assert from "node:assert/strict";
import fc from "fast-check";
import { Util } from "casbin";
import {
  compilePattern,
  MAX_PATTERN_LENGTH,
} from "../../../src/guard/_index/pattern.ts";
import { CASBIN, type Fn, fnArb, pattern, value } from "./_patterns.ts";

/** casbin's answer, its error, or "loops" where it would never return. */
function casbinAnswer(
  fn: Fn,
  text: string,
  pattern: string,
  compiled: unknown,
): { value: boolean } | { error: true } | { loops: true } {
  if (typeof compiled === "string" && compiled.includes("never returns")) {
    return { loops: true };
  }
  try {
    return { value: CASBIN[fn](text, pattern) };
  } catch {
    return { error: true };
  }
}

Deno.test("compiled patterns answer as casbin's functions, and are refused where casbin throws", () => {
  let compared = 0;
  let matched = 0;
  let refused = 0;
  fc.assert(
    fc.property(
      fnArb,
      pattern,
      fc.array(value, { minLength: 1, maxLength: 6 }),
      (fn, p, values) => {
        const compiled = compilePattern(fn, p);
        // The pattern itself and the pattern with its parameters filled in
        // are values that often match.
        const candidates = [
          ...values,
          p,
          p.replace(/:[a-z]+|\{[a-z]+\}|\*/g, "7"),
        ];
        for (const text of candidates) {
          const expected = casbinAnswer(fn, text, p, compiled);
          if (typeof compiled === "string") {
            refused++;
            // A regular expression casbin cannot compile: it throws on
            // every value. (keyMatch4's token mismatch throws only on a
            // match, loops never return: not checked here.)
            if (compiled.includes("cannot compile")) {
              assert.deepEqual(expected, { error: true }, `${fn} ${p}`);
            }
            continue;
          }
          assert.deepEqual(
            { value: compiled(text) },
            expected,
            `${fn}(${JSON.stringify(text)}, ${JSON.stringify(p)})`,
          );
          compared++;
          if (compiled(text)) matched++;
        }
      },
    ),
    { numRuns: 4000 },
  );
  assert.ok(compared > 10_000, `only ${compared} comparisons`);
  assert.ok(matched > 2_000, `only ${matched} matches`);
  assert.ok(refused > 100, `only ${refused} refusals`);
});

Deno.test("patterns casbin never returns on, or longer than the limit, are refused", () => {
  // casbin's rewriting loops while "/:" or "/{" is in the pattern and its
  // parameter regex no longer replaces anything.
  for (
    const [fn, p] of [
      ["keyMatch2", "/api/:"],
      ["keyMatch2", "/api/:/x"],
      ["keyMatch3", "/api/{id"],
      ["keyMatch4", "/api/{}"],
      ["keyMatch5", "/{/x}"],
    ] as [Fn, string][]
  ) {
    const compiled = compilePattern(fn, p);
    assert.equal(typeof compiled, "string", `${fn} ${p}`);
    assert.match(compiled as string, /never returns/);
  }
  const long = "/a".repeat(MAX_PATTERN_LENGTH);
  assert.match(String(compilePattern("keyMatch2", long)), /longer than/);
  // keyMatch3 has no special case for "*": casbin's regex "^*$" throws.
  assert.match(String(compilePattern("keyMatch3", "*")), /cannot compile/);
  assert.throws(() => Util.keyMatch3Func("x", "*"));
});

Deno.test("keyMatch4 compares every capture with the first once a token repeats, as casbin does", () => {
  const test = compilePattern("keyMatch4", "/p/{id}/c/{id}/{other}");
  assert.equal(typeof test, "function");
  for (
    const text of ["/p/1/c/1/1", "/p/1/c/1/2", "/p/1/c/2/1", "/p/1/c/1"]
  ) {
    assert.equal(
      (test as (v: string) => boolean)(text),
      Util.keyMatch4Func(text, "/p/{id}/c/{id}/{other}"),
      text,
    );
  }
});
