import assert from "node:assert/strict";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { linkGraph } from "../../src/boundary/link.ts";
import { linkLoosely } from "../../src/extract/_link_loose.ts";
import { addHttpPort } from "./_port_graph.ts";

function graphOf(
  ports: Array<[string, "client" | "server", string]>,
): BoundaryGraph {
  const graph = new BoundaryGraph();
  for (const [owner, role, key] of ports) addHttpPort(graph, owner, role, key);
  return graph;
}

function links(graph: BoundaryGraph): string[] {
  return graph.relationsByKind("communicates_with").map((r) =>
    `${r.sourceId} ${r.metadata["boundary_key"]} -> ${r.targetId} ${
      r.metadata["provider_boundary_key"] ?? r.metadata["boundary_key"]
    }`
  ).sort();
}

Deno.test("linkLoosely() links an unlinked call to the route template or other-case path serving it", () => {
  const graph = graphOf([
    ["pay", "server", "POST /pay/{}"],
    ["vehicles", "server", "GET /VehicleInfo/{}"],
    ["me", "server", "GET /users/me"],
    ["user", "server", "GET /users/{}"],
    ["shop", "client", "POST /pay/partner-7"],
    ["fines", "client", "GET /vehicleinfo/{}"],
    ["web", "client", "GET /users/me"],
  ]);
  linkGraph(graph);
  const result = linkLoosely(graph, {});
  assert.equal(result.relationsAdded, 2);
  assert.deepEqual(links(graph), [
    "fines GET /vehicleinfo/{} -> vehicles GET /VehicleInfo/{}",
    "shop POST /pay/partner-7 -> pay POST /pay/{}",
    // linked by its exact key: no template added
    "web GET /users/me -> me GET /users/me",
  ]);
});

Deno.test("linkLoosely() keeps to accept and to the budget", () => {
  const graph = graphOf([
    ["a", "server", "GET /x/{}"],
    ["b", "server", "GET /x/{}"],
    ["c", "server", "GET /x/{}"],
    ["caller", "client", "GET /x/1a"],
  ]);
  const result = linkLoosely(graph, {
    maxLinksPerBoundary: 1,
    accept: (_consumer, provider) => provider !== "a",
  });
  assert.deepEqual(links(graph), ["caller GET /x/1a -> b GET /x/{}"]);
  assert.equal(result.cuts.length, 1);
  assert.equal(result.cuts[0]?.linksAdded, 1);
});
