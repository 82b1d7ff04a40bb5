import assert from "node:assert/strict";
import { sveltePath } from "../../../src/extract/javascript/sveltekit.ts";
import type { SourceFile } from "../../../src/extract/extractor.ts";
import { serverLines } from "./_servers.ts";

const CONFIG: SourceFile = {
  path: "site/svelte.config.js",
  text: "export default { kit: {} };\n",
};

const FILES: SourceFile[] = [
  {
    path: "site/src/routes/api/items/[id]/+server.ts",
    text: [
      "export async function GET({ params }) { return new Response(); }",
      "export const DELETE = async () => new Response();",
      "export async function fallback() { return new Response(); }",
      "export const helper = 1;",
    ].join("\n"),
  },
  {
    path: "site/src/routes/(shop)/cart/+page.svelte",
    text: "<script>\n  let n = 0;\n</script>\n<p>{n}</p>\n",
  },
  {
    path: "site/src/routes/(shop)/cart/+page.server.ts",
    text:
      "export const load = async () => ({});\nexport const actions = { default: async () => {} };\n",
  },
  {
    path: "site/src/routes/docs/[[lang]]/[...rest]/+page.svelte",
    text: "<h1>docs</h1>\n",
  },
];

Deno.test("sveltePath reads route folders", () => {
  assert.equal(sveltePath(""), "/");
  assert.equal(sveltePath("(app)/items/[id]/"), "/items/{}");
  assert.equal(sveltePath("files/[...path]/"), "/files/{}");
  assert.equal(sveltePath("photos/[[id=int]]/"), "/photos/{}");
});

Deno.test("javascriptExtractor reads SvelteKit endpoints, pages and form actions", async () => {
  assert.deepEqual(await serverLines([CONFIG, ...FILES]), [
    "server ANY /api/items/{} site/src/routes/api/items/[id]/+server.ts:3",
    "server DELETE /api/items/{} site/src/routes/api/items/[id]/+server.ts:2",
    "server GET /api/items/{} site/src/routes/api/items/[id]/+server.ts:1",
    "server GET /cart site/src/routes/(shop)/cart/+page.svelte:1",
    "server GET /docs/{}/{} site/src/routes/docs/[[lang]]/[...rest]/+page.svelte:1",
    "server POST /cart site/src/routes/(shop)/cart/+page.server.ts:2",
  ]);
});

Deno.test("javascriptExtractor reads no SvelteKit routes without an app's svelte.config.js", async () => {
  const other: SourceFile = {
    path: "other/svelte.config.js",
    text: "export default {};\n",
  };
  assert.deepEqual(await serverLines([other, ...FILES]), []);
});
