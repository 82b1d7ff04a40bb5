import assert from "node:assert/strict";
import { fileRoutePath } from "../../../src/extract/javascript/fresh.ts";
import { serverLines } from "./_servers.ts";

Deno.test("fileRoutePath reads Fresh and Astro route file names", () => {
  assert.equal(fileRoutePath("index"), "/");
  assert.equal(fileRoutePath("(shop)/cart/[id]"), "/cart/{}");
  assert.equal(fileRoutePath("docs/[...rest]"), "/docs/{}");
  assert.equal(fileRoutePath("_app"), undefined);
});

Deno.test("javascriptExtractor reads Fresh handlers and pages, and Astro endpoints, in their apps", async () => {
  assert.deepEqual(
    await serverLines([
      {
        path: "web/routes/api/items.ts",
        text: [
          'import { Handlers } from "$fresh/server.ts";',
          "export const handler: Handlers = {",
          "  GET(req) { return new Response(); },",
          "  async POST(req) { return new Response(); },",
          "};",
        ].join("\n"),
      },
      {
        path: "web/routes/ping.ts",
        text: "export const handler = (req) => new Response('ok');\n",
      },
      {
        path: "web/routes/about.tsx",
        text: "export default function About() { return null; }\n",
      },
      {
        path: "web/routes/_app.tsx",
        text: "export default function App() { return null; }\n",
      },
      { path: "site/astro.config.mjs", text: "export default {};\n" },
      {
        path: "site/src/pages/api/stats.ts",
        text:
          "export const GET = () => new Response();\nexport function ALL() { return new Response(); }\n",
      },
    ]),
    [
      "server ANY /api/stats site/src/pages/api/stats.ts:2",
      "server ANY /ping web/routes/ping.ts:1",
      "server GET /about web/routes/about.tsx:1",
      "server GET /api/items web/routes/api/items.ts:3",
      "server GET /api/stats site/src/pages/api/stats.ts:1",
      "server POST /api/items web/routes/api/items.ts:4",
    ],
  );
});

Deno.test("javascriptExtractor reads no Fresh routes in an app that does not use Fresh", async () => {
  assert.deepEqual(
    await serverLines([{
      path: "web/routes/about.tsx",
      text: "export default function About() { return null; }\n",
    }]),
    [],
  );
});
