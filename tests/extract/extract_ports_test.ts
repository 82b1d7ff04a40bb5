import assert from "node:assert/strict";
import { extractPorts } from "../../src/extract/extract_ports.ts";
import type { LanguageExtractor } from "../../src/extract/extractor.ts";
import { javascriptExtractor } from "../../src/extract/javascript/mod.ts";

Deno.test("extractPorts() dispatches files to every extractor that accepts them", async () => {
  const { ports, diagnostics } = await extractPorts([
    {
      path: "web/api.ts",
      text: 'export const load = () => fetch("/users");\n',
    },
    {
      path: "api/openapi.yaml",
      text: "openapi: 3.0.0\npaths:\n  /users:\n    get: {}\n",
    },
    { path: "README.md", text: "fetch('/users')" },
  ]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    ports.map((p) => `${p.ref.role} ${p.ref.key} ${p.filePath}`),
    ["client GET /users web/api.ts", "server GET /users api/openapi.yaml"],
  );
});

Deno.test("extractPorts() reports an extractor that throws and runs the others", async () => {
  const failing: LanguageExtractor = {
    name: "failing",
    accepts: () => true,
    extract: () => Promise.reject(new Error("boom")),
  };
  const { ports, diagnostics } = await extractPorts(
    [{ path: "a.js", text: "fetch('/a');" }],
    { extractors: [failing, javascriptExtractor] },
  );
  assert.deepEqual(diagnostics, [
    {
      filePath: "",
      severity: "error",
      message: "Cannot extract with failing: boom",
    },
  ]);
  assert.equal(ports.length, 1);
});

Deno.test("extractPorts() lists a port found by two extractors once", async () => {
  const { ports } = await extractPorts(
    [{ path: "a.js", text: "fetch('/a');" }],
    { extractors: [javascriptExtractor, javascriptExtractor] },
  );
  assert.equal(ports.length, 1);
});
