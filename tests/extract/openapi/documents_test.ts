import assert from "node:assert/strict";
import { openapiExtractor } from "../../../src/extract/openapi/mod.ts";
import { portLines } from "../_fixtures.ts";

async function portsOf(path: string, text: string): Promise<string[]> {
  const { ports, diagnostics } = await openapiExtractor.extract([{
    path,
    text,
  }]);
  assert.deepEqual(diagnostics, []);
  return portLines(ports);
}

Deno.test("openapiExtractor follows path items that are local $refs, in OpenAPI 3 and Swagger 2", async () => {
  assert.deepEqual(
    await portsOf(
      "api.yaml",
      `openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /orders:
    $ref: "#/components/pathItems/Orders"
  /a~1b:
    $ref: "#/components/pathItems/Missing"
  /loop:
    $ref: "#/components/pathItems/Loop"
components:
  pathItems:
    Orders:
      get: { responses: { "200": { description: ok } } }
      post: { responses: { "201": { description: ok } } }
    Loop:
      $ref: "#/components/pathItems/Loop"
`,
    ),
    ["server GET /orders api.yaml:13", "server POST /orders api.yaml:14"],
  );
  assert.deepEqual(
    await portsOf(
      "swagger.yaml",
      `swagger: "2.0"
info: { title: t, version: "1" }
basePath: /api
paths:
  /items:
    $ref: "#/x-paths/Items"
x-paths:
  Items:
    delete: { responses: { "204": { description: gone } } }
`,
    ),
    ["server DELETE /api/items swagger.yaml:9"],
  );
});

Deno.test("openapiExtractor reads a server written without a scheme and skips placeholder servers", async () => {
  assert.deepEqual(
    await portsOf(
      "servers.yaml",
      `openapi: 3.0.0
info: { title: t, version: "1" }
servers:
  - url: api.example.com/hosted
  - url: <your-server-address>
  - url: localhost:8080/local
paths:
  /tickets:
    get: { responses: { "200": { description: ok } } }
`,
    ),
    [
      "server GET /hosted/tickets servers.yaml:9",
      "server GET /local/tickets servers.yaml:9",
    ],
  );
});

Deno.test("openapiExtractor forgives a tab on a blank line inside a block scalar, keeping line numbers", async () => {
  assert.deepEqual(
    await portsOf(
      "tabs.yaml",
      "openapi: 3.0.0\ninfo: { title: t, version: '1' }\npaths:\n  /widgets:\n" +
        "    get:\n      description: |-\n\t\n        text after a tabbed blank line\n" +
        "      responses: { '200': { description: ok } }\n",
    ),
    ["server GET /widgets tabs.yaml:5"],
  );
  // a document broken in another way still says where
  const { diagnostics } = await openapiExtractor.extract([{
    path: "broken.yaml",
    text: "openapi: 3.0.0\npaths:\n\t\n  /x: [\n",
  }]);
  assert.equal(diagnostics.length, 1);
  assert.match(diagnostics[0]!.message, /^Cannot parse: /);
});
