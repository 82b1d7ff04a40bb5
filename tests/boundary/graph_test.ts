import assert from "node:assert/strict";
import fc from "fast-check";
import {
  BoundaryGraph,
  type GraphNodeInit,
  type GraphRelation,
} from "../../src/boundary/graph.ts";
import {
  BoundaryValidationError,
  DuplicateNodeError,
} from "../../src/boundary/errors.ts";
import { NODE_KINDS, RELATION_KINDS } from "../../src/boundary/graph_kinds.ts";

function fn(id: string, extra: Partial<GraphNodeInit> = {}): GraphNodeInit {
  return {
    id,
    kind: "function",
    qualifiedName: `mod.${id}`,
    name: id,
    ...extra,
  };
}

function snapshot(graph: BoundaryGraph): string {
  return JSON.stringify(graph);
}

Deno.test("BoundaryGraph.addNode() stores a node with default metadata", () => {
  const graph = new BoundaryGraph();
  const node = graph.addNode(fn("a", {
    filePath: "src/a.ts",
    span: { startLine: 1, startCol: 1, endLine: 3, endCol: 2 },
  }));
  assert.deepEqual(node, {
    id: "a",
    kind: "function",
    qualifiedName: "mod.a",
    name: "a",
    filePath: "src/a.ts",
    span: { startLine: 1, startCol: 1, endLine: 3, endCol: 2 },
    metadata: {},
  });
  assert.equal(graph.getNode("a"), node);
  assert.equal(graph.hasNode("a"), true);
  assert.equal(graph.hasNode("b"), false);
  assert.equal(graph.nodes.size, 1);
});

Deno.test("BoundaryGraph.addNode() leaves out absent optional fields", () => {
  const node = new BoundaryGraph().addNode(fn("a", { filePath: undefined }));
  assert.equal("filePath" in node, false);
  assert.equal("span" in node, false);
});

Deno.test("BoundaryGraph.addNode() throws DuplicateNodeError on a taken id", () => {
  const graph = new BoundaryGraph();
  graph.addNode(fn("a"));
  assert.throws(() => graph.addNode(fn("a")), {
    name: "DuplicateNodeError",
    message: 'Cannot add node: node id "a" already exists',
  });
  assert.equal(graph.nodes.size, 1);
});

Deno.test("BoundaryGraph.addNode() rejects malformed nodes with TypeError", () => {
  const graph = new BoundaryGraph();
  const bad: unknown[] = [
    { ...fn("x"), id: "" },
    { ...fn("x"), kind: "lambda" },
    { ...fn("x"), name: 3 },
    { ...fn("x"), filePath: 3 },
    { ...fn("x"), span: { startLine: 1, startCol: 1, endLine: -1, endCol: 1 } },
    {
      ...fn("x"),
      span: { startLine: 1.5, startCol: 1, endLine: 1, endCol: 1 },
    },
    { ...fn("x"), metadata: [] },
    null,
  ];
  for (const node of bad) {
    assert.throws(() => graph.addNode(node as GraphNodeInit), TypeError);
  }
  assert.equal(graph.nodes.size, 0);
});

Deno.test("BoundaryGraph accepts every graphlens node and relation kind", () => {
  const graph = new BoundaryGraph();
  for (const kind of NODE_KINDS) {
    graph.addNode({ id: kind, kind, qualifiedName: kind, name: kind });
  }
  for (const kind of RELATION_KINDS) {
    graph.addRelation({ sourceId: "function", targetId: "class", kind });
  }
  assert.equal(graph.nodes.size, NODE_KINDS.length);
  assert.equal(graph.relations.length, RELATION_KINDS.length);
});

Deno.test("BoundaryGraph.addRelation() validates ids and kind", () => {
  const graph = new BoundaryGraph();
  assert.throws(
    () => graph.addRelation({ sourceId: "", targetId: "b", kind: "calls" }),
    { name: "TypeError", message: /Cannot add relation/ },
  );
  assert.throws(
    () =>
      graph.addRelation({
        sourceId: "a",
        targetId: "b",
        kind: "likes" as "calls",
      }),
    { name: "TypeError", message: /unknown relation kind "likes"/ },
  );
  assert.equal(graph.relations.length, 0);
});

