import assert from "node:assert/strict";
import { addBoundary } from "../../src/boundary/add_boundary.ts";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { makeBoundaryId } from "../../src/boundary/id.ts";
import type { BoundaryRef } from "../../src/boundary/types.ts";

function graphWith(...ids: string[]): BoundaryGraph {
  const graph = new BoundaryGraph();
  for (const id of ids) {
    graph.addNode({ id, kind: "function", qualifiedName: id, name: id });
  }
  return graph;
}

const server: BoundaryRef = {
  mechanism: "http",
  role: "server",
  key: "GET /users/{}",
  line: 7,
  col: 1,
  confidence: 1,
  detail: { method: "GET", path: "/users/{}", framework: "fastapi" },
};

Deno.test("addBoundary() creates the boundary node exactly as graphlens does", () => {
  const graph = graphWith("h");
  const id = addBoundary(graph, "h", server);
  assert.equal(id, makeBoundaryId("http", "GET /users/{}"));
  assert.deepEqual(graph.getNode(id), {
    id,
    kind: "boundary",
    qualifiedName: "http:GET /users/{}",
    name: "GET /users/{}",
    metadata: { mechanism: "http", key: "GET /users/{}" },
  });
  assert.deepEqual(graph.toJSON().nodes[1], {
    id,
    kind: "boundary",
    qualified_name: "http:GET /users/{}",
    name: "GET /users/{}",
    file_path: null,
    span: null,
    metadata: { mechanism: "http", key: "GET /users/{}" },
  });
});

Deno.test("addBoundary() adds exposes for a server with graphlens's metadata order", () => {
  const graph = graphWith("h");
  const id = addBoundary(graph, "h", server, { filePath: "app/users.py" });
  const [relation] = graph.outgoing("h");
  assert.equal(relation?.kind, "exposes");
  assert.equal(relation?.targetId, id);
  assert.deepEqual(Object.entries(relation!.metadata), [
    ["mechanism", "http"],
    ["key", "GET /users/{}"],
    ["confidence", 1],
    ["role", "server"],
    ["line", 7],
    ["col", 1],
    ["method", "GET"],
    ["path", "/users/{}"],
    ["framework", "fastapi"],
    ["file_path", "app/users.py"],
  ]);
});

Deno.test("addBoundary() adds consumes for a client and reuses the boundary node", () => {
  const graph = graphWith("h", "c");
  const a = addBoundary(graph, "h", server);
  const b = addBoundary(graph, "c", {
    ...server,
    role: "client",
    confidence: 0.9,
    detail: {},
  });
  assert.equal(a, b);
  assert.equal(graph.nodesByKind("boundary").length, 1);
  assert.deepEqual(graph.incoming(a).map((r) => [r.sourceId, r.kind]), [
    ["h", "exposes"],
    ["c", "consumes"],
  ]);
  assert.equal(graph.outgoing("c")[0]?.metadata["confidence"], 0.9);
  assert.equal("file_path" in graph.outgoing("c")[0]!.metadata, false);
});

Deno.test("addBoundary() never lets detail overwrite the port's own fields", () => {
  const graph = graphWith("h");
  addBoundary(graph, "h", {
    ...server,
    confidence: 0.5,
    detail: { confidence: "high", role: "client", key: "x", raw: "app.get" },
  }, { filePath: "a.py" });
  const metadata = graph.outgoing("h")[0]!.metadata;
  assert.equal(metadata["confidence"], 0.5);
  assert.equal(metadata["role"], "server");
  assert.equal(metadata["key"], "GET /users/{}");
  assert.equal(metadata["raw"], "app.get");
});

Deno.test("addBoundary() rejects an invalid ref naming its fields", () => {
  const graph = graphWith("h");
  assert.throws(
    () =>
      addBoundary(graph, "h", {
        ...server,
        line: 0,
        confidence: 2,
      }),
    {
      name: "BoundaryValidationError",
      message: /^Cannot parse boundary ref: line: .*; confidence: /,
    },
  );
  assert.equal(graph.relations.length, 0);
  assert.equal(graph.nodes.size, 1);
});

Deno.test("addBoundary() requires the owner node to be in the graph", () => {
  const graph = graphWith();
  assert.throws(() => addBoundary(graph, "ghost", server), {
    name: "RangeError",
    message: 'Cannot add boundary: owner node "ghost" is not in the graph',
  });
  assert.equal(graph.nodes.size, 0);
});

Deno.test("addBoundary() throws DuplicateNodeError if the id holds another node", () => {
  const graph = graphWith("h");
  graph.addNode({
    id: makeBoundaryId("http", server.key),
    kind: "function",
    qualifiedName: "clash",
    name: "clash",
  });
  assert.throws(() => addBoundary(graph, "h", server), {
    name: "DuplicateNodeError",
  });
  assert.equal(graph.relations.length, 0);
});
