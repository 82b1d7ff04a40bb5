import assert from "node:assert/strict";
import { rubyExtractor } from "../../src/extract/ruby.ts";
import {
  assertRobust,
  loadFixture,
  only,
  portAt,
  summarize,
} from "./_fixtures.ts";

Deno.test("rubyExtractor expands Rails routes, resources, namespaces and scopes", async () => {
  const files = only(await loadFixture("ruby"), "rails_app/config/");
  const { ports, diagnostics } = await rubyExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  const file = "rails_app/config/routes.rb";
  assert.deepEqual(summarize(ports), [
    `${file}:2 server GET /`,
    `${file}:3 server GET /health`,
    `${file}:4 server GET /status`,
    `${file}:5 server GET /webhooks/{}`,
    `${file}:5 server POST /webhooks/{}`,
    `${file}:9 server GET /api/v1/users`,
    `${file}:9 server GET /api/v1/users/{}`,
    `${file}:9 server POST /api/v1/users`,
    `${file}:10 server GET /api/v1/users/{}/posts`,
    `${file}:12 server POST /api/v1/users/{}/activate`,
    `${file}:15 server GET /api/v1/users/search`,
    `${file}:18 server GET /api/v1/profile`,
    `${file}:18 server PATCH /api/v1/profile`,
    `${file}:18 server POST /api/v1/profile`,
    `${file}:18 server PUT /api/v1/profile`,
    `${file}:19 server DELETE /api/v1/sessions/{}`,
  ]);
  assert.equal(portAt(ports, "routes.rb", 3)!.ref.confidence, 1);
  assert.equal(portAt(ports, "routes.rb", 9)!.ref.confidence, 0.95);
  assert.equal(portAt(ports, "routes.rb", 9)!.ref.col, 7);
  assert.equal(portAt(ports, "routes.rb", 9)!.ref.detail.framework, "rails");
});

Deno.test("rubyExtractor finds Sinatra routes with namespace prefixes", async () => {
  const files = only(await loadFixture("ruby"), "sinatra_app/");
  const { ports } = await rubyExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    "sinatra_app/app.rb:7 server GET /",
    "sinatra_app/app.rb:12 server POST /api/items",
    "sinatra_app/app.rb:16 server DELETE /api/items/{}",
  ]);
  assert.equal(
    portAt(ports, "app.rb", 12)!.owner.qualifiedName,
    "sinatra_app/app.rb::App",
  );
});

Deno.test("rubyExtractor finds Faraday and Net::HTTP calls, not look-alikes", async () => {
  const files = only(await loadFixture("ruby"), "rails_app/app/");
  const { ports } = await rubyExtractor.extract(files);
  const file = "rails_app/app/services/orders_client.rb";
  assert.deepEqual(summarize(ports), [
    `${file}:12 client GET /api/v1/orders/{}`,
    `${file}:16 client POST /api/v1/orders`,
    `${file}:21 client GET /legacy/orders/{}`,
    `${file}:22 client DELETE /legacy/orders/{}`,
    `${file}:24 client GET /legacy/health`,
  ]);
  assert.equal(portAt(ports, "orders_client.rb", 16)!.ref.confidence, 1);
  assert.equal(
    portAt(ports, "orders_client.rb", 12)!.owner.qualifiedName,
    `${file}::OrdersClient.find`,
  );
  // Nothing from the `lookalikes` method (lines 28-33).
  assert.ok(ports.every((p) => p.ref.line < 28));
});

Deno.test("rubyExtractor never rejects on malformed input", async () => {
  await assertRobust(rubyExtractor, "routes.rb", [
    "Rails.application.routes.draw do\n",
    "end\n",
    "namespace :api do\n",
    "resources :users\n",
    'get "/x", to: "a#b"\n',
    'Net::HTTP.get(URI("http://h/y"))\n',
    '"',
    "do ",
    "\n",
  ]);
});
