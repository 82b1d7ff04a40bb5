import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { renderReport } from "../../src/extract/render_report.ts";
import { scan } from "../../src/extract/scan.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/extract", import.meta.url));
const roots = [...Deno.readDirSync(FIXTURES)].filter((e) => e.isDirectory)
  .map((e) => `${FIXTURES}/${e.name}`).sort();
const graph = (await scan(roots)).graph;

/** Node and edge lines of a DOT graph. */
function dotCounts(dot: string): { nodes: number; edges: number } {
  const lines = dot.split("\n");
  return {
    nodes: lines.filter((l) => /^\s+n\d+ \[label=/.test(l)).length,
    edges: lines.filter((l) => / -> /.test(l)).length,
  };
}

Deno.test("renderReport() dot with collapse draws one box per service and one edge per pair of services", () => {
  const full = dotCounts(renderReport(graph, { format: "dot" }));
  const collapsed = renderReport(graph, { format: "dot", collapse: "service" });
  const counts = dotCounts(collapsed);
  assert.ok(counts.nodes <= roots.length, `${counts.nodes} boxes`);
  assert.ok(
    counts.nodes < full.nodes / 4,
    `${counts.nodes} < ${full.nodes} / 4`,
  );
  assert.ok(
    counts.edges < full.edges / 2,
    `${counts.edges} < ${full.edges} / 2`,
  );
  assert.match(
    collapsed,
    /\[label="(http|grpc|queue|temporal)[^"]* \d+ keys? /,
  );
  // no subgraph per root: each box is its root
  assert.ok(!collapsed.includes("subgraph"));
});

Deno.test("renderReport() mermaid with a mechanism filter draws only those links and calls", () => {
  const grpc = renderReport(graph, { format: "mermaid", mechanisms: ["grpc"] });
  const labels = [...grpc.matchAll(/\|"([^"]+)"\|/g)].map((m) => m[1]!);
  assert.ok(labels.length > 0);
  for (const label of labels) {
    assert.ok(!/^(GET|POST|PUT|DELETE|PATCH|ANY) \//.test(label), label);
  }
  const both = renderReport(graph, {
    format: "mermaid",
    mechanisms: ["grpc"],
    collapse: "service",
  });
  assert.match(both, /-->\|"grpc \d+ keys? \(/);
  assert.ok(!/http \d+ key/.test(both));
});

Deno.test("renderReport() rejects a bad collapse or mechanisms with RangeError", () => {
  assert.throws(
    () => renderReport(graph, { format: "dot", collapse: "file" as "service" }),
    { name: "RangeError", message: /collapse must be "service"/ },
  );
  assert.throws(
    () =>
      renderReport(graph, {
        format: "dot",
        mechanisms: "http" as unknown as string[],
      }),
    { name: "RangeError", message: /mechanisms must be a list of strings/ },
  );
});