Deno.test("BoundaryGraph indexes stay current on every insertion", async (t) => {
  const graph = new BoundaryGraph();
  graph.addNode(fn("a"));
  graph.addNode(fn("b"));
  graph.addNode({ id: "m", kind: "module", qualifiedName: "m", name: "m" });
  const r1 = graph.addRelation({ sourceId: "a", targetId: "b", kind: "calls" });
  await t.step("outgoing and incoming, with and without kind", () => {
    assert.deepEqual(graph.outgoing("a"), [r1]);
    assert.deepEqual(graph.incoming("b", "calls"), [r1]);
    assert.deepEqual(graph.incoming("b", "references"), []);
    assert.deepEqual(graph.outgoing("zzz"), []);
  });
  await t.step(
    "a relation added after a query shows up in the next one",
    () => {
      const r2 = graph.addRelation({
        sourceId: "a",
        targetId: "m",
        kind: "references",
        metadata: { access: "read" },
      });
      assert.deepEqual(graph.outgoing("a"), [r1, r2]);
      assert.deepEqual(graph.outgoing("a", "references"), [r2]);
      assert.deepEqual(graph.incoming("m"), [r2]);
      assert.deepEqual(graph.relationsByKind("references"), [r2]);
    },
  );
  await t.step("nodesByKind", () => {
    assert.deepEqual(graph.nodesByKind("function").map((n) => n.id), [
      "a",
      "b",
    ]);
    graph.addNode(fn("c"));
    assert.deepEqual(graph.nodesByKind("function").map((n) => n.id), [
      "a",
      "b",
      "c",
    ]);
    assert.deepEqual(graph.nodesByKind("boundary"), []);
  });
  await t.step("returned arrays are copies", () => {
    graph.outgoing("a").length = 0;
    graph.nodesByKind("function").length = 0;
    assert.equal(graph.outgoing("a").length, 2);
    assert.equal(graph.nodesByKind("function").length, 3);
  });
});

Deno.test("BoundaryGraph.merge() without allowShared throws on any collision", () => {
  const a = new BoundaryGraph();
  a.addNode(fn("x"));
  const b = new BoundaryGraph();
  b.addNode(fn("y"));
  b.addNode(fn("x"));
  b.addRelation({ sourceId: "y", targetId: "x", kind: "calls" });
  const before = snapshot(a);
  assert.throws(() => a.merge(b), {
    name: "DuplicateNodeError",
    message: 'Cannot merge graphs: node id "x" already exists',
  });
  assert.equal(
    snapshot(a),
    before,
    "a failed merge leaves the graph unchanged",
  );
});

Deno.test("BoundaryGraph.merge() with allowShared collapses identical nodes", () => {
  const a = new BoundaryGraph({ metadata: { language: "typescript" } });
  const b = new BoundaryGraph({ metadata: { tool: "graphlens" } });
  const shared = {
    id: "b1",
    kind: "boundary",
    qualifiedName: "http:GET /x",
    name: "GET /x",
    metadata: { mechanism: "http", key: "GET /x" },
  } as const;
  a.addNode(shared);
  a.addNode(fn("client"));
  a.addRelation({ sourceId: "client", targetId: "b1", kind: "consumes" });
  // Same metadata with another key order is still identical.
  b.addNode({ ...shared, metadata: { key: "GET /x", mechanism: "http" } });
  b.addNode(fn("server"));
  b.addRelation({ sourceId: "server", targetId: "b1", kind: "exposes" });
  const result = a.merge(b, { allowShared: true });
  assert.deepEqual(result, { nodesAdded: 1, relationsAdded: 1 });
  assert.equal(a.nodes.size, 3);
  assert.deepEqual(a.incoming("b1").map((r) => r.sourceId), [
    "client",
    "server",
  ]);
  assert.deepEqual(a.metadata, { language: "typescript", tool: "graphlens" });
});

Deno.test("BoundaryGraph.merge() with allowShared still throws on different nodes", async (t) => {
  const variants: Partial<GraphNodeInit>[] = [
    { name: "other" },
    { qualifiedName: "mod.other" },
    { kind: "method" },
    { filePath: "a.py" },
    { span: { startLine: 1, startCol: 1, endLine: 1, endCol: 1 } },
    { metadata: { async: true } },
  ];
  for (const variant of variants) {
    await t.step(Object.keys(variant)[0]!, () => {
      const a = new BoundaryGraph();
      a.addNode(fn("x"));
      a.addNode(fn("k"));
      const b = new BoundaryGraph();
      b.addNode(fn("new"));
      b.addNode(fn("x", variant));
      const before = snapshot(a);
      assert.throws(
        () => a.merge(b, { allowShared: true }),
        DuplicateNodeError,
      );
      assert.equal(snapshot(a), before);
    });
  }
});

