import assert from "node:assert/strict";
import { htmlExtractor } from "../../../src/extract/html/mod.ts";
import { loadFixture } from "../_fixtures.ts";

Deno.test("htmlExtractor reads forms and formaction buttons as client ports", async () => {
  const files = await loadFixture("html", htmlExtractor.accepts);
  const { ports, diagnostics } = await htmlExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    ports.map((p) =>
      `${p.ref.key} ${p.filePath}:${p.ref.line}:${p.ref.col} ${p.ref.confidence}`
    ),
    [
      "GET /search templates/account.html:4:5 1",
      "POST /accounts/{}/transfer templates/account.html:7:5 0.8",
      "POST /accounts/{}/cancel templates/account.html:10:7 0.8",
      "POST /drafts templates/account.html:13:7 1",
    ],
  );
});

Deno.test("htmlExtractor accepts pages and server-side templates only", () => {
  for (
    const path of [
      "a.html",
      "b.htm",
      "c.jinja2",
      "d.html.erb",
      "e.twig",
      "f.ejs",
    ]
  ) {
    assert.ok(htmlExtractor.accepts(path), path);
  }
  for (const path of ["a.js", "b.vue", "c.py", "html"]) {
    assert.ok(!htmlExtractor.accepts(path), path);
  }
});
