import assert from "node:assert/strict";
import type { ExtractResult } from "../../../src/extract/extractor.ts";
import { javascriptExtractor } from "../../../src/extract/javascript/mod.ts";
import type { ExtractedPort } from "../../../src/extract/types.ts";
import { loadFixture, portLines } from "../_fixtures.ts";

async function extractFixture(name: string): Promise<ExtractResult> {
  const files = await loadFixture(name, javascriptExtractor.accepts);
  return await javascriptExtractor.extract(files);
}

async function extractText(
  path: string,
  text: string,
): Promise<ExtractResult> {
  return await javascriptExtractor.extract([{ path, text }]);
}

function find(
  ports: ExtractedPort[],
  key: string,
  role = "server",
): ExtractedPort {
  const port = ports.find((p) => p.ref.key === key && p.ref.role === role);
  assert.ok(port, `no ${role} port ${key} in ${portLines(ports).join(", ")}`);
  return port;
}

Deno.test("javascriptExtractor finds Express, Koa, Fastify and Hono routes with mounted prefixes", async () => {
  const { ports, diagnostics } = await extractFixture("javascript");
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(portLines(ports), [
    "server ANY /ping express/app.js:12",
    "server DELETE /api/v1/users/{} express/routes/users.js:6",
    "server GET / hono/app.ts:9",
    "server GET /api/authors hono/app.ts:7",
    "server GET /api/books/{} hono/books.ts:5",
    "server GET /api/v1/users express/routes/users.js:5",
    "server GET /books express/app.js:9",
    "server GET /health express/app.js:7",
    "server GET /metrics fastify/server.mjs:7",
    "server GET /orders fastify/orders.mjs:2",
    "server GET /orders/{} fastify/orders.mjs:3",
    "server GET /shop koa/server.js:15",
    "server GET /shop/catalog/items koa/server.js:8",
    "server GET /status fastify/server.mjs:6",
    "server HEAD /metrics fastify/server.mjs:7",
    "server PATCH /profile hono/app.ts:10",
    "server POST /admin/reindex express/routes/admin.js:2",
    "server POST /books express/app.js:9",
    "server POST /echo hono/app.ts:9",
    "server POST /shop/catalog/items/{} koa/server.js:11",
    "server PUT /profile hono/app.ts:10",
    "server PUT /settings fastify/server.mjs:15",
  ]);
});

Deno.test("javascriptExtractor finds NestJS, URLPattern, Bun routes and fetch/axios/ky/generated clients", async () => {
  const { ports, diagnostics } = await extractFixture("typescript");
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(portLines(ports), [
    "client DELETE /users/{} clients/api.ts:21",
    "client GET /api/stats clients/api.ts:29",
    "client GET /pets clients/pets_service.ts:7",
    "client GET /pets/{} clients/pets_service.ts:11",
    "client GET /users/{} clients/api.ts:10",
    "client GET /v3/orders clients/api.ts:33",
    "client POST /api/stats/reset clients/dashboard.ts:5",
    "client POST /search clients/api.ts:25",
    "client POST /v2/users clients/api.ts:14",
    "client PUT /reports clients/api.ts:37",
    "server ANY /api/status bun/server.ts:4",
    "server ANY /files/{} deno/server.ts:21",
    "server DELETE /drafts/{} guarded/hono.ts:10",
    "server DELETE /posts/{} deno/server.ts:15",
    "server GET /api/healthz nest/health.controller.ts:5",
    "server GET /api/items/{} bun/server.ts:6",
    "server GET /api/users nest/users.controller.ts:5",
    "server GET /api/users/{} nest/users.controller.ts:10",
    "server GET /drafts guarded/hono.ts:9",
    "server GET /health deno/server.ts:20",
    "server GET /me guarded/app.ts:15",
    "server GET /posts guarded/app.ts:16",
    "server GET /posts/{} deno/server.ts:10",
    "server GET /profile guarded/hono.ts:15",
    "server POST /api/users nest/users.controller.ts:15",
    "server POST /posts guarded/app.ts:16",
    "server PUT /api/items/{} bun/server.ts:7",
  ]);
});

