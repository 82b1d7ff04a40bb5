import assert from "node:assert/strict";
import { openapiExtractor } from "../../../src/extract/openapi/mod.ts";
import { portLines } from "../_fixtures.ts";

const API = `#%RAML 1.0
title: Shop
version: v3
baseUri: https://shop.example.com/api/{version}
resourceTypes:
  member:
    get:
    put:
  collection: !include types/collection.raml
/orders:
  type: collection
  /{orderId}:
    type: member
    delete:
    /lines:
      get:
  /search:
    get:
      queryParameters:
        q: string
`;

Deno.test("openapiExtractor reads RAML resources, nested paths, resource types and includes", async () => {
  const { ports, diagnostics } = await openapiExtractor.extract([
    { path: "api/shop.raml", text: API },
    {
      path: "api/types/collection.raml",
      text: "#%RAML 1.0 ResourceType\nget:\npost:\n",
    },
  ]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(portLines(ports), [
    "server DELETE /api/v3/orders/{} api/shop.raml:14",
    "server GET /api/v3/orders api/shop.raml:10",
    "server GET /api/v3/orders/search api/shop.raml:18",
    "server GET /api/v3/orders/{} api/shop.raml:12",
    "server GET /api/v3/orders/{}/lines api/shop.raml:16",
    "server POST /api/v3/orders api/shop.raml:10",
    "server PUT /api/v3/orders/{} api/shop.raml:12",
  ]);
  assert.equal(ports[0]!.ref.detail?.["framework"], "raml");
});

Deno.test("openapiExtractor reads no ports from RAML fragments or YAML without the RAML header", async () => {
  const { ports, diagnostics } = await openapiExtractor.extract([
    {
      path: "ext.raml",
      text: "#%RAML 1.0 Extension\nextends: api.raml\n/products:\n  get:\n",
    },
    {
      path: "lib.raml",
      text: "#%RAML 1.0 Library\ntypes:\n  Item: object\n",
    },
    { path: "config.yaml", text: "title: not an API\n/users:\n  get: yes\n" },
  ]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(ports, []);
});

Deno.test("openapiExtractor says where a RAML definition does not parse", async () => {
  const { ports, diagnostics } = await openapiExtractor.extract([
    { path: "bad.raml", text: "#%RAML 1.0\n/users:\n  get: [\n" },
  ]);
  assert.deepEqual(ports, []);
  assert.equal(diagnostics.length, 1);
  assert.match(diagnostics[0]!.message, /^Cannot parse: \S+ at \d+:\d+$/);
});
