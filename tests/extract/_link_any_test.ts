import assert from "node:assert/strict";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { linkAnyMethod } from "../../src/extract/_link_any.ts";
import { addHttpPort } from "./_port_graph.ts";

/** `callers` calls of each method and `routes` ANY routes on one path. */
function anyRoutes(
  methods: readonly string[],
  callers: number,
  routes: number,
): BoundaryGraph {
  const graph = new BoundaryGraph();
  const port = (owner: string, role: "client" | "server", key: string) =>
    addHttpPort(graph, owner, role, key);
  for (const method of methods) {
    for (let i = 0; i < callers; i++) {
      port(`${method}-${i}`, "client", `${method} /x`);
    }
  }
  for (let i = 0; i < routes; i++) port(`any${i}`, "server", "ANY /x");
  return graph;
}

Deno.test("linkAnyMethod() links calls of any method to ANY routes", () => {
  const graph = anyRoutes(["GET", "POST"], 2, 1);
  const result = linkAnyMethod(graph, { minConfidence: 0 });
  assert.equal(result.relationsAdded, 4);
  assert.deepEqual(result.cuts, []);
  for (const link of graph.relationsByKind("communicates_with")) {
    assert.equal(link.targetId, "any0");
    assert.equal(link.metadata["provider_boundary_key"], "ANY /x");
  }
  assert.equal(linkAnyMethod(graph, { minConfidence: 0 }).relationsAdded, 0);
});

Deno.test("linkAnyMethod() keeps links linear across methods and reports the cut", () => {
  const methods = Array.from({ length: 40 }, (_, i) => `M${i}`);
  const graph = anyRoutes(methods, 30, 200);
  const result = linkAnyMethod(graph, {
    minConfidence: 0,
    maxLinksPerBoundary: 100,
  });
  const consumers = methods.length * 30;
  assert.ok(
    result.relationsAdded <= consumers + 200 + 100,
    `${result.relationsAdded} links`,
  );
  const links = graph.relationsByKind("communicates_with");
  assert.equal(new Set(links.map((l) => l.sourceId)).size, consumers);
  assert.equal(new Set(links.map((l) => l.targetId)).size, 200);
  assert.equal(result.cuts.length, 1);
  assert.equal(result.cuts[0]?.key, "ANY /x");
  assert.equal(result.cuts[0]?.consumers, consumers);
  assert.equal(result.cuts[0]?.providers, 200);
  const again = linkAnyMethod(graph, {
    minConfidence: 0,
    maxLinksPerBoundary: 100,
  });
  assert.equal(again.relationsAdded, 0);
});
