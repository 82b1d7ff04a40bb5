import assert from "node:assert/strict";
import { remixPath } from "../../../src/extract/javascript/remix.ts";
import type { SourceFile } from "../../../src/extract/extractor.ts";
import { serverLines } from "./_servers.ts";

const ROOT: SourceFile = {
  path: "web/app/root.tsx",
  text:
    'import { Outlet } from "@remix-run/react";\nexport default function App() { return <Outlet />; }\n',
};

Deno.test("remixPath reads flat route file names", () => {
  assert.equal(remixPath("_index"), "/");
  assert.equal(remixPath("orders._index"), "/orders");
  assert.equal(remixPath("orders.$orderId"), "/orders/{}");
  assert.equal(remixPath("_shop.cart"), "/cart");
  assert.equal(remixPath("orders.$orderId_.print"), "/orders/{}/print");
  assert.equal(remixPath("feed[.]xml"), "/feed.xml");
  assert.equal(remixPath("$"), "/{}");
  assert.equal(remixPath("docs.($lang)"), "/docs/{}");
  assert.equal(remixPath("reports/route"), "/reports");
  assert.equal(remixPath("reports/chart"), undefined);
});

Deno.test("javascriptExtractor reads Remix route modules: loader or page is GET, action the other methods", async () => {
  assert.deepEqual(
    await serverLines([
      ROOT,
      {
        path: "web/app/routes/orders.$orderId.tsx",
        text: [
          'import { json } from "@remix-run/node";',
          "export async function loader({ params }) { return json({}); }",
          "export const action = async ({ request }) => json({});",
          "export default function Order() { return null; }",
        ].join("\n"),
      },
      {
        path: "web/app/routes/_shop.cart.tsx",
        text: "export default function Cart() { return null; }\n",
      },
      {
        path: "web/app/routes/reports/chart.tsx",
        text: "export default function Chart() { return null; }\n",
      },
      {
        path: "web/app/routes/utils.ts",
        text: "export const helper = 1;\n",
      },
    ]),
    [
      "server DELETE /orders/{} web/app/routes/orders.$orderId.tsx:3",
      "server GET /cart web/app/routes/_shop.cart.tsx:1",
      "server GET /orders/{} web/app/routes/orders.$orderId.tsx:2",
      "server PATCH /orders/{} web/app/routes/orders.$orderId.tsx:3",
      "server POST /orders/{} web/app/routes/orders.$orderId.tsx:3",
      "server PUT /orders/{} web/app/routes/orders.$orderId.tsx:3",
    ],
  );
});

Deno.test("javascriptExtractor reads no Remix routes in an app that does not use Remix", async () => {
  // an Express app keeping its routers in app/routes/
  assert.deepEqual(
    await serverLines([{
      path: "api/app/routes/users.js",
      text: [
        'import { Router } from "express";',
        "const router = Router();",
        'router.get("/", (req, res) => res.json([]));',
        "export default router;",
      ].join("\n"),
    }]),
    ["server GET / api/app/routes/users.js:3"],
  );
});
