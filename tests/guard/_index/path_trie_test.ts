// The path trie narrows the rules a decision tests: every rule whose
// pattern matches the request (by casbin's own function) must be among its
// candidates, and for route tables the candidates are few.
import assert from "node:assert/strict";
import fc from "fast-check";
import { compilePattern } from "../../../src/guard/_index/pattern.ts";
import {
  buildTrie,
  type CompiledTrie,
} from "../../../src/guard/_index/path_trie.ts";
import { TrieWalker } from "../../../src/guard/_index/trie_walker.ts";
import { StringInterner } from "../../../src/guard/_index/string_table.ts";
import { CASBIN, type Fn, fnArb, pattern, value } from "./_patterns.ts";

/** Runs a build that pauses to its end. */
function done<T>(steps: Generator<void, T>): T {
  let step = steps.next();
  while (step.done !== true) step = steps.next();
  return step.value;
}

/** A trie of one bucket holding `patterns` as rules 0, 1, ... */
function trieOf(
  fn: Fn,
  patterns: readonly string[],
): { trie: CompiledTrie; walker: TrieWalker } {
  const strings = new StringInterner();
  const rulePattern = Uint32Array.from(patterns, (p) => strings.intern(p));
  const trie = done(buildTrie(
    0,
    fn,
    strings.strings,
    rulePattern,
    new Uint32Array(patterns.length),
    1,
  ));
  return { trie, walker: new TrieWalker(trie, done(strings.table())) };
}

function candidates(
  walker: TrieWalker,
  rules: number,
  text: string,
): Set<number> | null {
  const out = new Uint32Array(rules);
  walker.prepare(text);
  const end = walker.collect(0, out, 0, { n: 0 });
  return end === -1 ? null : new Set(out.subarray(0, end));
}

Deno.test("every rule whose pattern matches a path is a candidate of the trie walk", () => {
  let matched = 0;
  let narrowed = 0;
  fc.assert(
    fc.property(
      fnArb,
      fc.array(pattern, { minLength: 1, maxLength: 8 }),
      fc.array(value, { minLength: 1, maxLength: 6 }),
      (fn, patterns, values) => {
        const { walker } = trieOf(fn, patterns);
        const texts = [
          ...values,
          ...patterns,
          ...patterns.map((p) => p.replace(/:[a-z]+|\{[a-z]+\}|\*/g, "7")),
        ];
        for (const text of texts) {
          const found = candidates(walker, patterns.length, text);
          assert.ok(found !== null, "a small trie needs few visits");
          if (found.size < patterns.length) narrowed++;
          patterns.forEach((p, rule) => {
            const test = compilePattern(fn, p);
            // Patterns casbin throws or loops on are never indexed.
            if (typeof test === "string") return;
            if (!test(text)) return;
            matched++;
            assert.ok(
              found.has(rule),
              `${fn}(${JSON.stringify(text)}, ${
                JSON.stringify(p)
              }) matches, but the walk does not reach the rule`,
            );
            // casbin agrees that it matches.
            assert.equal(CASBIN[fn](text, p), true);
          });
        }
      },
    ),
    { numRuns: 4000 },
  );
  assert.ok(matched > 2000, `only ${matched} matches`);
  assert.ok(narrowed > 2000, `the trie narrowed only ${narrowed} walks`);
});

Deno.test("the trie walk of a route table touches only the routes that can match", () => {
  const routes: string[] = [];
  for (let i = 0; i < 1000; i++) {
    routes.push(
      `/api/svc${i}/items/:id`,
      `/:tenant/svc${i}/items`,
      `/api/svc${i}/*`,
    );
  }
  const { walker } = trieOf("keyMatch2", routes);
  const found = candidates(walker, routes.length, "/api/svc42/items/7")!;
  assert.deepEqual(
    [...found].map((rule) => routes[rule]).sort(),
    ["/api/svc42/*", "/api/svc42/items/:id"],
  );
  const tenant = candidates(walker, routes.length, "/t1/svc42/items")!;
  assert.deepEqual([...tenant].map((rule) => routes[rule]), [
    "/:tenant/svc42/items",
  ]);
  // keyMatch5 walks the path without its query string.
  const withQuery = trieOf("keyMatch5", ["/api/{id}/x", "/api/{id}"]);
  assert.deepEqual(
    [...candidates(withQuery.walker, 2, "/api/1?a=/b/c")!],
    [1],
  );
});

Deno.test("a walk that would visit too many nodes tests the whole bucket", () => {
  // Every mix of literal and parameter segments, 10 deep: the walk doubles
  // at each level.
  const patterns: string[] = [];
  for (let mix = 0; mix < 1 << 10; mix++) {
    let p = "";
    for (let bit = 0; bit < 10; bit++) p += mix & (1 << bit) ? "/:p" : "/a";
    patterns.push(p);
  }
  const { walker } = trieOf("keyMatch2", patterns);
  assert.equal(candidates(walker, patterns.length, "/a".repeat(10)), null);
  assert.deepEqual(
    candidates(walker, patterns.length, "/b".repeat(10)),
    new Set([patterns.length - 1]),
  );
});
