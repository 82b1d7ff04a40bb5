import assert from "node:assert/strict";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { BoundaryValidationError } from "../../src/boundary/errors.ts";

function node(id: string, metadata?: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id,
    kind: "function",
    "qualified_name": id,
    name: id,
  };
  if (metadata !== undefined) out["metadata"] = metadata;
  return out;
}

function rejects(input: unknown): BoundaryValidationError {
  try {
    BoundaryGraph.fromJSON(input);
  } catch (error) {
    assert.ok(error instanceof BoundaryValidationError, String(error));
    return error;
  }
  assert.fail("expected a BoundaryValidationError");
}

Deno.test("BoundaryGraph.fromJSON() rejects metadata nested 100,000 deep with a validation error", async (t) => {
  const depth = 100_000;
  const deep = "[".repeat(depth) + "]".repeat(depth);
  await t.step("in a node, from text", () => {
    const text =
      `{"schema_version":1,"nodes":[{"id":"a","kind":"function","qualified_name":"a","name":"a","metadata":{"x":${deep}}}],"relations":[]}`;
    const error = rejects(text);
    assert.equal(error.issues.length, 1);
    assert.match(
      error.issues[0]!.path,
      /^\$\.nodes\[0\]\.metadata\.x(\[0\]){63}$/,
    );
    assert.match(error.message, /nested more than 64 levels deep/);
  });
  await t.step("in a relation and in the graph, from objects", () => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = { v: value };
    const error = rejects({
      "schema_version": 1,
      metadata: { deep: value },
      nodes: [],
      relations: [{
        "source_id": "a",
        "target_id": "b",
        kind: "calls",
        metadata: { deep: value },
      }],
    });
    assert.deepEqual(
      error.issues.map((issue) => issue.path.slice(0, 24)),
      ["$.metadata.deep.v.v.v.v.", "$.relations[0].metadata."],
    );
  });
  await t.step("an object that refers to itself", () => {
    const loop: Record<string, unknown> = {};
    loop["self"] = loop;
    const error = rejects({
      "schema_version": 1,
      nodes: [node("a", loop)],
      relations: [],
    });
    assert.match(error.issues[0]!.message, /nested more than 64 levels/);
  });
  await t.step("64 levels are accepted", () => {
    let value: unknown = 1;
    for (let i = 0; i < 63; i++) value = [value];
    const graph = BoundaryGraph.fromJSON({
      "schema_version": 1,
      nodes: [node("a", { x: value })],
      relations: [],
    });
    assert.ok(graph.hasNode("a"));
  });
});

Deno.test("BoundaryGraph.fromJSON() keeps the first 100 issues, counts all and bounds the message", () => {
  const id = "\u009b2J\u202eevil\n" + "x".repeat(1_000_000);
  const nodes = Array.from({ length: 100_000 }, () => node(id));
  const error = rejects({ "schema_version": 1, nodes, relations: [] });
  assert.equal(error.issueCount, 99_999);
  assert.equal(error.issues.length, 100);
  assert.ok(error.message.length < 5_000, `${error.message.length} chars`);
  assert.match(error.message, /; and 99989 more issues$/);
  // deno-lint-ignore no-control-regex
  assert.ok(!/[\u0000-\u001f\u0080-\u009f\u202e]/.test(error.message));
  assert.match(error.message, /\\u009b2J\\u202eevil\\n/);
});

Deno.test("BoundaryGraph.fromJSON() cuts long keys in issue paths", () => {
  const key = "k".repeat(10_000);
  const error = rejects({
    "schema_version": 1,
    nodes: [node("a", { [key]: undefined })],
    relations: [],
  });
  assert.equal(
    error.issues[0]!.path,
    `$.nodes[0].metadata["${"k".repeat(100)}..."]`,
  );
});

Deno.test("BoundaryGraph.fromJSON() shows a bad schema_version without copying it", () => {
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  for (const version of [deep, "v".repeat(100_000)]) {
    const error = rejects({ "schema_version": version, nodes: [] });
    assert.ok(error.message.length < 200, error.message);
  }
});
