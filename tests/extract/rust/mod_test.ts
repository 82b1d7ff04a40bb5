import assert from "node:assert/strict";
import { rustExtractor } from "../../../src/extract/rust/mod.ts";
import {
  assertRobust,
  loadFixture,
  only,
  portAt,
  summarize,
} from "../_fixtures.ts";

Deno.test("rustExtractor composes axum routes across nest, merge and files", async () => {
  const files = only(await loadFixture("rust"), "axum_app/");
  const { ports, diagnostics } = await rustExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  const servers = ports.filter((p) => p.ref.role === "server");
  assert.deepEqual(summarize(servers), [
    "axum_app/src/main.rs:13 server GET /health",
    "axum_app/src/main.rs:22 server GET /api/orders",
    "axum_app/src/main.rs:22 server POST /api/orders",
    "axum_app/src/main.rs:23 server DELETE /api/orders/{}",
    "axum_app/src/main.rs:23 server GET /api/orders/{}",
    "axum_app/src/users.rs:5 server GET /api/users/{}",
    "axum_app/src/users.rs:5 server PUT /api/users/{}",
    "axum_app/src/users.rs:6 server PUT /api/users/{}/avatar",
    "axum_app/src/users.rs:10 server ANY /admin/{}",
  ]);
  assert.equal(portAt(servers, "main.rs", 13)!.ref.confidence, 1);
  assert.equal(portAt(servers, "main.rs", 23)!.ref.confidence, 0.95);
  assert.equal(portAt(servers, "users.rs", 5)!.ref.confidence, 0.95);
  assert.equal(
    portAt(servers, "users.rs", 5)!.owner.qualifiedName,
    "axum_app/src/users.rs::routes",
  );
});

Deno.test("rustExtractor mounts same-named router functions by module", async () => {
  const files = only(await loadFixture("rust"), "axum_modules/");
  const { ports } = await rustExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    "axum_modules/src/orders.rs:4 server POST /orders",
    "axum_modules/src/users.rs:4 server GET /users/{}",
  ]);
});

Deno.test("rustExtractor finds reqwest calls on real clients only", async () => {
  const files = only(await loadFixture("rust"), "axum_app/src/client.rs");
  const { ports } = await rustExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    "axum_app/src/client.rs:10 client GET /api/orders/{}",
    "axum_app/src/client.rs:15 client POST /api/orders",
    "axum_app/src/client.rs:21 client GET /health",
    "axum_app/src/client.rs:27 client DELETE /api/orders/{}",
  ]);
  assert.equal(portAt(ports, "client.rs", 15)!.ref.confidence, 0.95);
  assert.equal(
    portAt(ports, "client.rs", 10)!.owner.qualifiedName,
    "axum_app/src/client.rs::OrdersApi.get",
  );
});

Deno.test("rustExtractor finds awc client calls", async () => {
  const files = only(await loadFixture("rust"), "actix_app/src/client.rs");
  const { ports } = await rustExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    "actix_app/src/client.rs:5 client POST /api/notify/{}",
    "actix_app/src/client.rs:9 client GET /ping",
  ]);
  assert.equal(ports[0]!.ref.detail.framework, "awc");
});

Deno.test("rustExtractor composes actix-web scopes, resources and attributes", async () => {
  const files = only(await loadFixture("rust"), "actix_app/src/main.rs");
  const { ports } = await rustExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    "actix_app/src/main.rs:3 server GET /api/items/{}",
    "actix_app/src/main.rs:8 server POST /api/items",
    "actix_app/src/main.rs:13 server DELETE /items/{}",
    "actix_app/src/main.rs:18 server GET /multi",
    "actix_app/src/main.rs:18 server HEAD /multi",
    "actix_app/src/main.rs:26 server GET /v1/status",
    "actix_app/src/main.rs:27 server POST /v1/status",
    "actix_app/src/main.rs:39 server GET /ping",
  ]);
  assert.equal(
    portAt(ports, "main.rs", 3)!.owner.qualifiedName,
    "actix_app/src/main.rs::get_item",
  );
});

Deno.test("rustExtractor never rejects on malformed input", async () => {
  await assertRobust(rustExtractor, "main.rs", [
    "use axum::Router;",
    "use actix_web::get;",
    "fn f() -> Router {",
    "}",
    'Router::new().route("/x", get(h))',
    '.nest("/a", f())',
    '#[get("/y")]',
    'reqwest::get("http://h/z")',
    '"',
    "(",
    ")",
    "\n",
  ]);
});

