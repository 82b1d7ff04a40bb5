// deno bench benches/boundary_graph_bench.ts
// Sizes 1e3 and 1e4 here; 1e5 and 1e6 are measured by
// benches/boundary_scale.ts (see BENCHMARKS.md).
import { BoundaryGraph } from "../src/boundary/graph.ts";
import { linkGraph } from "../src/boundary/link.ts";
import { mergedGraph, sideGraph, wideGraph } from "./_boundary_fixtures.ts";

for (const size of [1_000, 10_000]) {
  Deno.bench({
    name: `linkGraph ${size} boundaries (2x2 ports)`,
    group: "linkGraph",
    n: size === 1_000 ? 20 : 5,
    warmup: 1,
    fn(b): void {
      const graph = mergedGraph(size);
      b.start();
      linkGraph(graph);
      b.end();
    },
  });
  Deno.bench({
    name: `merge ${size} boundaries (client + server)`,
    group: "merge",
    n: size === 1_000 ? 20 : 5,
    warmup: 1,
    fn(b): void {
      const client = sideGraph(size, "client");
      const server = sideGraph(size, "server");
      b.start();
      client.merge(server, { allowShared: true });
      b.end();
    },
  });
}

for (
  const [pairs, options] of [
    ["every pair", { maxLinksPerBoundary: 1_000_000 }],
    ["cut at the default budget", {}],
  ] as const
) {
  Deno.bench({
    name: `linkGraph 1 boundary, 1000 x 1000 ports, ${pairs}`,
    group: "linkGraph wide",
    n: 3,
    warmup: 1,
    fn(b): void {
      const graph = wideGraph(1_000, 1_000);
      b.start();
      linkGraph(graph, options);
      b.end();
    },
  });
}

Deno.bench({
  name: "linkGraph again (idempotent pass) 10000 boundaries",
  group: "linkGraph again",
  n: 5,
  warmup: 1,
  fn(b): void {
    const graph = mergedGraph(10_000);
    linkGraph(graph);
    b.start();
    linkGraph(graph);
    b.end();
  },
});

Deno.bench({
  name: "toJSON + fromJSON 1000 boundaries (linked)",
  group: "json",
  n: 10,
  warmup: 1,
  fn(b): void {
    const graph = mergedGraph(1_000);
    linkGraph(graph);
    b.start();
    BoundaryGraph.fromJSON(JSON.stringify(graph));
    b.end();
  },
});
