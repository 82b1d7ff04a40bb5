import assert from "node:assert/strict";
import type { ExtractedPort } from "../../../src/extract/types.ts";
import { javascriptExtractor } from "../../../src/extract/javascript/mod.ts";
import type { SourceFile } from "../../../src/extract/extractor.ts";
import { loadFixture } from "../_fixtures.ts";

/** `<file>:<line> <key> <guard>` of each server port, sorted. */
function guardLines(ports: readonly ExtractedPort[], file?: string): string[] {
  return ports
    .filter((p) => p.ref.role === "server")
    .filter((p) => file === undefined || p.filePath === file)
    .map((p) => {
      const d = p.ref.detail;
      const guard = d.permissions ?? (d.auth === "required" ? "auth" : "-");
      return `${p.filePath}:${p.ref.line} ${p.ref.key} ${guard}`;
    })
    .sort();
}

async function appPorts(): Promise<ExtractedPort[]> {
  const files = await loadFixture("guarded_app", javascriptExtractor.accepts);
  const { ports, diagnostics } = await javascriptExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  return ports;
}

async function textPorts(files: SourceFile[]): Promise<ExtractedPort[]> {
  return (await javascriptExtractor.extract(files)).ports;
}

Deno.test("guard: a Hono route calling a guarded handler with c.req.raw has its permission, across imports", async () => {
  assert.deepEqual(guardLines(await appPorts(), "hono.ts"), [
    'hono.ts:11 GET /articles [["article","read"]]',
    'hono.ts:12 POST /articles [["article","publish"]]',
    "hono.ts:15 GET /me auth",
    'hono.ts:16 GET /stats [["stats","read"]]',
    'hono.ts:17 POST /comments [["comment","write"]]',
    'hono.ts:18 POST /admin/purge [["cache","purge"]]',
    "hono.ts:19 GET /health -",
  ]);
});

Deno.test("guard: Express middleware, inline or held in a constant", async () => {
  assert.deepEqual(guardLines(await appPorts(), "express.ts"), [
    'express.ts:10 DELETE /comments/{} [["comment","delete"]]',
    "express.ts:13 POST /webhooks/payment -",
  ]);
});

Deno.test("guard: Bun.serve routes held in a constant, method maps and delegating functions", async () => {
  assert.deepEqual(guardLines(await appPorts(), "bun.ts"), [
    'bun.ts:11 ANY /b/drafts/{} [[{"dynamic":"AccessSubject.param(\\"/drafts/:id\\", \\"id\\")"},"read"]]',
    'bun.ts:12 ANY /b/stats [["stats","read"]]',
    "bun.ts:13 ANY /b/ping -",
    'bun.ts:8 GET /b/articles [["article","read"]]',
    'bun.ts:9 POST /b/articles [["article","publish"]]',
  ]);
});

Deno.test("guard: URLPattern tables with a method map per pattern, and tuples", async () => {
  assert.deepEqual(guardLines(await appPorts(), "patterns.ts"), [
    "patterns.ts:10 ANY /whoami auth",
    'patterns.ts:7 GET /feed [["article","read"]]',
  ]);
});

Deno.test("guard: the node adapter's serve() of a guarded handler is a catch-all route", async () => {
  const ports = await appPorts();
  assert.deepEqual(guardLines(ports, "node.ts"), [
    'node.ts:5 ANY /{} [["article","read"]]',
  ]);
  const port = ports.find((p) => p.filePath === "node.ts")!;
  assert.equal(port.ref.detail.path, "/*");
  assert.equal(port.ref.detail.framework, "node");
  assert.equal(port.ref.detail.permission, "article:read");
});

Deno.test("guard: Deno.serve and Bun.serve fetch of a guarded handler are catch-all routes; of an app, none", async () => {
  const ports = await textPorts([{
    path: "main.ts",
    text: [
      'import { createApp } from "./app.ts";',
      'const listPosts = guard.requirePermission("post", "read")(() => new Response("[]"));',
      "Deno.serve((request) => listPosts(request));",
      "Deno.serve({ port: 8000 }, listPosts);",
      "Bun.serve({ port: 8000, fetch: (request) => listPosts(request) });",
      "Deno.serve(createApp());",
      "Bun.serve({ fetch: (request) => new Response(request.url) });",
    ].join("\n"),
  }, {
    path: "app.ts",
    text: "export function createApp() { return () => new Response(''); }",
  }]);
  assert.deepEqual(guardLines(ports), [
    'main.ts:3 ANY /{} [["post","read"]]',
    'main.ts:4 ANY /{} [["post","read"]]',
    'main.ts:5 ANY /{} [["post","read"]]',
  ]);
});

