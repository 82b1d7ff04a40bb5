import assert from "node:assert/strict";
import { csharpExtractor } from "../../src/extract/csharp.ts";
import {
  assertRobust,
  loadFixture,
  only,
  portAt,
  summarize,
} from "./_fixtures.ts";

Deno.test("csharpExtractor finds minimal API routes with MapGroup prefixes", async () => {
  const files = only(await loadFixture("csharp"), "Api/Program.cs");
  const { ports, diagnostics } = await csharpExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summarize(ports), [
    "Api/Program.cs:4 server GET /health",
    "Api/Program.cs:9 server GET /api/orders",
    "Api/Program.cs:10 server GET /api/orders/{}",
    "Api/Program.cs:11 server POST /api/orders",
    "Api/Program.cs:12 server GET /api/ping",
    "Api/Program.cs:12 server HEAD /api/ping",
    "Api/Program.cs:13 server DELETE /admin/cache",
    "Api/Program.cs:14 server ANY /fallback",
  ]);
  assert.equal(portAt(ports, "Program.cs", 4)!.ref.confidence, 1);
  assert.equal(portAt(ports, "Program.cs", 10)!.ref.confidence, 0.95);
  assert.equal(portAt(ports, "Program.cs", 10)!.owner.kind, "module");
});

Deno.test("csharpExtractor takes extension-method groups from their call sites", async () => {
  const all = await loadFixture("csharp");
  const files = [
    ...only(all, "Api/Program.cs"),
    ...only(all, "Api/TodoEndpoints.cs"),
  ];
  const { ports } = await csharpExtractor.extract(files);
  const todos = ports.filter((p) => p.filePath === "Api/TodoEndpoints.cs");
  assert.deepEqual(summarize(todos), [
    "Api/TodoEndpoints.cs:7 server GET /todos",
    "Api/TodoEndpoints.cs:8 server PUT /todos/{}",
  ]);
  assert.equal(
    todos[0]!.owner.qualifiedName,
    "Api/TodoEndpoints.cs::TodoEndpoints.MapTodosApi",
  );
  // Without the call site the group prefix is unknown: the bare paths.
  const alone = await csharpExtractor.extract(
    only(all, "Api/TodoEndpoints.cs"),
  );
  assert.deepEqual(summarize(alone.ports), [
    "Api/TodoEndpoints.cs:7 server GET /",
    "Api/TodoEndpoints.cs:8 server PUT /{}",
  ]);
  assert.equal(alone.ports[0]!.ref.confidence, 0.8);
});

Deno.test("csharpExtractor composes controller routes and [controller] tokens", async () => {
  const files = only(await loadFixture("csharp"), "Api/Controllers/Users");
  const { ports } = await csharpExtractor.extract(files);
  const file = "Api/Controllers/UsersController.cs";
  assert.deepEqual(summarize(ports), [
    `${file}:9 server GET /api/Users`,
    `${file}:12 server GET /api/Users/{}`,
    `${file}:15 server POST /api/Users`,
    `${file}:18 server PUT /api/Users/{}/Rename`,
    `${file}:21 server DELETE /legacy/users/{}`,
    `${file}:24 server ANY /api/Users/search`,
  ]);
  const get = portAt(ports, "UsersController.cs", 12)!;
  assert.equal(get.ref.col, 5);
  assert.equal(get.owner.qualifiedName, `${file}::UsersController.Get`);
  assert.equal(portAt(ports, "UsersController.cs", 21)!.ref.confidence, 1);
});

Deno.test("csharpExtractor fills [area], [controller] and [action] tokens", async () => {
  const files = only(await loadFixture("csharp"), "Api/Controllers/Reports");
  const { ports } = await csharpExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    "Api/Controllers/ReportsController.cs:9 server GET /Admin/Reports/Yearly/{}",
  ]);
});

Deno.test("csharpExtractor finds HttpClient calls and request messages", async () => {
  const files = only(await loadFixture("csharp"), "Web/OrdersClient.cs");
  const { ports } = await csharpExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    "Web/OrdersClient.cs:18 client GET /api/orders/{}",
    "Web/OrdersClient.cs:22 client POST /api/orders",
    "Web/OrdersClient.cs:27 client DELETE /api/orders/{}",
    "Web/OrdersClient.cs:33 client HEAD /api/ping",
    "Web/OrdersClient.cs:35 client GET /api/users",
  ]);
  assert.deepEqual(ports.map((p) => p.ref.confidence), [
    0.8,
    0.95,
    0.8,
    1,
    0.8,
  ]);
});

Deno.test("csharpExtractor ignores loggers, dictionaries and other receivers", async () => {
  const files = only(await loadFixture("csharp"), "Web/Lookalikes.cs");
  const { ports } = await csharpExtractor.extract(files);
  assert.deepEqual(ports, []);
});

Deno.test("csharpExtractor never rejects on malformed input", async () => {
  await assertRobust(csharpExtractor, "P.cs", [
    'app.MapGet("/x", () => 1);',
    'var g = app.MapGroup("/a");',
    "g.MapPost(",
    '[Route("api/[controller]")]',
    "class XController {",
    "}",
    '[HttpGet("{id}")]',
    "void F() {",
    '"',
    "(",
    ")",
    "\n",
  ]);
});
