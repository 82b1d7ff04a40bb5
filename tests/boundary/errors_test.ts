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

Deno.test("BoundaryValidationError names ten issues, counts the rest and escapes them", () => {
  const issues = Array.from({ length: 30 }, (_, i) => ({
    path: `$.nodes[${i}].id`,
    message: `bad "\u001b[2J${"x".repeat(1000)}"`,
  }));
  const error = new BoundaryValidationError("load graph", issues, {
    issueCount: 5000,
  });
  assert.equal(error.issueCount, 5000);
  assert.equal(error.issues.length, 30);
  assert.match(error.message, /; and 4990 more issues$/);
  assert.equal(error.message.match(/\$\.nodes\[\d+\]\.id: /g)?.length, 10);
  assert.ok(!error.message.includes("\u001b"));
  assert.ok(error.message.includes("\\u001b[2J"));
  assert.ok(error.message.length < 3000);
});
