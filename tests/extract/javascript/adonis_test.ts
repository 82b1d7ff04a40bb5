import assert from "node:assert/strict";
import { javascriptExtractor } from "../../../src/extract/javascript/mod.ts";
import { portLines } from "../_fixtures.ts";

Deno.test("javascriptExtractor reads AdonisJS routes, nested group prefixes and resources", async () => {
  const { ports, diagnostics } = await javascriptExtractor.extract([{
    path: "start/routes.ts",
    text: [
      "import router from '@adonisjs/core/services/router'",
      "import env from '#start/env'",
      "router.get('/ping', () => 'pong')",
      "router.group(() => {",
      "  router.post('/orders', '#controllers/orders.store')",
      "  router.group(() => {",
      "    router.route('/refunds/:id', ['GET', 'POST'], 'Refunds.handle')",
      "  }).prefix('/admin').middleware('auth')",
      "}).prefix('/api')",
      "router.on('/faq').render('pages/faq')",
      "router.resource('shops.items', 'ItemsController').only(['index', 'update'])",
      "router.any('/hook', 'Hooks.run')",
      // a look-alike on another receiver is no route
      "const key = env.get('APP_KEY')",
    ].join("\n"),
  }]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(portLines(ports.filter((p) => p.ref.role === "server")), [
    "server ANY /hook start/routes.ts:12",
    "server GET /api/admin/refunds/{} start/routes.ts:7",
    "server GET /faq start/routes.ts:10",
    "server GET /ping start/routes.ts:3",
    "server GET /shops/{}/items start/routes.ts:11",
    "server PATCH /shops/{}/items/{} start/routes.ts:11",
    "server POST /api/admin/refunds/{} start/routes.ts:7",
    "server POST /api/orders start/routes.ts:5",
    "server PUT /shops/{}/items/{} start/routes.ts:11",
  ]);
});

Deno.test("javascriptExtractor reads AdonisJS 5 resources with apiOnly", async () => {
  const { ports } = await javascriptExtractor.extract([{
    path: "start/routes.ts",
    text: "import Route from '@ioc:Adonis/Core/Route'\n" +
      "Route.resource('notes', 'NotesController').apiOnly()\n",
  }]);
  assert.deepEqual(portLines(ports), [
    "server DELETE /notes/{} start/routes.ts:2",
    "server GET /notes start/routes.ts:2",
    "server GET /notes/{} start/routes.ts:2",
    "server PATCH /notes/{} start/routes.ts:2",
    "server POST /notes start/routes.ts:2",
    "server PUT /notes/{} start/routes.ts:2",
  ]);
});
