import assert from "node:assert/strict";
import type { SourceFile } from "../../../src/extract/extractor.ts";
import { serverLines } from "./_servers.ts";

const PLUGIN = (route: string) =>
  `export default async function (app) {\n  app.get('${route}', async () => ({}));\n}\n`;

function app(options: string): SourceFile {
  return {
    path: "srv/app.js",
    text: [
      "import Fastify from 'fastify';",
      "import AutoLoad from '@fastify/autoload';",
      "import path from 'node:path';",
      "const app = Fastify();",
      `app.register(AutoLoad, { dir: path.join(import.meta.dirname, 'routes'), ${options} });`,
    ].join("\n"),
  };
}

const ROUTES: SourceFile[] = [
  { path: "srv/routes/root.js", text: PLUGIN("/") },
  { path: "srv/routes/shops/_shopId/items.js", text: PLUGIN("/:itemId") },
  {
    path: "srv/routes/admin/index.js",
    text: "export const autoPrefix = '/_ops';\n" + PLUGIN("/health"),
  },
  // outside the loaded folder: nothing registers it
  { path: "srv/lib/other.js", text: PLUGIN("/other") },
];

Deno.test("javascriptExtractor mounts @fastify/autoload plugins under their folders, options.prefix and autoPrefix", async () => {
  assert.deepEqual(
    await serverLines([app("options: { prefix: '/v1' }"), ...ROUTES]),
    [
      "server GET /v1 srv/routes/root.js:2",
      "server GET /v1/admin/_ops/health srv/routes/admin/index.js:3",
      "server GET /v1/shops/{}/{} srv/routes/shops/_shopId/items.js:2",
    ],
  );
});

Deno.test("javascriptExtractor leaves folders out of autoload prefixes with dirNameRoutePrefix: false", async () => {
  assert.deepEqual(
    await serverLines([app("dirNameRoutePrefix: false"), ...ROUTES]),
    [
      "server GET / srv/routes/root.js:2",
      "server GET /_ops/health srv/routes/admin/index.js:3",
      "server GET /{} srv/routes/shops/_shopId/items.js:2",
    ],
  );
});
