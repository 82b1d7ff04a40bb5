import assert from "node:assert/strict";
import { exportGraph } from "../../src/map/export_graph.ts";
import { hasRawControl, hostileGraph, polyglotGraph } from "./_graphs.ts";

Deno.test("exportGraph() writes each format's files", async () => {
  const graph = await polyglotGraph();
  const paths = (format: Parameters<typeof exportGraph>[1]["format"]) =>
    exportGraph(graph, { format, name: "shop" }).map((f) => f.path);
  assert.deepEqual(paths("backstage"), ["catalog-info.yaml"]);
  assert.deepEqual(paths("cyclonedx"), ["bom.cdx.json"]);
  assert.deepEqual(paths("cypher"), ["graph.cypher"]);
  assert.deepEqual(paths("csv"), ["nodes.csv", "relationships.csv"]);
  assert.deepEqual(paths("openapi"), ["openapi/users-api.json"]);
  const [catalog] = exportGraph(graph, {
    format: "backstage",
    owner: "team-shop",
    system: "shop",
  });
  assert.match(catalog!.text, /"owner": "team-shop"/);
  assert.match(catalog!.text, /"system": "shop"/);
  const [openapi] = exportGraph(graph, { format: "openapi", version: "9.9.9" });
  assert.equal(JSON.parse(openapi!.text).info.version, "9.9.9");
  assert.throws(() => exportGraph(graph, { format: "dot" as "csv" }), {
    name: "RangeError",
    message: /unknown format "dot"/,
  });
});

Deno.test("exportGraph() makes file names of hostile services safe and distinct", () => {
  const files = exportGraph(hostileGraph(), { format: "openapi" });
  const paths = files.map((f) => f.path);
  assert.equal(new Set(paths).size, paths.length);
  for (const path of paths) {
    assert.match(path, /^openapi\/[A-Za-z0-9_-]+\.json$/);
  }
  for (const file of files) assert.ok(!hasRawControl(file.text));
});
