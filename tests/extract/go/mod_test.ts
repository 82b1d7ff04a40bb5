import assert from "node:assert/strict";
import fc from "fast-check";
import { goExtractor } from "../../../src/extract/go/mod.ts";
import type { SourceFile } from "../../../src/extract/extractor.ts";
import { loadFixture, portSummary as summary } from "../_fixtures.ts";

function load(dir: string): Promise<SourceFile[]> {
  return loadFixture(`go/${dir}`, goExtractor.accepts);
}

Deno.test("goExtractor reads net/http patterns with Go 1.22 methods, wildcards and StripPrefix mounts", async () => {
  const { ports, diagnostics } = await goExtractor.extract(
    await load("nethttp"),
  );
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summary(ports), [
    "main.go:11 server GET /users/{} 1",
    "main.go:12 server POST /api/users 0.95",
    "main.go:13 server ANY /files/{} 1",
    "main.go:14 server GET / 1",
    "main.go:16 server ANY /healthz 1",
    "main.go:22 server DELETE /v2/orders/{} 0.95",
  ]);
  const deleteOrder = ports.find((p) => p.ref.key === "DELETE /v2/orders/{}");
  assert.equal(deleteOrder?.owner.qualifiedName, "main.go::v2Mux");
  assert.equal(deleteOrder?.ref.col, 2);
});

Deno.test("goExtractor reads gorilla/mux routes on struct fields, subrouters and Methods(), not the http.Handle mount", async () => {
  const { ports } = await goExtractor.extract(await load("gorilla"));
  assert.deepEqual(summary(ports), [
    "main.go:14 server GET /status 1",
    "main.go:16 server GET /api/v1/orders/{} 0.95",
    "main.go:16 server PUT /api/v1/orders/{} 0.95",
    "main.go:17 server ANY /api/v1/metrics 0.95",
    "main.go:32 server POST /legacy/{} 1",
  ]);
  assert.equal(ports[0]?.owner.qualifiedName, "main.go::Server.routes");
});

Deno.test("goExtractor composes gin groups, also through a function taking a group", async () => {
  const { ports } = await goExtractor.extract(await load("gin"));
  assert.deepEqual(summary(ports), [
    "main.go:10 server POST /v1/login 0.95",
    "main.go:13 server ANY /proxy/{} 1",
    "main.go:18 server GET /v1/users/{} 0.95",
    "main.go:19 server PATCH /v1/users/{} 0.95",
    "main.go:7 server GET /ping 1",
  ]);
});

Deno.test("goExtractor composes echo groups and Add() methods", async () => {
  const { ports } = await goExtractor.extract(await load("echo"));
  assert.deepEqual(summary(ports), [
    "main.go:11 server GET / 1",
    "main.go:13 server DELETE /admin/users/{} 0.95",
    "main.go:14 server POST /admin/jobs 0.95",
  ]);
});

Deno.test("goExtractor composes chi Route (inline or named function), Group, With and Mount of a router built elsewhere", async () => {
  const { ports } = await goExtractor.extract(await load("chi"));
  assert.deepEqual(summary(ports), [
    "main.go:11 server GET / 1",
    "main.go:13 server GET /articles 0.95",
    "main.go:15 server PUT /articles/{} 0.95",
    "main.go:19 server POST /login 1",
    "main.go:28 server GET /admin/stats 0.95",
    "main.go:29 server DELETE /admin/cache 0.95",
    "main.go:38 server GET /users/{} 0.95",
  ]);
});

Deno.test("goExtractor finds net/http client calls, NewRequest methods and Sprintf URLs", async () => {
  const { ports } = await goExtractor.extract(await load("client"));
  assert.deepEqual(summary(ports), [
    "client.go:19 client GET /api/users/{} 0.8",
    "client.go:23 client HEAD /ping 1",
    "client.go:24 client POST /v1/login 0.8",
    "client.go:28 client DELETE /orders/{} 0.8",
    "client.go:37 client POST /api/users 0.95",
    "client.go:40 client GET /admin/jobs 1",
  ]);
  const del = ports.find((p) => p.ref.line === 28);
  assert.equal(del?.owner.qualifiedName, "client.go::Client.Delete");
});

Deno.test("goExtractor ignores url.Values.Get, Header.Get, map lookups, logging and non-router GET methods", async () => {
  const { ports } = await goExtractor.extract(await load("negative"));
  assert.deepEqual(summary(ports), []);
});

Deno.test("goExtractor skips generated .pb.go files", () => {
  assert.equal(goExtractor.accepts("cmd/main.go"), true);
  assert.equal(goExtractor.accepts("gen/orders.pb.go"), false);
});

