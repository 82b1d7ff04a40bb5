import assert from "node:assert/strict";
import type { SourceFile } from "../../../src/extract/extractor.ts";
import { serverLines } from "./_servers.ts";

const ROUTES: SourceFile = {
  path: "app/config/routes.js",
  text: [
    "module.exports.routes = {",
    "  'GET /orders/:id': 'OrderController.findOne',",
    "  'post /checkout': { action: 'cart/checkout' },",
    "  '/hook': function (req, res) { return res.ok(); },",
    "  'r|^/\\\\d+$|': 'legacy/number',",
    "  'FETCH /nope': 'not/a/verb',",
    "};",
  ].join("\n"),
};

const MODEL: SourceFile = {
  path: "app/api/models/Invoice.js",
  text:
    "module.exports = {\n  attributes: { total: { type: 'number' } },\n};\n",
};

const ACTION: SourceFile = {
  path: "app/api/controllers/cart/checkout.js",
  text: "module.exports = {\n  fn: async function (inputs, exits) {},\n};\n",
};

const CONTROLLER: SourceFile = {
  path: "app/api/controllers/OrderController.js",
  text:
    "module.exports = {\n  findOne: function (req, res) {},\n  _hidden() {},\n};\n",
};

Deno.test("javascriptExtractor reads Sails custom routes and REST blueprints of models", async () => {
  assert.deepEqual(await serverLines([ROUTES, MODEL, ACTION, CONTROLLER]), [
    "server ANY /hook app/config/routes.js:4",
    "server DELETE /invoice/{} app/api/models/Invoice.js:1",
    "server GET /invoice app/api/models/Invoice.js:1",
    "server GET /invoice/{} app/api/models/Invoice.js:1",
    "server GET /orders/{} app/config/routes.js:2",
    "server PATCH /invoice/{} app/api/models/Invoice.js:1",
    "server POST /checkout app/config/routes.js:3",
    "server POST /invoice app/api/models/Invoice.js:1",
  ]);
});

Deno.test("javascriptExtractor gives Sails action routes only when blueprints turn them on, and no REST routes when off", async () => {
  const blueprints: SourceFile = {
    path: "app/config/blueprints.js",
    text:
      "module.exports.blueprints = { actions: true, rest: false, prefix: '/api' };\n",
  };
  assert.deepEqual(
    await serverLines([ROUTES, MODEL, ACTION, CONTROLLER, blueprints]),
    [
      "server ANY /api/cart/checkout app/api/controllers/cart/checkout.js:1",
      "server ANY /api/order/findone app/api/controllers/OrderController.js:2",
      "server ANY /hook app/config/routes.js:4",
      "server GET /orders/{} app/config/routes.js:2",
      "server POST /checkout app/config/routes.js:3",
    ],
  );
});

Deno.test("javascriptExtractor reads no Sails routes outside a Sails app", async () => {
  // models and a routes table, but no config/routes.js of Sails routes
  const lookalike: SourceFile = {
    path: "lib/routes.js",
    text: "module.exports.routes = { 'GET /x': 'X.y' };\n",
  };
  assert.deepEqual(await serverLines([lookalike, MODEL, ACTION]), []);
});
