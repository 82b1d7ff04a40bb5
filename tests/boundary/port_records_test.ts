import assert from "node:assert/strict";
import { addBoundary } from "../../src/boundary/add_boundary.ts";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { makeBoundaryId } from "../../src/boundary/id.ts";
import { portRecords, serviceOf } from "../../src/boundary/port_records.ts";

Deno.test("portRecords() flattens every port with its owner, service and place", () => {
  const graph = new BoundaryGraph();
  graph.addNode({
    id: "api:users.py::get_user",
    kind: "function",
    qualifiedName: "users.py::get_user",
    name: "get_user",
    filePath: "users.py",
    metadata: { root: "api" },
  });
  graph.addNode({
    id: "x",
    kind: "function",
    qualifiedName: "x.ts::call",
    name: "call",
    filePath: "x.ts",
    metadata: { service: "billing" },
  });
  const port = { line: 3, col: 1, confidence: 1, detail: {} } as const;
  addBoundary(graph, "api:users.py::get_user", {
    ...port,
    mechanism: "http",
    role: "server",
    key: "GET /users/{}",
  }, { filePath: "users.py" });
  addBoundary(graph, "x", {
    ...port,
    mechanism: "queue",
    role: "client",
    key: "orders",
    confidence: 0.5,
  });
  // a port whose owner is not a node of the graph
  graph.addRelation({
    sourceId: "ghost",
    targetId: makeBoundaryId("queue", "orders"),
    kind: "consumes",
    metadata: {},
  });
  assert.deepEqual(portRecords(graph, "shop"), [{
    graph: "shop",
    boundaryId: makeBoundaryId("http", "GET /users/{}"),
    mechanism: "http",
    key: "GET /users/{}",
    role: "server",
    ownerId: "api:users.py::get_user",
    owner: "users.py::get_user",
    service: "api",
    confidence: 1,
    filePath: "users.py",
    line: 3,
    col: 1,
  }, {
    graph: "shop",
    boundaryId: makeBoundaryId("queue", "orders"),
    mechanism: "queue",
    key: "orders",
    role: "client",
    ownerId: "x",
    owner: "x.ts::call",
    service: "billing",
    confidence: 0.5,
    filePath: "x.ts",
    line: 3,
    col: 1,
  }, {
    graph: "shop",
    boundaryId: makeBoundaryId("queue", "orders"),
    mechanism: "queue",
    key: "orders",
    role: "client",
    ownerId: "ghost",
    owner: "ghost",
    service: "",
    confidence: 1,
  }]);
});

Deno.test("serviceOf() prefers the root label to the service metadata", () => {
  const node = {
    id: "n",
    kind: "function" as const,
    qualifiedName: "n",
    name: "n",
    metadata: { root: "web", service: "frontend" },
  };
  assert.equal(serviceOf(node), "web");
  assert.equal(
    serviceOf({ ...node, metadata: { service: "frontend" } }),
    "frontend",
  );
  assert.equal(serviceOf({ ...node, metadata: { root: 3 } }), "");
});

Deno.test("portRecords() tells what a provider requires: a permission, or a user", () => {
  const graph = new BoundaryGraph();
  graph.addNode({ id: "h", kind: "function", qualifiedName: "h", name: "h" });
  const port = {
    mechanism: "http",
    role: "server",
    line: 1,
    col: 1,
    confidence: 1,
  } as const;
  addBoundary(graph, "h", {
    ...port,
    key: "GET /a",
    detail: { permission: "post:read" },
  });
  addBoundary(graph, "h", {
    ...port,
    key: "GET /b",
    detail: { auth: "required" },
  });
  addBoundary(graph, "h", { ...port, key: "GET /c", detail: {} });
  assert.deepEqual(
    portRecords(graph, "g").map((p) => [p.key, p.requires]),
    [["GET /a", "post:read"], ["GET /b", "user"], ["GET /c", undefined]],
  );
});