Deno.test("javascriptExtractor maps Next.js pages/api and app route files to routes", async () => {
  const { ports } = await extractFixture("nextjs");
  assert.deepEqual(portLines(ports), [
    "server ANY /api/hello pages/api/hello.ts:3",
    "server ANY /api/users pages/api/users/index.js:1",
    "server ANY /api/users/{} pages/api/users/[id].ts:3",
    "server DELETE /cart/{} app/(shop)/cart/[id]/route.ts:1",
    "server GET /api/items app/api/items/route.ts:1",
    "server GET /reports/{} src/app/reports/[...slug]/route.js:5",
    "server POST /api/items app/api/items/route.ts:5",
  ]);
});

Deno.test("javascriptExtractor reports no port for look-alikes (emitters, maps, logging, unknown receivers)", async () => {
  const { ports } = await extractFixture("negative");
  assert.deepEqual(portLines(ports), []);
});

Deno.test("javascriptExtractor grades confidence: literal 1, composed 0.95, unresolved parts 0.8, unknown method 0.6", async (t) => {
  const { ports } = await extractFixture("typescript");
  await t.step("literal path", () => {
    assert.equal(find(ports, "POST /search", "client").ref.confidence, 1);
  });
  await t.step("constant imported from a sibling module", () => {
    const port = find(ports, "POST /v2/users", "client");
    assert.equal(port.ref.confidence, 0.95);
    assert.equal(port.ref.detail.path, "/v2/users");
  });
  await t.step("axios instance baseURL", () => {
    assert.equal(find(ports, "GET /api/stats", "client").ref.confidence, 0.95);
  });
  await t.step("template with an unresolved part", () => {
    const port = find(ports, "GET /users/{}", "client");
    assert.equal(port.ref.confidence, 0.8);
    assert.equal(port.ref.detail.path, "/users/{}");
  });
  await t.step("URLPattern route without a method test", () => {
    const port = find(ports, "ANY /files/{}");
    assert.equal(port.ref.confidence, 0.6);
  });
  await t.step("NestJS controller prefix and global prefix", () => {
    assert.equal(find(ports, "GET /api/users/{}").ref.confidence, 0.95);
  });
});

Deno.test("javascriptExtractor records owners, positions and framework details", async () => {
  const { ports } = await extractFixture("typescript");
  const findOne = find(ports, "GET /api/users/{}");
  assert.deepEqual(findOne.owner, {
    kind: "method",
    name: "findOne",
    qualifiedName: "nest/users.controller.ts::UsersController.findOne",
    filePath: "nest/users.controller.ts",
    span: { startLine: 11, startCol: 3, endLine: 13, endCol: 4 },
  });
  assert.equal(findOne.ref.col, 3);
  assert.equal(findOne.ref.detail.framework, "nestjs");
  const reset = find(ports, "POST /api/stats/reset", "client");
  assert.equal(
    reset.owner.qualifiedName,
    "clients/dashboard.ts::Dashboard.reset",
  );
  assert.equal(reset.ref.detail.framework, "axios");
  const load = find(ports, "GET /users/{}", "client");
  assert.deepEqual([load.ref.line, load.ref.col], [10, 16]);
  assert.equal(load.owner.kind, "function");
});

Deno.test("javascriptExtractor puts the permission of guarded handlers in detail", async () => {
  const { ports } = await extractFixture("typescript");
  const listPosts = find(ports, "GET /posts");
  assert.equal(listPosts.ref.detail.permission, "post:read");
  assert.equal(listPosts.ref.detail.object, "post");
  assert.equal(listPosts.ref.detail.action, "read");
  assert.equal(find(ports, "POST /posts").ref.detail.permission, "post:write");
  assert.equal(
    find(ports, "DELETE /posts/{}").ref.detail.permission,
    "post:delete",
  );
  assert.equal(find(ports, "GET /me").ref.detail.permission, undefined);
  assert.equal(find(ports, "GET /me").ref.detail.auth, "required");
});

