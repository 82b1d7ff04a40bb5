import assert from "node:assert/strict";
import { extractPorts } from "../../src/extract/extract_ports.ts";
import type { LanguageExtractor } from "../../src/extract/extractor.ts";
import { javascriptExtractor } from "../../src/extract/javascript/mod.ts";
import { pythonExtractor } from "../../src/extract/python/mod.ts";

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
      filePath: "a.js",
      severity: "error",
      message: "Cannot extract with failing: boom",
    },
  ]);
  assert.equal(ports.length, 1);
});

Deno.test("extractPorts() costs a file an extractor throws on only that file", async () => {
  const { ports, diagnostics } = await extractPorts([
    {
      path: "api/main.py",
      text:
        'from fastapi import FastAPI\napp = FastAPI()\n\n@app.get("/users")\ndef users():\n    return []\n',
    },
    {
      path: "api/deep.py",
      text: "import requests\ndef run():\n    url = " + "(".repeat(20_000) +
        '"/x"' + ")".repeat(20_000) + "\n    requests.get(url)\n",
    },
  ], { extractors: [pythonExtractor] });
  assert.deepEqual(ports.map((p) => p.ref.key), ["GET /users"]);
  assert.deepEqual(diagnostics, [{
    filePath: "api/deep.py",
    severity: "error",
    message: "Cannot extract with python: Maximum call stack size exceeded",
  }]);
});

Deno.test("extractPorts() lists a port found by two extractors once", async () => {
  const { ports } = await extractPorts(
    [{ path: "a.js", text: "fetch('/a');" }],
    { extractors: [javascriptExtractor, javascriptExtractor] },
  );
  assert.equal(ports.length, 1);
});