Deno.test("goExtractor lowers confidence for routes on a router parameter no caller supplies", async () => {
  const { ports } = await goExtractor.extract([{
    path: "routes.go",
    text: [
      "package api",
      "",
      'import "github.com/gin-gonic/gin"',
      "",
      "func Register(g *gin.RouterGroup) {",
      '\tg.GET("/items/:id", nil)',
      "}",
      "",
    ].join("\n"),
  }]);
  assert.deepEqual(summary(ports), [
    "routes.go:6 server GET /items/{} 0.8",
  ]);
});

Deno.test("goExtractor does not take a shadowing variable for the http package", async () => {
  const { ports } = await goExtractor.extract([{
    path: "main.go",
    text: [
      "package main",
      "",
      'import "net/http"',
      "",
      "func main() {",
      "\thttp := fakeClient{}",
      '\thttp.Get("http://svc/users")',
      "}",
      "",
    ].join("\n"),
  }]);
  assert.deepEqual(summary(ports), []);
});

Deno.test("goExtractor warns about syntax errors and still reads the rest of the file", async () => {
  const { ports, diagnostics } = await goExtractor.extract([{
    path: "main.go",
    text: [
      "package main",
      "",
      'import "net/http"',
      "",
      "func main() {",
      '\thttp.HandleFunc("GET /ok", nil)',
      "}",
      "",
      "func broken( {",
      "",
    ].join("\n"),
  }]);
  assert.deepEqual(summary(ports), ["main.go:6 server GET /ok 1"]);
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0]?.severity, "warning");
  assert.match(diagnostics[0]?.message ?? "", /^Cannot fully parse: /);
});