Deno.test("javascriptExtractor finds permissions in guard middleware adapters", async () => {
  const { ports } = await extractFixture("typescript");
  assert.equal(find(ports, "GET /drafts").ref.detail.permission, "draft:read");
  assert.equal(
    find(ports, "DELETE /drafts/{}").ref.detail.permission,
    "draft:delete",
  );
  assert.equal(find(ports, "GET /profile").ref.detail.auth, "required");
  assert.equal(find(ports, "GET /profile").ref.detail.permission, undefined);
});

Deno.test("javascriptExtractor resolves same-file constants and concatenations", async () => {
  const { ports } = await extractText(
    "api.ts",
    [
      'import express from "express";',
      "const app = express();",
      'const V1 = "/v1";',
      'const USERS = V1 + "/users";',
      "app.get(`${USERS}/:id`, (req, res) => res.end());",
      "app.post(USERS, (req, res) => res.end());",
    ].join("\n"),
  );
  assert.deepEqual(portLines(ports), [
    "server GET /v1/users/{} api.ts:5",
    "server POST /v1/users api.ts:6",
  ]);
  assert.ok(ports.every((p) => p.ref.confidence === 0.95));
});

Deno.test("javascriptExtractor resolves CommonJS constants required from a sibling module", async () => {
  const { ports } = await javascriptExtractor.extract([
    {
      path: "src/config.js",
      text: 'exports.API = "/api";\nmodule.exports.V2 = exports.API + "/v2";\n',
    },
    {
      path: "src/paths.js",
      text:
        'const ROOT = "/root";\nmodule.exports = { USERS: "/users", ROOT };\n',
    },
    {
      path: "src/server.js",
      text: [
        'const express = require("express");',
        'const { V2 } = require("./config");',
        'const paths = require("./paths.js");',
        "const app = express();",
        "app.get(V2 + paths.USERS, (q, s) => s.end());",
        "app.get(paths.ROOT, (q, s) => s.end());",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(portLines(ports), [
    "server GET /api/v2/users src/server.js:5",
    "server GET /root src/server.js:6",
  ]);
});

Deno.test("javascriptExtractor composes router prefixes through several files", async () => {
  const { ports } = await javascriptExtractor.extract([
    {
      path: "app.js",
      text:
        'const express = require("express");\nconst api = require("./routes");\nconst app = express();\napp.use("/api", api);\n',
    },
    {
      path: "routes/index.js",
      text:
        'const { Router } = require("express");\nconst users = require("./users");\nconst router = Router();\nrouter.use("/users", users);\nmodule.exports = router;\n',
    },
    {
      path: "routes/users.js",
      text:
        'const express = require("express");\nconst router = express.Router();\nrouter.get("/:id", (q, s) => s.end());\nmodule.exports = router;\n',
    },
    {
      path: "k/app.ts",
      text:
        'import Koa from "koa";\nimport Router from "@koa/router";\nimport child from "./child";\nconst app = new Koa();\nconst r = new Router({ prefix: "/k" });\nr.use("/c", child.routes());\napp.use(r.routes());\n',
    },
    {
      path: "k/child.ts",
      text:
        'import Router from "@koa/router";\nconst child = new Router();\nchild.get("/x", (ctx) => {});\nexport default child;\n',
    },
  ]);
  assert.deepEqual(portLines(ports), [
    "server GET /api/users/{} routes/users.js:3",
    "server GET /k/c/x k/child.ts:3",
  ]);
});

Deno.test("javascriptExtractor turns calls of fetch/axios wrapper functions into client ports", async () => {
  const { ports } = await javascriptExtractor.extract([
    {
      path: "api.ts",
      text: [
        'const BASE = "http://localhost:8000";',
        "export async function api(path: string, init?: RequestInit) {",
        "  return await fetch(BASE + path, init);",
        "}",
        "export function get(path: string) { return fetch(`${BASE}/v1${path}`); }",
        'export const users = () => api("/users");',
        "export const item = (id: string) => fetch(`/items/${id}`);",
        "export const probe = (host: string) => fetch(`http://${host}/health`);",
      ].join("\n"),
    },
    {
      path: "page.ts",
      text: [
        'import { api, get } from "./api";',
        "export async function save(id: string) {",
        '  await api(`/users/${id}`, { method: "PUT" });',
        '  await get("/items");',
        '  await api("/x", opts);',
        "}",
      ].join("\n"),
    },
    {
      path: "ax.ts",
      text:
        'import axios from "axios";\nconst client = axios.create({ baseURL: "/svc" });\nconst del = (p) => client.delete(p);\ndel("/things/1");\n',
    },
  ]);
  assert.deepEqual(portLines(ports), [
    "client ANY /x page.ts:5",
    "client DELETE /svc/things/{} ax.ts:4",
    "client GET /health api.ts:8",
    "client GET /items/{} api.ts:7",
    "client GET /users api.ts:6",
    "client GET /v1/items page.ts:4",
    "client PUT /users/{} page.ts:3",
  ]);
  const put = find(ports, "PUT /users/{}", "client");
  assert.equal(put.ref.detail.helper, "api");
  assert.equal(put.owner.qualifiedName, "page.ts::save");
  assert.equal(put.ref.confidence, 0.8);
  assert.equal(find(ports, "GET /users", "client").ref.confidence, 0.95);
  assert.equal(find(ports, "ANY /x", "client").ref.confidence, 0.6);
});

Deno.test("javascriptExtractor keeps only the path of a fetch to a base URL variable", async () => {
  const { ports } = await extractText(
    "client.js",
    "export const load = (id) => fetch(`${BASE}/users/${id}?full=1`, { method: 'DELETE' });\n",
  );
  assert.deepEqual(portLines(ports), ["client DELETE /users/{} client.js:1"]);
  assert.equal(ports[0]!.owner.qualifiedName, "client.js::load");
});

Deno.test("javascriptExtractor does not lower confidence for holes in the host or the query", async () => {
  const { ports } = await extractText(
    "probe.js",
    "fetch(`http://127.0.0.1:${port}/posts?page=${n}`);\n",
  );
  assert.deepEqual(portLines(ports), ["client GET /posts probe.js:1"]);
  assert.equal(ports[0]!.ref.confidence, 1);
});

Deno.test("javascriptExtractor gives method ANY and confidence 0.6 when a fetch method is not literal", async () => {
  const { ports } = await extractText(
    "client.js",
    "function send(method) { return fetch('/jobs', { method }); }\n",
  );
  assert.equal(ports[0]?.ref.key, "ANY /jobs");
  assert.equal(ports[0]?.ref.confidence, 0.6);
});

Deno.test("javascriptExtractor ignores an express router that is never created from express", async () => {
  const { ports } = await extractText(
    "routes.js",
    "const router = makeRouter();\nrouter.get('/x', h);\n",
  );
  assert.deepEqual(ports, []);
});

Deno.test("javascriptExtractor reports a syntax error as a warning and keeps what parsed", async () => {
  const { ports, diagnostics } = await extractText(
    "broken.js",
    "fetch('/ok');\nfunction (\n",
  );
  assert.deepEqual(portLines(ports), ["client GET /ok broken.js:1"]);
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0]!.severity, "warning");
  assert.match(diagnostics[0]!.message, /^Cannot fully parse: .* at 2:\d+$/);
});

Deno.test("javascriptExtractor accepts JS/TS sources but not declaration files", () => {
  assert.ok(javascriptExtractor.accepts("src/a.ts"));
  assert.ok(javascriptExtractor.accepts("src/a.tsx"));
  assert.ok(javascriptExtractor.accepts("lib/a.mjs"));
  assert.ok(!javascriptExtractor.accepts("types/a.d.ts"));
  assert.ok(!javascriptExtractor.accepts("a.py"));
});
