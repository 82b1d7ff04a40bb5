import assert from "node:assert/strict";
import { addBoundary } from "../../src/boundary/add_boundary.ts";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { linkGraph } from "../../src/boundary/link.ts";
import { serviceMap } from "../../src/map/service_map.ts";
import { polyglotGraph } from "./_graphs.ts";

Deno.test("serviceMap() groups the polyglot fixture by service with the flows between them", async () => {
  const map = serviceMap(await polyglotGraph(), { name: "shop" });
  assert.deepEqual(map.services.map((s) => s.name), [
    "inventory-java",
    "notifier-node",
    "ordering-go",
    "payments-py",
    "users-api",
    "web",
  ]);
  const flows = map.flows.map((f) => `${f.from} -${f.mechanism}-> ${f.to}`);
  assert.ok(flows.includes("web -http-> users-api"), flows.join("\n"));
  assert.ok(
    flows.includes("ordering-go -grpc-> inventory-java"),
    flows.join("\n"),
  );
  for (const flow of map.flows) {
    assert.ok(flow.links >= flow.keys.length);
    assert.deepEqual(flow.keys, [...flow.keys].sort());
  }
});

Deno.test("serviceMap() puts ports whose owner names no service under the map's name", () => {
  const graph = new BoundaryGraph();
  graph.addNode({ id: "a", kind: "function", qualifiedName: "a", name: "a" });
  graph.addNode({
    id: "b",
    kind: "function",
    qualifiedName: "b",
    name: "b",
    metadata: { service: "billing" },
  });
  const port = {
    mechanism: "queue",
    key: "paid",
    line: 1,
    col: 1,
    confidence: 0.5,
    detail: {},
  } as const;
  addBoundary(graph, "a", { ...port, role: "client" });
  addBoundary(graph, "b", { ...port, role: "server" });
  linkGraph(graph);
  const map = serviceMap(graph, { name: "org" });
  assert.deepEqual(
    map.services.map((s) => [s.name, s.provides.length, s.consumes.length]),
    [
      ["billing", 1, 0],
      ["org", 0, 1],
    ],
  );
  assert.deepEqual(map.flows, [{
    from: "org",
    to: "billing",
    mechanism: "queue",
    keys: ["paid"],
    links: 1,
    confidence: 0.25,
  }]);
  assert.equal(serviceMap(graph).name, "services");
});