Deno.test("goExtractor never throws on arbitrary source text", async () => {
  const token = fc.constantFrom(
    "r",
    "g",
    ".",
    "(",
    ")",
    "{",
    "}",
    ":=",
    "GET",
    "Group",
    "HandleFunc",
    '"/x"',
    '"GET /y/{id}"',
    "+",
    "func",
    "import",
    '"net/http"',
    '"github.com/gin-gonic/gin"',
    "gin.Default()",
    "http",
    "\n",
    ",",
    "chi.Router",
    "Route",
    "Mount",
    "fmt.Sprintf",
    '"%s/z"',
  );
  await fc.assert(
    fc.asyncProperty(fc.array(token, { maxLength: 60 }), async (tokens) => {
      const result = await goExtractor.extract([
        { path: "a.go", text: "package a\n" + tokens.join(" ") },
      ]);
      for (const port of result.ports) assert.match(port.ref.key, /^[A-Z]+ \//);
    }),
    { numRuns: 60 },
  );
});

Deno.test("goExtractor reads gorilla/mux builder chains ending in Handler or HandlerFunc, prefix routes and prefix mounts", async () => {
  const { ports } = await goExtractor.extract(await load("gorilla_builder"));
  assert.deepEqual(summary(ports), [
    "main.go:10 server POST /accounts 1",
    "main.go:11 server GET /accounts/{} 1",
    "main.go:12 server GET /accounts/{}/ledger 1",
    "main.go:12 server HEAD /accounts/{}/ledger 1",
    "main.go:16 server ANY /ping 1",
    "main.go:17 server ANY /assets 1",
    "main.go:24 server DELETE /admin/sessions/{} 0.95",
    "main.go:26 server GET /v0/orders 0.95",
    "main.go:29 server GET /v1/items 1",
    "main.go:31 server ANY /static 1",
  ]);
});

Deno.test("goExtractor reads fiber routes, groups, Route closures, Add, All and Mount", async () => {
  const { ports } = await goExtractor.extract(await load("fiber"));
  assert.deepEqual(summary(ports), [
    "main.go:14 server GET /health 1",
    "main.go:17 server POST /api/v1/orders 0.95",
    "main.go:18 server PATCH /api/v1/orders/{} 0.95",
    "main.go:19 server ANY /proxy/{} 1",
    "main.go:20 server QUERY /api/v1/search 0.95",
    "main.go:22 server PUT /shop/cart/{} 0.95",
    "main.go:26 server GET /admin/stats 0.95",
    "main.go:8 server GET /api/v1/books/{} 0.95",
    "main.go:9 server DELETE /api/v1/books/{} 0.95",
  ]);
});

Deno.test("goExtractor reads hertz routes, groups and Handle", async () => {
  const { ports } = await goExtractor.extract(await load("hertz"));
  assert.deepEqual(summary(ports), [
    "main.go:14 server GET /ping 1",
    "main.go:16 server POST /api/users/{} 0.95",
    "main.go:17 server ANY /echo 1",
    "main.go:18 server DELETE /cache 1",
    "main.go:9 server PUT /api/profile 0.95",
  ]);
});

Deno.test("goExtractor reads iris routes, parties, PartyFunc closures and HandleMany", async () => {
  const { ports } = await goExtractor.extract(await load("iris"));
  assert.deepEqual(summary(ports), [
    "main.go:10 server PATCH /items/{} 1",
    "main.go:11 server GET /search 1",
    "main.go:11 server POST /search 1",
    "main.go:13 server DELETE /admin/sessions/{} 0.95",
    "main.go:15 server ANY /anything 1",
    "main.go:17 server GET /settings 1",
    "main.go:19 server GET /v1/status 1",
    "main.go:7 server GET /ping 1",
    "main.go:9 server POST /users/{}/avatar 0.95",
  ]);
});

Deno.test("goExtractor reads httprouter routes and Handle/HandlerFunc with a method", async () => {
  const { ports } = await goExtractor.extract(await load("httprouter"));
  assert.deepEqual(summary(ports), [
    "main.go:11 server GET /users/{} 1",
    "main.go:12 server POST /users 1",
    "main.go:13 server PUT /users/{} 1",
    "main.go:14 server DELETE /users/{} 1",
    "main.go:15 server GET /static/{} 1",
  ]);
});

Deno.test("goExtractor reads Go kit HTTP clients: the path set on the URL, in a URL helper, in the encoder, or given by a factory's callers", async () => {
  const { ports } = await goExtractor.extract(await load("gokit"));
  assert.deepEqual(summary(ports), [
    "client.go:18 client POST /entries 0.95",
    "client.go:21 client GET /accounts/{}/balance 0.8",
    "client.go:26 client GET /health 1",
    "client.go:44 client PUT /limits 0.95",
    "client.go:45 client DELETE /entries/{} 0.95",
  ]);
});

Deno.test("goExtractor reads routes on http.DefaultServeMux", async () => {
  const { ports } = await goExtractor.extract(await load("defaultmux"));
  assert.deepEqual(summary(ports), [
    "main.go:10 server ANY /metrics 1",
    "main.go:11 server GET /version 1",
  ]);
});

Deno.test("goExtractor reads Dapr Go SDK service invocation: InvokeMethod calls and invocation handlers", async () => {
  const { ports } = await goExtractor.extract(await load("dapr"));
  assert.deepEqual(summary(ports), [
    "checkout/main.go:15 client POST /orders 1",
    "checkout/main.go:16 client PUT /orders/{}/cancel 1",
    "orders/main.go:14 server ANY /orders 1",
    "orders/main.go:9 server ANY /orders/{}/cancel 1",
  ]);
});

Deno.test("goExtractor reads go-zero rest.Route literals under AddRoute and AddRoutes with WithPrefix", async () => {
  const { ports } = await goExtractor.extract(await load("gozero"));
  assert.deepEqual(summary(ports), [
    "routes.go:12 server GET /api/v1/books/{} 0.95",
    "routes.go:17 server POST /api/v1/books 0.95",
    "routes.go:26 server DELETE /cache 1",
    "routes.go:28 server PUT /admin/flags 0.95",
  ]);
});

Deno.test("goExtractor reads go-restful routes under their WebService's root path", async () => {
  const { ports } = await goExtractor.extract(await load("restful"));
  assert.deepEqual(summary(ports), [
    "users.go:14 server GET /users/{} 0.95",
    "users.go:15 server POST /users 0.95",
    "users.go:16 server PATCH /users/{}/name 0.95",
    "users.go:22 server HEAD /ready 1",
  ]);
});

Deno.test("goExtractor reads beego routes: functions, Router mappings or controller methods, namespaces", async () => {
  const { ports } = await goExtractor.extract(await load("beego"));
  assert.deepEqual(summary(ports), [
    "main.go:11 server GET / 1",
    "main.go:12 server GET /users 1",
    "main.go:12 server POST /users 1",
    "main.go:13 server GET /users/export 1",
    "main.go:13 server POST /users/export 1",
    "main.go:15 server GET /v1/health 0.95",
    "main.go:17 server DELETE /v1/admin/users 0.95",
  ]);
});

Deno.test("goExtractor reads huma operations: Register with an Operation and the method helpers", async () => {
  const { ports } = await goExtractor.extract(await load("huma"));
  assert.deepEqual(summary(ports), [
    "main.go:11 server GET /books 1",
    "main.go:16 server GET /books/{} 1",
    "main.go:17 server DELETE /books/{} 1",
  ]);
});

Deno.test("goExtractor reads goyave routes, subrouters and groups", async () => {
  const { ports } = await goExtractor.extract(await load("goyave"));
  assert.deepEqual(summary(ports), [
    "route.go:10 server POST /api/orders 0.8",
    "route.go:12 server DELETE /api/orders/{} 0.8",
    "route.go:13 server GET /api/status 0.8",
    "route.go:13 server HEAD /api/status 0.8",
    "route.go:18 server GET /ping 0.8",
    "route.go:8 server GET / 0.8",
  ]);
});

Deno.test("goExtractor reads static file routes registered explicitly with echo and gin", async () => {
  const { ports } = await goExtractor.extract(await load("static"));
  assert.deepEqual(summary(ports), [
    "main.go:10 server GET /robots.txt 1",
    "main.go:11 server GET /assets/{} 1",
    "main.go:13 server GET /favicon.ico 1",
    "main.go:14 server GET /media/{} 1",
  ]);
});

Deno.test("goExtractor reads GoFrame routes: BindHandler patterns, verbs and ALL, Group closures and groups", async () => {
  const { ports } = await goExtractor.extract(await load("gf"));
  assert.deepEqual(summary(ports), [
    "main.go:10 server ANY /ping 1",
    "main.go:11 server POST /upload 1",
    "main.go:13 server GET /api/users 0.95",
    "main.go:15 server PUT /api/v1/users/{} 0.95",
    "main.go:16 server ANY /api/health 0.95",
    "main.go:18 server DELETE /admin/cache 0.95",
  ]);
});

Deno.test("goExtractor keeps the own paths of a ServeMux handed a subtree without StripPrefix", async () => {
  const { ports } = await goExtractor.extract(await load("subtree"));
  assert.deepEqual(summary(ports), [
    "main.go:10 server ANY /healthz 1",
    "main.go:7 server GET /api/users 1",
  ]);
});

Deno.test("goExtractor reads GoFrame standard routing: Bind of a controller (or of a constructor's result) whose request types embed g.Meta, under the group's prefix", async () => {
  const { ports } = await goExtractor.extract(await load("gf_meta"));
  assert.deepEqual(summary(ports), [
    "internal/cmd/cmd.go:15 server GET /shop/orders/{} 0.95",
    "internal/cmd/cmd.go:19 server PATCH /shop/orders/{} 0.95",
    "internal/cmd/cmd.go:19 server PUT /shop/orders/{} 0.95",
    "internal/cmd/cmd.go:23 server ANY /shop/orders/hook 0.95",
    "internal/controller/ping/ping.go:15 server GET /shop/ping 0.95",
  ]);
});

Deno.test("goExtractor reads go-zero .api services under their @server prefix, once when goctl generated routes.go from them", async () => {
  const files = await load("gozero_api");
  assert.ok(files.some((f) => f.path === "shop.api"));
  const { ports } = await goExtractor.extract(files);
  assert.deepEqual(summary(ports), [
    "internal/handler/extra.go:11 server GET /healthz 1",
    "shop.api:20 server GET /items/{} 1",
    "shop.api:23 server POST /items 1",
    "shop.api:34 server DELETE /admin/items/{} 0.95",
  ]);
});

Deno.test("goExtractor reads fasthttp/router routes and groups, and the path switch of a plain fasthttp handler", async () => {
  const { ports } = await goExtractor.extract(await load("fasthttp"));
  assert.deepEqual(summary(ports), [
    "main.go:10 server GET / 1",
    "main.go:11 server POST /orders 1",
    "main.go:12 server GET /orders/{} 1",
    "main.go:13 server PURGE /cache/{} 1",
    "main.go:14 server ANY /echo 1",
    "main.go:15 server GET /static/{} 1",
    "main.go:17 server DELETE /v1/orders/{} 0.95",
    "plain.go:11 server ANY /health 1",
    "plain.go:13 server GET /items 1",
    "plain.go:13 server POST /items 1",
  ]);
});

Deno.test("goExtractor reads PocketBase routes on the ServeEvent's router, groups with Bind/Unbind and Route", async () => {
  const { ports } = await goExtractor.extract(await load("pocketbase"));
  assert.deepEqual(summary(ports), [
    "main.go:15 server GET /hello/{} 1",
    "main.go:17 server POST /api/shop/orders 0.95",
    "main.go:18 server PUT /api/shop/orders/{} 0.95",
    "main.go:29 server DELETE /api/shop/admin/cache 0.95",
  ]);
});

Deno.test("goExtractor reads hostile .api files in linear time", async () => {
  const texts = [
    "/* a".repeat(50_000),
    "service a {".repeat(50_000),
    "@server(".repeat(50_000) + "service a {",
    '"'.repeat(100_000),
  ];
  const started = performance.now();
  const { ports } = await goExtractor.extract(
    texts.map((text, i) => ({ path: `x${i}.api`, text })),
  );
  assert.deepEqual(ports, []);
  assert.ok(performance.now() - started < 5_000);
});
