import assert from "node:assert/strict";
import {
  BoundaryRefSchema,
  parseBoundaryRef,
} from "../../src/boundary/types.ts";
import { BoundaryValidationError } from "../../src/boundary/errors.ts";

const valid = {
  mechanism: "http",
  role: "server",
  key: "GET /users/{}",
  line: 12,
  col: 3,
  confidence: 0.75,
  detail: { method: "GET", path: "/users/:id", framework: "express" },
};

Deno.test("parseBoundaryRef() returns a valid ref unchanged", () => {
  assert.deepEqual(parseBoundaryRef(valid), valid);
});

Deno.test("parseBoundaryRef() defaults confidence to 1 and detail to {}", () => {
  const ref = parseBoundaryRef({
    mechanism: "temporal",
    role: "client",
    key: "charge_card",
    line: 1,
    col: 1,
  });
  assert.equal(ref.confidence, 1);
  assert.deepEqual(ref.detail, {});
});

Deno.test("parseBoundaryRef() accepts every mechanism and role", () => {
  for (const mechanism of ["http", "grpc", "queue", "temporal"]) {
    for (const role of ["server", "client"]) {
      assert.equal(
        parseBoundaryRef({ ...valid, mechanism, role }).mechanism,
        mechanism,
      );
    }
  }
});

Deno.test("parseBoundaryRef() keeps the confidence bounds 0 and 1", () => {
  assert.equal(parseBoundaryRef({ ...valid, confidence: 0 }).confidence, 0);
  assert.equal(parseBoundaryRef({ ...valid, confidence: 1 }).confidence, 1);
});

Deno.test("parseBoundaryRef() drops unknown keys", () => {
  const ref = parseBoundaryRef({ ...valid, extra: true });
  assert.equal("extra" in ref, false);
});

Deno.test("parseBoundaryRef() names every invalid field in one error", () => {
  try {
    parseBoundaryRef({
      mechanism: "smtp",
      role: "peer",
      key: "",
      line: 0,
      col: 2.5,
      confidence: 1.5,
      detail: { method: 7 },
    });
    assert.fail("expected an error");
  } catch (error) {
    assert.ok(error instanceof BoundaryValidationError);
    assert.ok(error instanceof TypeError);
    assert.equal(error.name, "BoundaryValidationError");
    assert.deepEqual(error.issues.map((issue) => issue.path), [
      "mechanism",
      "role",
      "key",
      "line",
      "col",
      "confidence",
      "detail.method",
    ]);
    assert.match(error.message, /^Cannot parse boundary ref: mechanism: /);
    for (const field of ["role:", "key:", "line:", "col:", "confidence:"]) {
      assert.ok(error.message.includes(field), field);
    }
  }
});

Deno.test("parseBoundaryRef() rejects non-objects and non-finite numbers", () => {
  for (const input of [null, 42, "ref", []]) {
    assert.throws(() => parseBoundaryRef(input), BoundaryValidationError);
  }
  assert.throws(
    () => parseBoundaryRef({ ...valid, confidence: Number.NaN }),
    { name: "BoundaryValidationError", message: /confidence/ },
  );
  assert.throws(
    () => parseBoundaryRef({ ...valid, line: Infinity }),
    { name: "BoundaryValidationError", message: /line/ },
  );
});

Deno.test("BoundaryRefSchema is a zod schema usable with safeParse", () => {
  assert.equal(BoundaryRefSchema.safeParse(valid).success, true);
  assert.equal(
    BoundaryRefSchema.safeParse({ ...valid, role: "x" }).success,
    false,
  );
});
