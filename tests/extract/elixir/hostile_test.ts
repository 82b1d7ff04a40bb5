// Router files a hostile repository controls: deep nesting neither blows
// the stack nor loses the file's other routes, and routes under thousands
// of scopes do not make a quadratic report.
import assert from "node:assert/strict";
import { elixirExtractor } from "../../../src/extract/elixir/mod.ts";
import { portLines } from "../_fixtures.ts";

const HEAD = "defmodule R do\n  use Phoenix.Router\n";

Deno.test("elixirExtractor keeps a file's routes next to 60,000 nested parentheses", async () => {
  const deep = "(".repeat(60_000) + "1" + ")".repeat(60_000);
  const { ports, diagnostics } = await elixirExtractor.extract([{
    path: "router.ex",
    text:
      `${HEAD}  get "/ok", C, :i\n  x = ${deep}\n  get "/after", C, :i\nend\n`,
  }]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(portLines(ports), [
    "server GET /after router.ex:5",
    "server GET /ok router.ex:3",
  ]);
});

Deno.test("elixirExtractor skips routes nested in thousands of scopes, with a warning", async () => {
  const n = 4_000;
  const text = HEAD +
    Array.from({ length: n }, (_, i) => `  scope "/s${i}" do\n`).join("") +
    Array.from({ length: n }, (_, i) => `  get "/r${i}", C, :i\n`).join("") +
    "  end\n".repeat(n) + '  get "/top", C, :i\nend\n';
  const { ports, diagnostics } = await elixirExtractor.extract([{
    path: "router.ex",
    text,
  }]);
  assert.deepEqual(ports.map((p) => p.ref.key), ["GET /top"]);
  assert.deepEqual(diagnostics.map((d) => [d.severity, d.message]), [[
    "warning",
    "Cannot read every route: some are nested in more than 64 blocks and were skipped",
  ]]);
});

Deno.test("elixirExtractor still reads routes in scopes nested a realistic depth", async () => {
  const depth = 20;
  const text = HEAD +
    Array.from({ length: depth }, (_, i) => `  scope "/s${i}" do\n`).join("") +
    '  get "/r", C, :i\n' + "  end\n".repeat(depth) + "end\n";
  const { ports, diagnostics } = await elixirExtractor.extract([{
    path: "router.ex",
    text,
  }]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(ports.map((p) => p.ref.key), [
    `GET ${Array.from({ length: depth }, (_, i) => `/s${i}`).join("")}/r`,
  ]);
});
