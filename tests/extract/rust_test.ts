import assert from "node:assert/strict";
import { rustExtractor } from "../../src/extract/rust.ts";
import {
  assertRobust,
  loadFixture,
  only,
  portAt,
  summarize,
} from "./_fixtures.ts";

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
