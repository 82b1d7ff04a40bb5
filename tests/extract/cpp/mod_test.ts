import assert from "node:assert/strict";
import { cppExtractor } from "../../../src/extract/cpp/mod.ts";
import { assertRobust, loadFixture, summarize } from "../_fixtures.ts";

Deno.test("cppExtractor accepts C++ sources and headers only", () => {
  for (const path of ["a.cpp", "b.cc", "c.hpp", "d.h", "e.cxx"]) {
    assert.ok(cppExtractor.accepts(path), path);
  }
  for (const path of ["a.c.txt", "b.cs", "c.py"]) {
    assert.ok(!cppExtractor.accepts(path), path);
  }
});

Deno.test("cppExtractor reports an oversized file and never rejects on malformed input", async () => {
  const big = await cppExtractor.extract([{
    path: "big.cpp",
    text: "x".repeat(2_000_001),
  }]);
  assert.deepEqual(big.ports, []);
  assert.equal(big.diagnostics[0]?.severity, "error");
  await assertRobust(cppExtractor, "main.cpp", [
    'CROW_ROUTE(app, "/a")',
    "CROW_BP_ROUTE(bp,",
    '.methods("POST"_method)',
    'svr.Get("/x", h);',
    "httplib::Server svr;",
    'R"(/r/(.*))"',
    'ENDPOINT("GET", "x", y)',
    'METHOD_ADD(C::m, "/m", Get);',
    "class C : public drogon::HttpController<C> {",
    "namespace n {",
    "}",
    "(",
    ")",
    '"',
    "/*",
    "*/",
    "//",
    "\n",
    "'",
    "{",
  ]);
});

Deno.test("cppExtractor reads a mixed C++ project", async () => {
  const files = await loadFixture("cpp");
  const { ports, diagnostics } = await cppExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summarize(ports), [
    "Orders.h:8 server GET /store/Orders",
    "Orders.h:9 server POST /store/Orders/{}/cancel",
    "server.cpp:11 server GET /items/{}",
    "server.cpp:14 server DELETE /items/{}",
    "server.cpp:23 server GET /catalogue/{}",
    "server.cpp:24 server POST /admin/reindex",
  ]);
});

Deno.test("cppExtractor stays fast on unbalanced and repetitive input", async () => {
  const texts = [
    'CROW_ROUTE(app, "/a")('.repeat(40_000),
    "class a ".repeat(100_000),
    "namespace n {".repeat(50_000),
    'svr.Get("/x", ('.repeat(40_000) + "httplib::Server svr;",
  ];
  const started = performance.now();
  for (const text of texts) {
    const { ports } = await cppExtractor.extract([{ path: "x.cpp", text }]);
    assert.ok(ports.length <= 5_000);
  }
  assert.ok(performance.now() - started < 20_000, "took too long");
});
