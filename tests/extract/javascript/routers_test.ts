import assert from "node:assert/strict";
import { serverLines } from "./_servers.ts";

Deno.test("javascriptExtractor reads hapi server.route objects and arrays", async () => {
  assert.deepEqual(
    await serverLines([{
      path: "index.js",
      text: [
        "const Hapi = require('@hapi/hapi');",
        "const init = async () => {",
        "  const server = Hapi.server({ port: 3000 });",
        "  server.route({ method: 'GET', path: '/books/{id}', handler: () => 1 });",
        "  server.route([",
        "    { method: ['PUT', 'PATCH'], path: '/books/{id}', handler: () => 1 },",
        "    { method: '*', path: '/ping', handler: () => 1 },",
        "  ]);",
        "};",
        // a route table of another library is none
        "const other = makeTable();",
        "other.route([{ method: 'GET', path: '/nope' }]);",
      ].join("\n"),
    }]),
    [
      "server ANY /ping index.js:5",
      "server GET /books/{} index.js:4",
      "server PATCH /books/{} index.js:5",
      "server PUT /books/{} index.js:5",
    ],
  );
});

Deno.test("javascriptExtractor reads Oak routers from npm, JSR and deno.land, with prefixes and nested mounts", async () => {
  assert.deepEqual(
    await serverLines([
      {
        path: "app.ts",
        text: [
          'import { Application, Router } from "jsr:@oak/oak";',
          'import users from "./users.ts";',
          "const api = new Router();",
          "api.use(users.routes());",
          "const root = new Router();",
          'root.use("/api", api.routes(), api.allowedMethods());',
          "const app = new Application();",
          "app.use(root.routes());",
        ].join("\n"),
      },
      {
        path: "users.ts",
        text: [
          'import { Router } from "https://deno.land/x/oak@v12.6.1/mod.ts";',
          'const router = new Router({ prefix: "/users" });',
          'router.get("user", "/:id", (ctx) => {});',
          "export default router;",
        ].join("\n"),
      },
    ]),
    ["server GET /api/users/{} users.ts:3"],
  );
});

Deno.test("javascriptExtractor reads Elysia chains and groups", async () => {
  assert.deepEqual(
    await serverLines([{
      path: "src/index.ts",
      text: [
        "import { Elysia } from 'elysia'",
        "new Elysia()",
        "  .get('/', () => 'hi')",
        "  .group('/v1', (app) => app.post('/jobs', ({ body }) => body))",
        "  .onError(() => 'x')",
        "  .delete('/jobs/:id', () => 1)",
        "  .listen(3000)",
      ].join("\n"),
    }]),
    [
      "server DELETE /jobs/{} src/index.ts:2",
      "server GET / src/index.ts:2",
      "server POST /v1/jobs src/index.ts:4",
    ],
  );
});
