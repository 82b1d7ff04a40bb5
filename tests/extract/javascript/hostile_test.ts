// Values a hostile repository builds to blind or fool the JavaScript
// extractor: a constant that reaches itself, and concatenations longer than
// any recursion bound.
import assert from "node:assert/strict";
import { javascriptExtractor } from "../../../src/extract/javascript/mod.ts";
import { portLines } from "../_fixtures.ts";

Deno.test("javascriptExtractor never unrolls constants that reach themselves into a path", async () => {
  const { ports } = await javascriptExtractor.extract([{
    path: "a.js",
    text: [
      'const a = b + "/x";',
      'const b = a + "/y";',
      "fetch(a);",
      'const c = d + "/z";',
      'const d = "/api";',
      "fetch(c);",
    ].join("\n"),
  }]);
  const keys = ports.map((p) => p.ref.key);
  assert.ok(keys.includes("GET /api/z"), keys.join(", "));
  assert.ok(
    keys.every((k) => !k.includes("/x/y")),
    `a cycle was unrolled: ${keys.join(", ")}`,
  );
});

Deno.test("javascriptExtractor keeps a route whose URL is a 50,000-term concatenation", async () => {
  const terms = 50_000;
  const { ports } = await javascriptExtractor.extract([{
    path: "a.js",
    text: `fetch("/x/" + ${Array(terms).fill('"a"').join(" + ")});\n`,
  }]);
  assert.deepEqual(portLines(ports).map((l) => l.length), [
    `client GET /x/${"a".repeat(terms)} a.js:1`.length,
  ]);
});

Deno.test("javascriptExtractor resolves a fan-out of constants without exhausting the stack", async () => {
  const lines = ['const c0 = "/a";'];
  for (let i = 1; i <= 40; i++) {
    lines.push(`const c${i} = c${i - 1} + c${i - 1};`);
  }
  lines.push("fetch(c40);", 'fetch("/ok");');
  const { ports, diagnostics } = await javascriptExtractor.extract([{
    path: "a.js",
    text: lines.join("\n"),
  }]);
  assert.deepEqual(diagnostics, []);
  assert.ok(ports.some((p) => p.ref.key === "GET /ok"));
});
