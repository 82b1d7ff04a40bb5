import assert from "node:assert/strict";
import { javascriptExtractor } from "../../../src/extract/javascript/mod.ts";
import { portLines } from "../_fixtures.ts";

Deno.test("javascriptExtractor reads Next.js route handlers destructured from a factory and re-exported from another route", async () => {
  const { ports, diagnostics } = await javascriptExtractor.extract([
    {
      path: "app/api/jobs/route.ts",
      text: [
        'import { handlers } from "../../../lib/jobs";',
        "export const { GET, POST: post, helper } = handlers();",
      ].join("\n"),
    },
    {
      path: "app/api/reports/route.ts",
      text:
        "export async function GET() { return Response.json({}); }\nexport const config = {};\n",
    },
    {
      path: "app/api/(legacy)/stats/route.ts",
      text: 'export * from "../../reports/route";\n',
    },
    // a re-export outside app routes is no route
    {
      path: "lib/index.ts",
      text: 'export * from "../app/api/reports/route";\n',
    },
  ]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(portLines(ports), [
    "server GET /api/jobs app/api/jobs/route.ts:2",
    "server GET /api/reports app/api/reports/route.ts:1",
    "server GET /api/stats app/api/(legacy)/stats/route.ts:1",
  ]);
});
