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

Deno.test("javascriptExtractor bounds a router mounted twice on each of 22 levels", async () => {
  const lines = [
    'const express = require("express");',
    "const r0 = express.Router();",
    'r0.get("/x", h);',
  ];
  for (let i = 1; i <= 22; i++) {
    lines.push(
      `const r${i} = express.Router();`,
      `r${i}.use("/a", r${i - 1});`,
      `r${i}.use("/b", r${i - 1});`,
    );
  }
  lines.push("const app = express();", 'app.use("/", r22);');
  const { ports, diagnostics } = await javascriptExtractor.extract([{
    path: "app.js",
    text: lines.join("\n"),
  }]);
  assert.equal(ports.length, 1_000);
  assert.equal(
    ports[0]!.ref.key,
    `GET ${"/a".repeat(22)}/x`,
  );
  assert.deepEqual(diagnostics.map((d) => d.severity), ["warning"]);
  assert.match(diagnostics[0]!.message, /more than 1000 mount paths/);
});

Deno.test("javascriptExtractor gives a router in a mount cycle its paths once", async () => {
  const { ports } = await javascriptExtractor.extract([{
    path: "app.js",
    text: [
      'const express = require("express");',
      "const a = express.Router();",
      "const b = express.Router();",
      'a.use("/b", b);',
      'b.use("/a", a);',
      'a.get("/x", h);',
      "const app = express();",
      'app.use("/api", a);',
    ].join("\n"),
  }]);
  const keys = ports.map((p) => p.ref.key).sort();
  assert.ok(keys.includes("GET /api/x"), keys.join(", "));
  assert.ok(keys.length <= 3, keys.join(", "));
});

Deno.test("javascriptExtractor names the owner of a call inside functions nested 20,000 deep", async () => {
  // Climbing web-tree-sitter's `parent` costs the depth at every step; the
  // owner is found in one walk down instead.
  const depth = 20_000;
  const text = Array.from({ length: depth }, (_, i) => `function f${i}() {\n`)
    .join("") + 'fetch("/deep");\n' + "}\n".repeat(depth) + 'fetch("/ok");\n';
  const { ports } = await javascriptExtractor.extract([{ path: "a.js", text }]);
  const deep = ports.find((p) => p.ref.key === "GET /deep");
  assert.equal(deep?.owner.name, `f${depth - 1}`);
  assert.equal(
    deep?.owner.qualifiedName.split("::")[1]?.split(".").length,
    depth,
  );
  assert.ok(ports.some((p) => p.ref.key === "GET /ok"));
});
