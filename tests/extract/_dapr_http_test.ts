import assert from "node:assert/strict";
import { scan } from "../../src/extract/scan.ts";
import { buildReport } from "../../src/extract/report.ts";
import { makeTree, route } from "./_temp_tree.ts";

Deno.test("scan() reads calls to the Dapr sidecar as the publish or the invocation they are, in any language", async () => {
  const root = await makeTree({
    "checkout/package.json": '{ "name": "checkout" }',
    "checkout/app.js":
      `const sidecar = "http://localhost:" + process.env.DAPR_HTTP_PORT;
export const order = (o) =>
  fetch(sidecar + "/v1.0/publish/pubsub/orders", { method: "POST", body: o });
export const get = (id) => fetch(\`\${sidecar}/v1.0/invoke/orders/method/orders/\${id}\`);
export const unknown = (t) => fetch(sidecar + "/v1.0/publish/pubsub/" + t, { method: "POST" });
`,
    "orders/package.json": '{ "name": "orders" }',
    "orders/server.js": route("/orders/:id"),
    "orders/worker.py": `from dapr.ext.grpc import App
app = App()

@app.subscribe(pubsub_name="pubsub", topic="orders")
def on_order(event):
    pass
`,
    // the same route in another app: the invocation names its app
    "billing/package.json": '{ "name": "billing" }',
    "billing/server.js": route("/orders/:id"),
  });
  const result = await scan([root]);
  const links = buildReport(result.graph).links.map((link) =>
    `${link.consumer.filePath} ${link.mechanism} ${link.consumer.key} -> ${link.provider.filePath}`
  ).sort();
  assert.deepEqual(links, [
    "checkout/app.js http GET /orders/{} -> orders/server.js",
    "checkout/app.js queue orders -> orders/worker.py",
  ]);
  const keys = result.graph.nodesByKind("boundary").map((n) =>
    `${n.metadata["mechanism"]} ${n.metadata["key"]}`
  ).sort();
  // a topic the code does not tell stays the HTTP call it is
  assert.ok(keys.includes("http POST /v1.0/publish/pubsub/{}"), keys.join());
});