Deno.test("BoundaryGraph.merge() never duplicates identical relations", () => {
  const a = new BoundaryGraph();
  a.addNode(fn("x"));
  a.addNode(fn("y"));
  a.addRelation({
    sourceId: "x",
    targetId: "y",
    kind: "calls",
    metadata: { line: 3, tags: ["a", { b: 1 }] },
  });
  const b = new BoundaryGraph();
  b.addNode(fn("x"));
  b.addNode(fn("y"));
  b.addRelation({
    sourceId: "x",
    targetId: "y",
    kind: "calls",
    metadata: { tags: ["a", { b: 1 }], line: 3 },
  });
  b.addRelation({
    sourceId: "x",
    targetId: "y",
    kind: "calls",
    metadata: { line: 4 },
  });
  assert.deepEqual(a.merge(b, { allowShared: true }), {
    nodesAdded: 0,
    relationsAdded: 1,
  });
  assert.equal(a.relations.length, 2);
  assert.deepEqual(a.merge(b, { allowShared: true }), {
    nodesAdded: 0,
    relationsAdded: 0,
  });
  assert.equal(a.relations.length, 2);
});

Deno.test("BoundaryGraph.merge() rejects a non-graph argument", () => {
  assert.throws(
    () => new BoundaryGraph().merge({} as BoundaryGraph),
    TypeError,
  );
});

// A small random graph over a fixed pool of ids, so graphs overlap.
const ids = ["a", "b", "c", "d", "e"];
const relationArb = fc.record({
  sourceId: fc.constantFrom(...ids),
  targetId: fc.constantFrom(...ids),
  kind: fc.constantFrom("calls" as const, "exposes" as const),
  n: fc.integer({ min: 0, max: 2 }),
});
const graphArb = fc.record({
  nodes: fc.uniqueArray(fc.constantFrom(...ids), { maxLength: 5 }),
  relations: fc.array(relationArb, { maxLength: 8 }),
}).map(({ nodes, relations }) => {
  const graph = new BoundaryGraph();
  for (const id of nodes) {
    // Same id -> same node in every graph, so allowShared merges succeed.
    const kind = id < "c" ? "function" : "boundary";
    graph.addNode({ id, kind, qualifiedName: id, name: id });
  }
  for (const { n, ...relation } of relations) {
    graph.addRelation({ ...relation, metadata: { n } });
  }
  return graph;
});

function relationSet(graph: BoundaryGraph): string[] {
  return [
    ...new Set(
      graph.relations.map((r: GraphRelation) =>
        JSON.stringify([r.sourceId, r.targetId, r.kind, r.metadata])
      ),
    ),
  ].sort();
}

function copy(graph: BoundaryGraph): BoundaryGraph {
  return BoundaryGraph.fromJSON(graph.toJSON());
}

Deno.test("BoundaryGraph.merge() invariants (property)", async (t) => {
  await t.step("merge order does not change the nodes or relations", () => {
    fc.assert(
      fc.property(graphArb, graphArb, (a, b) => {
        const ab = copy(a);
        ab.merge(b, { allowShared: true });
        const ba = copy(b);
        ba.merge(a, { allowShared: true });
        assert.deepEqual(
          [...ab.nodes.keys()].sort(),
          [...ba.nodes.keys()].sort(),
        );
        assert.deepEqual(relationSet(ab), relationSet(ba));
      }),
      { numRuns: 300 },
    );
  });
  await t.step("merging twice equals merging once", () => {
    fc.assert(
      fc.property(graphArb, graphArb, (a, b) => {
        const once = copy(a);
        once.merge(b, { allowShared: true });
        const twice = copy(once);
        const result = twice.merge(b, { allowShared: true });
        assert.deepEqual(result, { nodesAdded: 0, relationsAdded: 0 });
        assert.equal(snapshot(twice), snapshot(once));
      }),
      { numRuns: 300 },
    );
  });
});

Deno.test("BoundaryGraph.toJSON() writes graphlens's schema version 1", () => {
  const graph = new BoundaryGraph({ metadata: { project: "shop" } });
  graph.addNode(fn("a", {
    filePath: "a.py",
    span: { startLine: 2, startCol: 1, endLine: 5, endCol: 9 },
    metadata: { decorators: ["app.get"] },
  }));
  graph.addNode({
    id: "b",
    kind: "boundary",
    qualifiedName: "http:GET /x",
    name: "GET /x",
    metadata: { mechanism: "http", key: "GET /x" },
  });
  graph.addRelation({
    sourceId: "a",
    targetId: "b",
    kind: "exposes",
    metadata: { confidence: 1 },
  });
  assert.deepEqual(JSON.parse(JSON.stringify(graph)), {
    schema_version: 1,
    metadata: { project: "shop" },
    nodes: [
      {
        id: "a",
        kind: "function",
        qualified_name: "mod.a",
        name: "a",
        file_path: "a.py",
        span: [2, 1, 5, 9],
        metadata: { decorators: ["app.get"] },
      },
      {
        id: "b",
        kind: "boundary",
        qualified_name: "http:GET /x",
        name: "GET /x",
        file_path: null,
        span: null,
        metadata: { mechanism: "http", key: "GET /x" },
      },
    ],
    relations: [
      {
        source_id: "a",
        target_id: "b",
        kind: "exposes",
        metadata: { confidence: 1 },
      },
    ],
  });
});

