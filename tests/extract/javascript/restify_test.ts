import assert from "node:assert/strict";
import { javascriptExtractor } from "../../../src/extract/javascript/mod.ts";
import { portLines } from "../_fixtures.ts";

Deno.test("javascriptExtractor reads restify servers, option paths and restify-router mounts", async () => {
  const { ports, diagnostics } = await javascriptExtractor.extract([{
    path: "server.js",
    text: [
      'const restify = require("restify");',
      'const Router = require("restify-router").Router;',
      "const server = restify.createServer();",
      'server.get("/health", (req, res, next) => next());',
      'server.del("/jobs/:id", (req, res, next) => next());',
      'server.post({ path: "/jobs", version: "1.0.0" }, (req, res, next) => next());',
      'server.get({ url: "/jobs/:id", name: "GetJob" }, (req, res, next) => next());',
      "const admin = new Router();",
      'admin.put("/users/:id", (req, res, next) => next());',
      'admin.applyRoutes(server, "/admin");',
      // a client of the same library is no server
      "const client = restify.createJsonClient({ url: 'http://x' });",
      'client.get("/remote", () => {});',
    ].join("\n"),
  }]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(portLines(ports.filter((p) => p.ref.role === "server")), [
    "server DELETE /jobs/{} server.js:5",
    "server GET /health server.js:4",
    "server GET /jobs/{} server.js:7",
    "server POST /jobs server.js:6",
    "server PUT /admin/users/{} server.js:9",
  ]);
});