Deno.test("guard: a handler delegating to an unguarded function, or a look-alike, is not guarded", async () => {
  const ports = await textPorts([{
    path: "app.ts",
    text: [
      'import { Hono } from "hono";',
      'import { render } from "./render.ts";',
      "const app = new Hono();",
      "const list = (request) => Response.json([]);",
      'app.get("/a", (c) => list(c.req.raw));',
      'app.get("/b", (c) => render(c.req.raw));',
      'app.get("/c", (c) => { const f = () => listPosts(c); return c.json(f()); });',
      'const listPosts = guard.requirePermission("post", "read")(list);',
    ].join("\n"),
  }, {
    path: "render.ts",
    text: "export function render(request) { return new Response(''); }",
  }]);
  assert.deepEqual(guardLines(ports), [
    "app.ts:5 GET /a -",
    "app.ts:6 GET /b -",
    "app.ts:7 GET /c -",
  ]);
});

Deno.test("guard: stacked wrappers keep every permission; constants and request values as arguments", async () => {
  const ports = await textPorts([{
    path: "app.ts",
    text: [
      'import { Hono } from "hono";',
      'import { AccessSubject } from "@portcullis/portcullis/guard";',
      'const OBJECT = "report";',
      "const app = new Hono();",
      "const h = guard.authRequired()(",
      '  guard.requirePermission(OBJECT, "read")(',
      '    guard.requirePermission("tenant", AccessSubject.header("x-tenant"))(() => new Response("")),',
      "  ),",
      ");",
      'app.get("/reports", (c) => h(c.req.raw));',
    ].join("\n"),
  }]);
  const [port] = ports;
  assert.deepEqual(JSON.parse(port!.ref.detail.permissions!), [
    ["report", "read"],
    ["tenant", { dynamic: 'AccessSubject.header("x-tenant")' }],
  ]);
  assert.equal(port!.ref.detail.permission, "report:read");
  assert.equal(port!.ref.detail.auth, undefined);
});

Deno.test("guard: a cycle of imports ends", async () => {
  const ports = await textPorts([
    {
      path: "a.ts",
      text:
        'import { b } from "./b.ts";\nexport const a = (r) => b(r);\nBun.serve({ routes: { "/x": a } });',
    },
    {
      path: "b.ts",
      text: 'import { a } from "./a.ts";\nexport const b = (r) => a(r);',
    },
  ]);
  assert.deepEqual(guardLines(ports), ["a.ts:3 ANY /x -"]);
});

Deno.test("guard: a route table keyed by path and looked up by the request's pathname", async () => {
  const ports = await textPorts([{
    path: "server.ts",
    text: [
      'const list = guard.requirePermission("post", "read")(() => new Response("[]"));',
      "const me = guard.authRequired()(() => new Response('{}'));",
      "const routes = {",
      '  "/posts": { GET: list, POST: (r) => new Response("") },',
      '  "/me": me,',
      "};",
      'const labels = { "/posts": "Posts" };',
      "export default (request) => {",
      "  const methods = routes[new URL(request.url).pathname];",
      "  return methods ? methods[request.method](request) : new Response(null, { status: 404 });",
      "};",
    ].join("\n"),
  }]);
  assert.deepEqual(guardLines(ports), [
    'server.ts:4 GET /posts [["post","read"]]',
    "server.ts:4 POST /posts -",
    "server.ts:5 ANY /me auth",
  ]);
});

Deno.test("guard: a large constant shared by thousands of routes is read once, and the guards after it are still found", async () => {
  const args = Array.from({ length: 3000 }, (_, i) => `"a${i}"`).join(", ");
  const lines = [
    'import { Hono } from "hono";',
    "const app = new Hono();",
    `const shared = f(${args});`,
  ];
  for (let i = 0; i < 3000; i++) {
    lines.push(`app.get("/r${i}", shared, (c) => c.text(""));`);
  }
  lines.push(
    'const listPosts = guard.requirePermission("post", "read")(h);',
    'app.get("/posts", listPosts);',
  );
  const ports = await textPorts([{ path: "app.ts", text: lines.join("\n") }]);
  assert.equal(ports.length, 3001);
  assert.equal(ports.at(-1)!.ref.key, "GET /posts");
  assert.equal(ports.at(-1)!.ref.detail.permission, "post:read");
});
