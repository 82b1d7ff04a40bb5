import assert from "node:assert/strict";
import type { SourceFile } from "../../../src/extract/extractor.ts";
import { serverLines } from "./_servers.ts";

const TRPC: SourceFile = {
  path: "server/trpc.ts",
  text: [
    "import { initTRPC } from '@trpc/server'",
    "const t = initTRPC.create()",
    "export const createTRPCRouter = t.router",
    "export const procedure = t.procedure",
  ].join("\n"),
};

const ROUTERS: SourceFile = {
  path: "server/root.ts",
  text: [
    "import { createTRPCRouter, procedure } from './trpc'",
    "import { getOrder } from './get-order'",
    "const cartProcedures = {",
    "  add: procedure.input(schema).mutation(() => 1),",
    "}",
    "export const orderRouter = createTRPCRouter({",
    "  byId: getOrder,",
    "  cancel: procedure.mutation(() => 1),",
    "  events: procedure.subscription(() => 1),",
    "  admin: { stats: procedure.query(() => 1) },",
    "})",
    "export const appRouter = createTRPCRouter({",
    "  order: orderRouter,",
    "  cart: createTRPCRouter(cartProcedures),",
    "  health: procedure.query(() => 'ok'),",
    "})",
  ].join("\n"),
};

const PROCEDURE: SourceFile = {
  path: "server/get-order.ts",
  text:
    "import { procedure } from './trpc'\nexport const getOrder = procedure.query(() => 1)\n",
};

Deno.test("javascriptExtractor reads tRPC procedures at the endpoint of the Express middleware serving them", async () => {
  const server: SourceFile = {
    path: "server/index.ts",
    text: [
      "import express from 'express'",
      "import { createExpressMiddleware } from '@trpc/server/adapters/express'",
      "import { appRouter } from './root'",
      "const app = express()",
      "app.use('/rpc', createExpressMiddleware({ router: appRouter }))",
    ].join("\n"),
  };
  assert.deepEqual(await serverLines([TRPC, ROUTERS, PROCEDURE, server]), [
    "server GET /rpc/health server/root.ts:15",
    "server GET /rpc/order.admin.stats server/root.ts:10",
    "server GET /rpc/order.byId server/get-order.ts:2",
    "server POST /rpc/cart.add server/root.ts:4",
    "server POST /rpc/order.cancel server/root.ts:8",
  ]);
});

Deno.test("javascriptExtractor reads tRPC v9 router chains under a Next.js handler, and no procedures without tRPC", async () => {
  const router: SourceFile = {
    path: "src/server/router.ts",
    text: [
      "import * as trpc from '@trpc/server'",
      "const items = trpc.router().query('list', { resolve() {} }).mutation('add', { resolve() {} })",
      "export const appRouter = trpc.router().merge('items.', items)",
    ].join("\n"),
  };
  const handler: SourceFile = {
    path: "src/pages/api/rpc/[trpc].ts",
    text: [
      "import * as trpcNext from '@trpc/server/adapters/next'",
      "import { appRouter } from '../../../server/router'",
      "export default trpcNext.createNextApiHandler({ router: appRouter })",
    ].join("\n"),
  };
  assert.deepEqual(await serverLines([router, handler]), [
    "server GET /api/rpc/items.list src/server/router.ts:2",
    "server POST /api/rpc/items.add src/server/router.ts:2",
  ]);
  // a vue-router or a db query look-alike in a project without tRPC
  const lookalike: SourceFile = {
    path: "src/router.ts",
    text: [
      "import { createRouter } from 'vue-router'",
      "export const router = createRouter({ list: db.query(sql) })",
    ].join("\n"),
  };
  assert.deepEqual(await serverLines([lookalike]), []);
});
