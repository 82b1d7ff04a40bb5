import assert from "node:assert/strict";
import { addBoundary } from "../../src/boundary/add_boundary.ts";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { linkGraph } from "../../src/boundary/link.ts";
import {
  communications,
  consumersOf,
  providersOf,
  unconsumedProviders,
  unmatchedConsumers,
} from "../../src/boundary/queries.ts";
import type { BoundaryRef } from "../../src/boundary/types.ts";

function port(
  role: "server" | "client",
  key: string,
  confidence = 1,
): BoundaryRef {
  return {
    mechanism: "queue",
    role,
    key,
    line: 3,
    col: 5,
    confidence,
    detail: {},
  };
}

function sample(): {
  graph: BoundaryGraph;
  created: string;
  legacy: string;
  missing: string;
} {
  const graph = new BoundaryGraph();
  for (const id of ["pub", "worker", "audit", "old", "orphan"]) {
    graph.addNode({ id, kind: "function", qualifiedName: id, name: id });
  }
  const created = addBoundary(
    graph,
    "worker",
    port("server", "orders.created"),
  );
  addBoundary(graph, "audit", port("server", "orders.created", 0.5));
  addBoundary(graph, "pub", port("client", "orders.created", 0.8), {
    filePath: "pub.ts",
  });
  const legacy = addBoundary(graph, "old", port("server", "orders.legacy"));
  const missing = addBoundary(
    graph,
    "orphan",
    port("client", "orders.missing"),
  );
  return { graph, created, legacy, missing };
}

Deno.test("providersOf() and consumersOf() list the ports of a boundary", () => {
  const { graph, created } = sample();
  assert.deepEqual(
    providersOf(graph, created).map((p) => [p.ownerId, p.confidence]),
    [
      ["worker", 1],
      ["audit", 0.5],
    ],
  );
  assert.deepEqual(consumersOf(graph, created), [{
    boundaryId: created,
    mechanism: "queue",
    key: "orders.created",
    ownerId: "pub",
    role: "client",
    confidence: 0.8,
    filePath: "pub.ts",
    line: 3,
    col: 5,
  }]);
});

Deno.test("providersOf() throws RangeError for an id that is not a boundary", () => {
  const { graph } = sample();
  assert.throws(() => providersOf(graph, "pub"), RangeError);
  assert.throws(() => consumersOf(graph, "nope"), {
    name: "RangeError",
    message: /Cannot list ports: "nope" is not a boundary node/,
  });
});

Deno.test("unmatchedConsumers() lists calls that nobody provides", () => {
  const { graph, missing } = sample();
  assert.deepEqual(
    unmatchedConsumers(graph).map((p) => [p.boundaryId, p.ownerId]),
    [
      [missing, "orphan"],
    ],
  );
});

Deno.test("unconsumedProviders() lists interfaces that nobody uses", () => {
  const { graph, legacy } = sample();
  assert.deepEqual(
    unconsumedProviders(graph).map((p) => [p.boundaryId, p.ownerId, p.role]),
    [
      [legacy, "old", "server"],
    ],
  );
});

Deno.test("communications() lists consumer, provider, mechanism, key and confidence", () => {
  const { graph, created } = sample();
  assert.deepEqual(communications(graph), []);
  linkGraph(graph);
  assert.deepEqual(communications(graph), [
    {
      consumerId: "pub",
      providerId: "worker",
      mechanism: "queue",
      key: "orders.created",
      boundaryId: created,
      confidence: 0.8,
    },
    {
      consumerId: "pub",
      providerId: "audit",
      mechanism: "queue",
      key: "orders.created",
      boundaryId: created,
      confidence: 0.4,
    },
  ]);
});
