import assert from "node:assert/strict";
import { nitroRoute } from "../../../src/extract/javascript/nitro.ts";
import { serverLines } from "./_servers.ts";

const handler = "export default defineEventHandler(() => ({}))\n";

Deno.test("nitroRoute reads route file names", () => {
  assert.deepEqual(nitroRoute("orders.get"), {
    method: "GET",
    path: "/orders",
  });
  assert.deepEqual(nitroRoute("orders/[id]"), {
    method: "ANY",
    path: "/orders/{}",
  });
  assert.deepEqual(nitroRoute("docs/[...slug].get"), {
    method: "GET",
    path: "/docs/{}",
  });
  assert.deepEqual(nitroRoute("orders/index.post"), {
    method: "POST",
    path: "/orders",
  });
  assert.equal(nitroRoute("orders.test"), undefined);
});

Deno.test("javascriptExtractor reads Nitro and Nuxt server routes by file name", async () => {
  assert.deepEqual(
    await serverLines([
      {
        path: "svc/nitro.config.ts",
        text: "export default defineNitroConfig({})\n",
      },
      { path: "svc/routes/orders/[id].delete.ts", text: handler },
      { path: "svc/api/stats.ts", text: handler },
      {
        path: "web/nuxt.config.ts",
        text: "export default defineNuxtConfig({})\n",
      },
      { path: "web/server/api/cart/index.post.ts", text: handler },
      { path: "web/server/routes/login.ts", text: handler },
      // a module without a handler is no route
      { path: "web/server/api/util.ts", text: "export const x = 1\n" },
    ]),
    [
      "server ANY /api/stats svc/api/stats.ts:1",
      "server ANY /login web/server/routes/login.ts:1",
      "server DELETE /orders/{} svc/routes/orders/[id].delete.ts:1",
      "server POST /api/cart web/server/api/cart/index.post.ts:1",
    ],
  );
});

Deno.test("javascriptExtractor reads no Nitro routes outside a Nitro or Nuxt app", async () => {
  // an Express app's routes/ folder, no nitro.config.ts
  assert.deepEqual(
    await serverLines([{ path: "app/routes/users.get.ts", text: handler }]),
    [],
  );
});
