import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { makeBoundaryId } from "../../src/boundary/id.ts";
import type { Mechanism } from "../../src/boundary/types.ts";

/** graphlens's definition, computed independently with node:crypto. */
function expected(mechanism: string, key: string): string {
  return createHash("sha256").update(`boundary::${mechanism}::${key}`, "utf8")
    .digest("hex").slice(0, 16);
}

const MECHANISMS: Mechanism[] = ["http", "grpc", "queue", "temporal"];

Deno.test("makeBoundaryId() matches SHA-256 of boundary::<mechanism>::<key>", async (t) => {
  await t.step("known vectors", () => {
    // Precomputed with Python: hashlib.sha256(b"...").hexdigest()[:16]
    assert.equal(makeBoundaryId("http", "GET /users/{}"), "2c3c7cba2c035619");
    for (
      const [mechanism, key] of [
        ["http", "GET /users/{}"],
        ["http", "POST /orders"],
        ["grpc", "users.v1.UserService/GetUser"],
        ["queue", "orders.created"],
        ["temporal", "charge_card"],
        ["http", ""],
        ["queue", "заказы.создан"],
        ["queue", "emoji 🎉 topic"],
        ["http", "GET /caf\u00e9"],
      ] as [Mechanism, string][]
    ) {
      assert.equal(makeBoundaryId(mechanism, key), expected(mechanism, key));
    }
  });
  await t.step("any key (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MECHANISMS),
        fc.string({ unit: "grapheme", maxLength: 200 }),
        (mechanism, key) => {
          assert.equal(
            makeBoundaryId(mechanism, key),
            expected(mechanism, key),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
  await t.step("long keys cross several SHA-256 blocks", () => {
    for (const n of [55, 56, 63, 64, 65, 119, 120, 1000, 100_000]) {
      const key = "k".repeat(n);
      assert.equal(makeBoundaryId("queue", key), expected("queue", key));
    }
  });
});

Deno.test("makeBoundaryId() depends only on mechanism and key", () => {
  const a = makeBoundaryId("http", "GET /a");
  assert.equal(makeBoundaryId("http", "GET /a"), a);
  assert.notEqual(makeBoundaryId("queue", "GET /a"), a);
  assert.notEqual(makeBoundaryId("http", "GET /b"), a);
  assert.match(a, /^[0-9a-f]{16}$/);
});

Deno.test("makeBoundaryId() is synchronous", () => {
  const id: unknown = makeBoundaryId("grpc", "svc/Method");
  assert.equal(typeof id, "string");
});

Deno.test("makeBoundaryId() throws TypeError on non-string input", () => {
  assert.throws(
    () => makeBoundaryId("http", 42 as unknown as string),
    { name: "TypeError", message: /Cannot make boundary id/ },
  );
});