Deno.test("rustExtractor composes Rocket handlers with their mount prefixes", async () => {
  const files = only(await loadFixture("rust_rocket"), "shop/");
  const { ports, diagnostics } = await rustExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summarize(ports), [
    "shop/src/admin.rs:3 server GET /admin/stats",
    "shop/src/files.rs:5 server GET /files/{}",
    "shop/src/files.rs:10 server PUT /files/{}",
    "shop/src/files.rs:13 server PATCH /files/{}/meta",
    "shop/src/files.rs:16 server HEAD /files/{}",
    "shop/src/files.rs:19 server OPTIONS /files",
    "shop/src/main.rs:10 server GET /",
    "shop/src/main.rs:15 server GET /health",
    "shop/src/main.rs:20 server GET /version",
    "shop/src/main.rs:25 server POST /debug/reset",
    "shop/src/users.rs:4 server GET /api/users",
    "shop/src/users.rs:9 server GET /api/users/{}",
    "shop/src/users.rs:9 server GET /v2/users/{}",
    "shop/src/users.rs:14 server POST /api/users",
    "shop/src/users.rs:19 server DELETE /users/{}",
  ]);
  assert.ok(ports.every((p) => p.ref.detail.framework === "rocket"));
  const show = portAt(ports, "users.rs", 9)!;
  assert.equal(show.ref.confidence, 0.95);
  assert.equal(show.ref.col, 1);
  assert.equal(show.owner.qualifiedName, "shop/src/users.rs::show");
  assert.equal(portAt(ports, "main.rs", 15)!.ref.confidence, 1);
  assert.equal(portAt(ports, "main.rs", 15)!.ref.detail.path, "/health");
  assert.equal(
    portAt(ports, "files.rs", 5)!.ref.detail.path,
    "/files/<path..>",
  );
});

Deno.test("rustExtractor reports unmounted Rocket handlers at lower confidence", async () => {
  const files = only(await loadFixture("rust_rocket"), "shop/");
  const { ports } = await rustExtractor.extract(files);
  const reset = portAt(ports, "main.rs", 25)!;
  assert.equal(reset.ref.key, "POST /debug/reset");
  assert.equal(reset.ref.confidence, 0.8);
  assert.equal(reset.ref.detail.mounted, "false");
  // Without the file that mounts them, the user handlers keep their bare
  // paths at 0.8.
  const alone = await rustExtractor.extract(only(files, "shop/src/users.rs"));
  assert.deepEqual(alone.ports.map((p) => `${p.ref.key} ${p.ref.confidence}`), [
    "GET /users 0.8",
    "GET /users/{} 0.8",
    "POST /users 0.8",
    "DELETE /users/{} 0.8",
  ]);
});

Deno.test("rustExtractor ignores non-Rocket attributes and mounts", async () => {
  const all = await loadFixture("rust_rocket");
  const { ports } = await rustExtractor.extract(all);
  assert.deepEqual(
    ports.filter((p) =>
      !p.filePath.startsWith("shop/src/") ||
      p.filePath.endsWith("disk.rs")
    ),
    [],
  );
  const lookalike = await rustExtractor.extract(only(all, "lookalike/"));
  assert.deepEqual(lookalike.ports, []);
});

Deno.test("rustExtractor keeps actix-web attributes next to a Rocket crate", async () => {
  const actix = only(await loadFixture("rust"), "actix_app/src/main.rs");
  const rocket = only(await loadFixture("rust_rocket"), "shop/");
  const alone = await rustExtractor.extract(actix);
  const mixed = await rustExtractor.extract([...actix, ...rocket]);
  const actixPorts = mixed.ports.filter((p) =>
    p.filePath.startsWith("actix_app/")
  );
  assert.deepEqual(actixPorts, alone.ports);
  assert.ok(actixPorts.every((p) => p.ref.detail.framework === "actix-web"));
  assert.equal(actixPorts.length, 8);
});

Deno.test("rustExtractor never rejects on malformed Rocket input", async () => {
  await assertRobust(rustExtractor, "main.rs", [
    "#[macro_use] extern crate rocket;",
    "use rocket::get;",
    '#[get("/a/<id>")]',
    '#[route(GET, uri = "/b")]',
    "fn h() {}",
    "fn r() -> _ {",
    "rocket::build()",
    '.mount("/api", routes![h, m::h])',
    "routes![h]",
    "}",
    '"',
    "(",
    ")",
    "\n",
  ]);
});
