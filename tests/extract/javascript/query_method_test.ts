import assert from "node:assert/strict";
import { javascriptExtractor } from "../../../src/extract/javascript/mod.ts";
import { portLines } from "../_fixtures.ts";

Deno.test("javascriptExtractor reads HTTP QUERY routes, not query calls that take no literal path", async () => {
  const { ports, diagnostics } = await javascriptExtractor.extract([{
    path: "app.js",
    text: [
      'const express = require("express");',
      "const app = express();",
      'app.query("/search", (req, res) => res.json([]));',
      'app.route("/filter").get((req, res) => {}).query((req, res) => {});',
      "const SQL = 'select 1';",
      "function routes(db) { db.query(SQL, (err, rows) => {}); }",
      "routes(app);",
      "app.query(SQL, (req, res) => {});",
    ].join("\n"),
  }]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(portLines(ports), [
    "server GET /filter app.js:4",
    "server QUERY /filter app.js:4",
    "server QUERY /search app.js:3",
  ]);
});
