import assert from "node:assert/strict";
import { javascriptExtractor } from "../../../src/extract/javascript/mod.ts";
import { portLines } from "../_fixtures.ts";

Deno.test("javascriptExtractor reads koa-router named routes under the router's prefix", async () => {
  const { ports, diagnostics } = await javascriptExtractor.extract([{
    path: "server.js",
    text: [
      "const Router = require('@koa/router');",
      "const router = new Router();",
      "router.prefix('/api');",
      "router.get('user.show', '/users/:id', (ctx) => {});",
      "router.post('/users', (ctx) => {});",
      // a name alone, without a path, is no route
      "router.get('user.list', (ctx) => {});",
    ].join("\n"),
  }]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(portLines(ports), [
    "server GET /api/users/{} server.js:4",
    "server POST /api/users server.js:5",
  ]);
});
