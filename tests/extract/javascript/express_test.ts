import assert from "node:assert/strict";
import { serverLines } from "./_servers.ts";

Deno.test("javascriptExtractor keeps the routes of an exported plugin no file mounts, only in a server framework's file", async () => {
  const plugin = [
    "module.exports = function (app) {",
    "  app.get('/orders', (req, res) => res.json([]));",
    "};",
  ].join("\n");
  assert.deepEqual(
    await serverLines([{
      path: "routes.js",
      text: "const express = require('express');\n" + plugin,
    }]),
    ["server GET /orders routes.js:3"],
  );
  // the same shape over a key-value store is no server
  assert.deepEqual(
    await serverLines([{
      path: "store.js",
      text: "const level = require('level');\n" + plugin,
    }]),
    [],
  );
});

Deno.test("javascriptExtractor reads this.route(method, path, handler) in router subclasses", async () => {
  assert.deepEqual(
    await serverLines([{
      path: "routers/hooks.js",
      text: [
        "class HooksRouter extends PromiseRouter {",
        "  mountRoutes() {",
        "    this.route('GET', '/hooks/:id', (req) => null);",
        "    this.route('delete', '/hooks/:id', (req) => null);",
        "    this.route('GET', 'relative', (req) => null);",
        "  }",
        "}",
        // no base class: `route` is the class's own business
        "class Table { load() { this.route('GET', '/x', () => null); } }",
      ].join("\n"),
    }]),
    [
      "server DELETE /hooks/{} routers/hooks.js:4",
      "server GET /hooks/{} routers/hooks.js:3",
    ],
  );
});

Deno.test("javascriptExtractor reads Express app.all('*') and routers imported through the @/ root alias", async () => {
  assert.deepEqual(
    await serverLines([
      {
        path: "app.js",
        text: [
          "const express = require('express');",
          "const users = require('@/routes/users');",
          "const app = express();",
          "app.use('/users', users);",
          "app.all('*', (req, res) => res.sendStatus(404));",
        ].join("\n"),
      },
      {
        path: "src/routes/users.js",
        text:
          "const router = require('express').Router();\nrouter.get('/:id', (req, res) => {});\nmodule.exports = router;\n",
      },
    ]),
    [
      "server ANY /{} app.js:5",
      "server GET /users/{} src/routes/users.js:2",
    ],
  );
});
