import assert from "node:assert/strict";
import { scan } from "../../src/extract/scan.ts";
import { buildReport } from "../../src/extract/report.ts";
import { makeTree } from "./_temp_tree.ts";

/** `n` TypeScript functions calling GET /x and `n` Flask handlers of it. */
async function crowdedBoundary(n: number): Promise<string> {
  let client = "";
  let server = "from flask import Flask\napp = Flask(__name__)\n";
  for (let i = 0; i < n; i++) {
    client += `export function call${i}() { return fetch("/x"); }\n`;
    server += `@app.route("/x")\ndef handle${i}():\n    return "ok"\n`;
  }
  return await makeTree({ "web/client.ts": client, "api/app.py": server });
}

Deno.test("scan() cuts a boundary over maxLinksPerBoundary, warns and records it in the graph", async () => {
  const root = await crowdedBoundary(300);
  try {
    const result = await scan([root], { maxLinksPerBoundary: 100 });
    const links = result.graph.relationsByKind("communicates_with");
    assert.ok(links.length <= 300 + 300 + 100, `${links.length} links`);
    assert.equal(new Set(links.map((l) => l.sourceId)).size, 300);
    assert.equal(new Set(links.map((l) => l.targetId)).size, 300);
    assert.equal(result.link.cuts.length, 1);
    const warnings = result.diagnostics.filter((d) => d.budget);
    assert.deepEqual(warnings.map((d) => [d.budget, d.root, d.severity]), [
      ["maxLinksPerBoundary", "", "warning"],
    ]);
    assert.match(
      warnings[0]!.message,
      /^Cannot link every pair of http "GET \/x": 300 consumers x 300 providers exceed 100 links/,
    );
    const report = buildReport(result.graph);
    assert.equal(report.unmatchedConsumers.length, 0);
    assert.equal(report.unconsumedProviders.length, 0);
    const recorded = result.graph.metadata["budgets_hit"] as Array<
      Record<string, string>
    >;
    assert.equal(recorded[0]?.budget, "maxLinksPerBoundary");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
