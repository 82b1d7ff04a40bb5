import assert from "node:assert/strict";
import fc from "fast-check";
import {
  canonicalRequestKey,
  DecisionCache,
} from "../../src/guard/decision_cache.ts";

// Values that canonicalRequestKey encodes; structurally distinct ones must
// get distinct keys.
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.string(),
    fc.double(),
    fc.integer().map((n) => BigInt(n)),
    fc.boolean(),
    fc.constantFrom(null, undefined, "", "$$", ",", '"', "\\"),
  ),
  node: fc.oneof(
    { depthSize: "small" },
    tie("leaf"),
    fc.array(tie("node"), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 3 }), tie("node"), { maxKeys: 3 }),
  ),
})).node;

Deno.test("canonicalRequestKey() gives two requests the same key only when they are the same", () => {
  fc.assert(
    fc.property(
      fc.array(value, { maxLength: 4 }),
      fc.array(value, { maxLength: 4 }),
      (a, b) => {
        const ka = canonicalRequestKey(a);
        const kb = canonicalRequestKey(b);
        assert.ok(ka !== undefined && kb !== undefined);
        // Same structure, same types, same key order (Object.is on leaves).
        const same = sameValue(a, b);
        assert.equal(ka === kb, same);
      },
    ),
    { numRuns: 2000 },
  );
});

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || a === null) return Object.is(a, b);
  if (typeof b !== "object" || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.getOwnPropertyNames(a);
  const kb = Object.getOwnPropertyNames(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k, i) =>
    k === kb[i] &&
    sameValue(
      (a as Record<string, unknown>)[k],
      (b as Record<string, unknown>)[k],
    )
  );
}

Deno.test("canonicalRequestKey() keeps apart what casbin's CachedEnforcer confuses", () => {
  assert.notEqual(
    canonicalRequestKey(["a$$b", "c"]),
    canonicalRequestKey(["a", "b$$c"]),
  );
  assert.notEqual(canonicalRequestKey(["1"]), canonicalRequestKey([1]));
  assert.notEqual(
    canonicalRequestKey([null]),
    canonicalRequestKey([undefined]),
  );
  assert.notEqual(
    canonicalRequestKey([{}]),
    canonicalRequestKey([{ role: undefined }]),
  );
  assert.notEqual(canonicalRequestKey([[, "a"]]), canonicalRequestKey([["a"]]));
  assert.notEqual(
    canonicalRequestKey([{ role: "a" }]),
    canonicalRequestKey([{ role: "b" }]),
  );
});

Deno.test("canonicalRequestKey() refuses values it cannot encode safely", () => {
  class User {
    role = "admin";
  }
  const getter = {
    get role(): string {
      return "admin";
    },
  };
  let deep: unknown = "x";
  for (let i = 0; i < 10; i++) deep = { deep };
  for (
    const rvals of [
      [new User()],
      [new Date(0)],
      [new Map()],
      [() => "x"],
      [Symbol("x")],
      [getter],
      [{ [Symbol("s")]: 1 }],
      [deep],
    ]
  ) {
    assert.equal(canonicalRequestKey(rvals), undefined);
  }
  assert.equal(typeof canonicalRequestKey([Object.create(null)]), "string");
});

Deno.test("DecisionCache drops its oldest entry when full", () => {
  const cache = new DecisionCache({ maxEntries: 2 });
  cache.set("a", true);
  cache.set("b", false);
  cache.set("a", false); // an update does not evict
  assert.equal(cache.size, 2);
  cache.set("c", true);
  assert.equal(cache.size, 2);
  assert.equal(cache.get("a"), undefined);
  assert.equal(cache.get("b"), false);
  assert.equal(cache.get("c"), true);
  cache.clear();
  assert.equal(cache.size, 0);
});

Deno.test("DecisionCache.keyOf() uses the key function and ignores non-strings", () => {
  const cache = new DecisionCache({
    key: (rvals) => rvals[0] === "x" ? "k" : (7 as unknown as string),
  });
  assert.equal(cache.keyOf(["x"]), "k");
  assert.equal(cache.keyOf(["y"]), undefined);
  assert.throws(() => new DecisionCache({ maxEntries: 1.5 }), RangeError);
});
