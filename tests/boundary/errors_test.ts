import assert from "node:assert/strict";
import {
  BoundaryValidationError,
  DuplicateNodeError,
} from "../../src/boundary/errors.ts";

Deno.test("BoundaryValidationError lists every issue in its message", () => {
  const error = new BoundaryValidationError("load graph", [
    { path: "$.nodes[0].kind", message: "bad kind" },
    { path: "$.relations", message: "expected an array" },
  ]);
  assert.equal(error.name, "BoundaryValidationError");
  assert.ok(error instanceof TypeError);
  assert.equal(
    error.message,
    "Cannot load graph: $.nodes[0].kind: bad kind; $.relations: expected an array",
  );
  assert.equal(error.issues.length, 2);
});

Deno.test("DuplicateNodeError carries the colliding id", () => {
  const cause = new Error("root");
  const error = new DuplicateNodeError("merge graphs", "abc", { cause });
  assert.equal(error.name, "DuplicateNodeError");
  assert.equal(error.nodeId, "abc");
  assert.equal(error.cause, cause);
  assert.equal(
    error.message,
    'Cannot merge graphs: node id "abc" already exists',
  );
});
