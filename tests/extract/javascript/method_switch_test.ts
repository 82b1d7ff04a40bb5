import assert from "node:assert/strict";
import { javascriptExtractor } from "../../../src/extract/javascript/mod.ts";
import { portLines } from "../_fixtures.ts";

Deno.test("javascriptExtractor gives a pages/api or app.all handler one route per request method it tests", async () => {
  const { ports, diagnostics } = await javascriptExtractor.extract([
    {
      path: "pages/api/orders.ts",
      text: [
        "export default function handler(req, res) {",
        "  switch (req.method) {",
        "    case 'GET': return res.json([]);",
        "    case 'POST': return res.status(201).end();",
        "    default: res.status(405).end();",
        "  }",
        "}",
      ].join("\n"),
    },
    {
      path: "pages/api/login.ts",
      text: [
        "async function login(req, res) {",
        "  if (req.method !== 'POST') return res.status(405).end();",
        "  res.end();",
        "}",
        "export default withSession(login);",
      ].join("\n"),
    },
    {
      // a switch on something else leaves the route open to any method
      path: "pages/api/kind.ts",
      text:
        "export default function handler(req, res) {\n  switch (req.query.kind) { case 'GET': break; }\n  res.end();\n}\n",
    },
    {
      path: "server.js",
      text: [
        "const express = require('express');",
        "const app = express();",
        "app.all('/items', (req, res) => {",
        "  if (req.method === 'PUT' || req.method === 'PATCH') return res.end();",
        "  res.sendStatus(405);",
        "});",
        "app.all('/any', (req, res) => res.end());",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(portLines(ports), [
    "server ANY /any server.js:7",
    "server ANY /api/kind pages/api/kind.ts:1",
    "server GET /api/orders pages/api/orders.ts:1",
    "server PATCH /items server.js:3",
    "server POST /api/login pages/api/login.ts:5",
    "server POST /api/orders pages/api/orders.ts:1",
    "server PUT /items server.js:3",
  ]);
});
