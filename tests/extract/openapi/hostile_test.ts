// API documents a hostile repository controls: the sniffing before the
// parse is one pass over the text, a minified document is still found, and
// servers x paths stays bounded.
import assert from "node:assert/strict";
import { openapiExtractor } from "../../../src/extract/openapi/mod.ts";

Deno.test("openapiExtractor finds a minified one-line JSON document", async () => {
  const { ports, diagnostics } = await openapiExtractor.extract([{
    path: "api.json",
    text:
      '{"info":{"title":"t","version":"1"},"openapi":"3.0.0","paths":{"/pets":{"get":{"responses":{}}},"/pets/{id}":{"delete":{}}}}',
  }]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(ports.map((p) => p.ref.key), [
    "GET /pets",
    "DELETE /pets/{}",
  ]);
});

Deno.test("openapiExtractor sniffs a file of blank lines and blanks in one pass", async () => {
  // The worst case of a line-anchored pattern with leading blanks: a whole
  // file of newlines and spaces, with the key never following them.
  const text = "\n \t".repeat(350_000) + "openapi_version: 3\n";
  const { ports, diagnostics } = await openapiExtractor.extract([
    { path: "config.yaml", text },
    { path: "spaces.yaml", text: " ".repeat(1 << 20) + "x: openapi :" },
  ]);
  assert.deepEqual(ports, []);
  assert.deepEqual(diagnostics, []);
});

Deno.test("openapiExtractor keys after indentation or a comma still count, keys inside values do not", async () => {
  const doc = (head: string) => ({
    path: `${head.length}.yaml`,
    text: `${head}\npaths:\n  /a:\n    get: {}\n`,
  });
  const { ports } = await openapiExtractor.extract([
    doc("openapi: 3.1.0"),
    doc("description: see the openapi: spec\nx: 1"),
  ]);
  assert.deepEqual(ports.map((p) => `${p.filePath} ${p.ref.key}`), [
    "14.yaml GET /a",
  ]);
});

Deno.test("openapiExtractor bounds servers x paths and says what it left out", async () => {
  const servers = Array.from(
    { length: 2_000 },
    (_, i) => `  - url: http://h${i}.example/v${i}\n`,
  ).join("");
  const paths = Array.from(
    { length: 500 },
    (_, i) => `  /p${i}:\n    get: {}\n`,
  )
    .join("");
  const { ports, diagnostics } = await openapiExtractor.extract([{
    path: "api.yaml",
    text: `openapi: 3.0.0\nservers:\n${servers}paths:\n${paths}`,
  }]);
  assert.equal(ports.length, 16 * 500);
  assert.equal(ports[0]!.ref.key, "GET /v0/p0");
  assert.deepEqual(diagnostics.map((d) => [d.severity, d.message]), [[
    "warning",
    "Cannot use every server: a servers list names 2000 base paths; the first 16 are used",
  ]]);
});