Deno.test("BoundaryGraph.fromJSON() round-trips text and objects", () => {
  const graph = new BoundaryGraph({ metadata: { n: 1 } });
  graph.addNode(fn("a", {
    span: { startLine: 1, startCol: 1, endLine: 1, endCol: 9 },
  }));
  graph.addNode(fn("b", { filePath: "b.ts" }));
  graph.addRelation({ sourceId: "a", targetId: "b", kind: "calls" });
  graph.addRelation({ sourceId: "a", targetId: "missing", kind: "imports" });
  const text = JSON.stringify(graph);
  const fromText = BoundaryGraph.fromJSON(text);
  const fromObject = BoundaryGraph.fromJSON(JSON.parse(text));
  assert.equal(JSON.stringify(fromText), text);
  assert.equal(JSON.stringify(fromObject), text);
  assert.deepEqual(fromText.getNode("a"), graph.getNode("a"));
  assert.deepEqual(fromText.outgoing("a"), graph.outgoing("a"));
});

Deno.test("BoundaryGraph.fromJSON() accepts missing optional fields", () => {
  const graph = BoundaryGraph.fromJSON({
    schema_version: 1,
    nodes: [{ id: "a", kind: "file", qualified_name: "a.py", name: "a.py" }],
    relations: [{ source_id: "a", target_id: "a", kind: "contains" }],
  });
  assert.deepEqual(graph.getNode("a")?.metadata, {});
  assert.deepEqual(graph.relations[0]?.metadata, {});
  assert.deepEqual(graph.metadata, {});
});

Deno.test("BoundaryGraph.fromJSON() names the JSON path of every problem", () => {
  try {
    BoundaryGraph.fromJSON({
      schema_version: 1,
      metadata: [],
      nodes: [
        { id: "ok", kind: "function", qualified_name: "q", name: "n" },
        { id: "", kind: "lambda", qualified_name: 1, name: "n", span: [1, 2] },
      ],
      relations: [{ source_id: "a", kind: "calls", metadata: 5 }],
    });
    assert.fail("expected an error");
  } catch (error) {
    assert.ok(error instanceof BoundaryValidationError);
    const paths = error.issues.map((issue) => issue.path);
    assert.deepEqual(paths, [
      "$.metadata",
      "$.nodes[1].id",
      "$.nodes[1].kind",
      "$.nodes[1].qualified_name",
      "$.nodes[1].span",
      "$.relations[0].target_id",
      "$.relations[0].metadata",
    ]);
    assert.match(error.message, /^Cannot load graph: \$\.metadata: /);
  }
});

Deno.test("BoundaryGraph.fromJSON() reports duplicate node ids", () => {
  assert.throws(
    () =>
      BoundaryGraph.fromJSON({
        schema_version: 1,
        nodes: [
          { id: "a", kind: "function", qualified_name: "a", name: "a" },
          { id: "a", kind: "function", qualified_name: "a", name: "a" },
        ],
        relations: [],
      }),
    {
      name: "BoundaryValidationError",
      message: 'Cannot load graph: $.nodes[1].id: duplicate node id "a"',
    },
  );
});

Deno.test("BoundaryGraph.fromJSON() reports duplicate ids with schema problems", () => {
  try {
    BoundaryGraph.fromJSON({
      schema_version: 1,
      nodes: [
        { id: "a", kind: "function", qualified_name: "a", name: "a" },
        { id: "a", kind: "lambda", qualified_name: "a", name: "a" },
      ],
      relations: [],
    });
    assert.fail("expected an error");
  } catch (error) {
    assert.ok(error instanceof BoundaryValidationError);
    assert.deepEqual(error.issues.map((issue) => issue.path), [
      "$.nodes[1].kind",
      "$.nodes[1].id",
    ]);
  }
});

Deno.test("BoundaryGraph.fromJSON() rejects an unsupported schema_version", () => {
  for (const version of [2, "1", 0, null, undefined]) {
    assert.throws(
      () =>
        BoundaryGraph.fromJSON({
          schema_version: version,
          nodes: [],
          relations: [],
        }),
      {
        name: "BoundaryValidationError",
        message:
          /^Cannot load graph: \$\.schema_version: unsupported schema_version/,
      },
    );
  }
});

Deno.test("BoundaryGraph.fromJSON() throws SyntaxError on invalid JSON", () => {
  assert.throws(() => BoundaryGraph.fromJSON("{nope"), {
    name: "SyntaxError",
    message: /^Cannot load graph: invalid JSON/,
  });
  assert.throws(() => BoundaryGraph.fromJSON("[]"), BoundaryValidationError);
  assert.throws(() => BoundaryGraph.fromJSON(null), BoundaryValidationError);
});
