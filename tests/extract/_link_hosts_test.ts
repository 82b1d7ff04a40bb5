import assert from "node:assert/strict";
import { scan } from "../../src/extract/scan.ts";
import { buildReport } from "../../src/extract/report.ts";
import { makeTree, route } from "./_temp_tree.ts";

/** Each link of a scan as `consumer file key -> provider file`. */
async function links(root: string): Promise<string[]> {
  const result = await scan([root]);
  return buildReport(result.graph).links.map((link) =>
    `${link.consumer.filePath} ${link.consumer.key} -> ${link.provider.filePath}`
  ).sort();
}

const PACKAGE = '{ "name": "x" }';

Deno.test("scan() links a call only to the service its URL's host names, from the code or the deployment's environment", async () => {
  const root = await makeTree({
    "balancereader/package.json": PACKAGE,
    "balancereader/server.js": route("/balances/:id"),
    "monolith/package.json": PACKAGE,
    "monolith/server.js": route("/balances/:id"),
    // the monolith's own manifest sets the variable for the monolith only
    "monolith/config.yaml": `apiVersion: v1
kind: ConfigMap
metadata: { name: monolith-env }
data:
  BALANCES_ADDR: "monolith:8080"
`,
    "deploy/config.yaml": `apiVersion: v1
kind: ConfigMap
metadata: { name: env }
data:
  BALANCES_ADDR: "balancereader.bank.svc.cluster.local:8080"
`,
    "writer/package.json": PACKAGE,
    "writer/client.js": `export const balance = (id) =>
  fetch(\`http://\${process.env.BALANCES_ADDR}/balances/\${id}\`);
`,
    "reports/package.json": PACKAGE,
    "reports/client.js": `export const balance = (id) =>
  fetch("http://monolith:8080/balances/" + id);
`,
    // a host nothing sets, and no host at all: every provider stays
    "audit/package.json": PACKAGE,
    "audit/client.js":
      `export const a = (id) => fetch(\`http://\${process.env.NOBODY_SETS}/balances/\${id}\`);
export const b = (id) => fetch("/balances/" + id);
`,
  });
  assert.deepEqual(await links(root), [
    "audit/client.js GET /balances/{} -> balancereader/server.js",
    "audit/client.js GET /balances/{} -> balancereader/server.js",
    "audit/client.js GET /balances/{} -> monolith/server.js",
    "audit/client.js GET /balances/{} -> monolith/server.js",
    "reports/client.js GET /balances/{} -> monolith/server.js",
    "writer/client.js GET /balances/{} -> balancereader/server.js",
  ]);
});
