import assert from "node:assert/strict";
import { javascriptExtractor } from "../../../src/extract/javascript/mod.ts";
import { portLines } from "../_fixtures.ts";

Deno.test("javascriptExtractor reads LoopBack 4 controller decorators under @api basePath", async () => {
  const { ports, diagnostics } = await javascriptExtractor.extract([{
    path: "src/controllers/order.controller.ts",
    text: [
      "import {api, del, get, operation, param, post} from '@loopback/rest';",
      "import {get as fetchIt} from './client';",
      "@api({basePath: '/shop'})",
      "export class OrderController {",
      "  @get('/orders/{id}')",
      "  async find(@param.path.string('id') id: string) {}",
      "  @post('/orders')",
      "  async create() {}",
      "  @del('/orders/{id}')",
      "  async remove() {}",
      "  @operation('head', '/orders')",
      "  async probe() {}",
      "}",
    ].join("\n"),
  }, {
    // the same decorator names from elsewhere are no routes
    path: "src/other.ts",
    text: [
      "import {get} from './decorators';",
      "export class Cache {",
      "  @get('/not-a-route')",
      "  load() {}",
      "}",
    ].join("\n"),
  }]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(portLines(ports), [
    "server DELETE /shop/orders/{} src/controllers/order.controller.ts:9",
    "server GET /shop/orders/{} src/controllers/order.controller.ts:5",
    "server HEAD /shop/orders src/controllers/order.controller.ts:11",
    "server POST /shop/orders src/controllers/order.controller.ts:7",
  ]);
});
