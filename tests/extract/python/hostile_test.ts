// Python sources a hostile repository controls: patterns that see raw text
// get their worst case, and one file's deep nesting costs no other file.
import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portLines } from "../_fixtures.ts";

const FLASK = "from flask import Flask\napp = Flask(__name__)\n";

Deno.test("pythonExtractor reads a Flask rule of 20,000 unclosed converters in linear time", async () => {
  const rule = "/" + "<a(".repeat(20_000);
  const { ports } = await pythonExtractor.extract([{
    path: "app.py",
    text:
      `${FLASK}@app.route('${rule}')\ndef h():\n    return 1\n@app.route('/users/<regex("[0-9]+"):id>')\ndef u(id):\n    return 1\n`,
  }]);
  assert.deepEqual(
    portLines(ports).map((l) => l.length > 80 ? l.slice(0, 20) : l),
    ["server GET /<a(<a(<a", "server GET /users/{} app.py:6"],
  );
});

Deno.test("pythonExtractor keeps other files' routes next to a call nested 4,000 deep", async () => {
  const { ports } = await pythonExtractor.extract([
    {
      path: "evil.py",
      text: `x = ${"f(".repeat(4_000)}1${")".repeat(4_000)}\n`,
    },
    {
      path: "ok.py",
      text: `${FLASK}@app.route('/ok')\ndef ok():\n    return 1\n`,
    },
  ]);
  assert.deepEqual(portLines(ports), ["server GET /ok ok.py:3"]);
});
