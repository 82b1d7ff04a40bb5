import assert from "node:assert/strict";
import { rubyExtractor } from "../../../src/extract/ruby/mod.ts";
import {
  assertRobust,
  loadFixture,
  only,
  portAt,
  summarize,
} from "../_fixtures.ts";

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

Deno.test("rubyExtractor expands Rails concerns, draw files and mounted engines", async () => {
  const { ports, diagnostics } = await rubyExtractor.extract(
    await loadFixture("ruby_rails_more"),
  );
  assert.deepEqual(diagnostics, []);
  const routes = "shop/config/routes.rb";
  const admin = "shop/config/routes/admin.rb";
  const engine = "shop/engines/api/config/routes.rb";
  assert.deepEqual(summarize(ports), [
    // `concern :commentable` (line 3) under each resource that uses it
    `${routes}:3 server GET /albums/{}/comments`,
    `${routes}:3 server GET /photos/{}/comments`,
    `${routes}:3 server GET /posts/{}/comments`,
    `${routes}:3 server POST /albums/{}/comments`,
    `${routes}:3 server POST /photos/{}/comments`,
    `${routes}:3 server POST /posts/{}/comments`,
    `${routes}:7 server POST /photos/{}/archive`,
    `${routes}:10 server GET /posts`,
    `${routes}:10 server GET /posts/{}`,
    `${routes}:11 server GET /photos/{}`,
    // `scope module:` / `controller:` and `constraints` keep the path
    `${routes}:17 server GET /about`,
    `${routes}:20 server GET /terms`,
    `${routes}:23 server GET /status`,
    `${routes}:26 server GET /v2/items`,
    // Rack apps: the mount path and everything below it
    `${routes}:33 server ANY /sidekiq`,
    `${routes}:33 server ANY /sidekiq/{}`,
    `${routes}:36 server ANY /ops/flipper`,
    `${routes}:36 server ANY /ops/flipper/{}`,
    // `draw(:admin)` inside `namespace :admin`
    `${admin}:2 server DELETE /admin/users/{}`,
    `${admin}:2 server GET /admin/users`,
    `${admin}:3 server GET /admin/dashboard`,
    // the engine's own routes under `mount Api::Engine, at: "/api"`
    `${engine}:2 server POST /api/tokens`,
    `${engine}:3 server GET /api/ping`,
  ]);
  const sidekiq = portAt(ports, "config/routes.rb", 33)!;
  assert.equal(sidekiq.ref.confidence, 0.6);
  assert.equal(sidekiq.ref.col, 3);
  assert.equal(sidekiq.ref.detail.mount, "Sidekiq::Web");
  assert.equal(portAt(ports, "config/routes.rb", 17)!.ref.confidence, 1);
  assert.equal(portAt(ports, "api/config/routes.rb", 3)!.ref.confidence, 0.95);
  assert.equal(portAt(ports, "admin.rb", 3)!.ref.detail.framework, "rails");
});

Deno.test("rubyExtractor reads a Rails engine alone at its root, and an unknown engine as a mount", async () => {
  const all = await loadFixture("ruby_rails_more");
  const alone = await rubyExtractor.extract(only(all, "shop/engines/"));
  assert.deepEqual(summarize(alone.ports), [
    "shop/engines/api/config/routes.rb:2 server POST /tokens",
    "shop/engines/api/config/routes.rb:3 server GET /ping",
  ]);
  const app = await rubyExtractor.extract(only(all, "shop/config/"));
  const api = app.ports.filter((p) => p.ref.line === 34);
  assert.deepEqual(summarize(api), [
    "shop/config/routes.rb:34 server ANY /api",
    "shop/config/routes.rb:34 server ANY /api/{}",
  ]);
  assert.equal(api[0]!.ref.confidence, 0.6);
  assert.equal(api[1]!.ref.confidence, 0.6);
  // A route file loaded by `draw` is not a route set of its own.
  const drawn = await rubyExtractor.extract(only(all, "shop/config/routes/"));
  assert.deepEqual(drawn.ports, []);
});

Deno.test("rubyExtractor ignores concern, mount and draw methods outside routes", async () => {
  const all = await loadFixture("ruby_rails_more");
  const files = [...only(all, "shop/app/"), ...only(all, "shop/lib/")];
  assert.equal(files.length, 2);
  const { ports } = await rubyExtractor.extract(files);
  assert.deepEqual(ports, []);
});

Deno.test("rubyExtractor never rejects on malformed concerns, mounts and draws", async () => {
  await assertRobust(rubyExtractor, "config/routes.rb", [
    "Rails.application.routes.draw do\n",
    "Api::Engine.routes.draw do\n",
    "end\n",
    "concern :c do\n",
    "concerns :c\n",
    "resources :posts, concerns: [:c]\n",
    "draw(:routes)\n",
    'mount Api::Engine, at: "/api"\n',
    'mount Sidekiq::Web => "/s"\n',
    "mount\n",
    '"',
    "do ",
  ]);
});

Deno.test("rubyExtractor reads a RouteSet drawn through a local variable", async () => {
  const text = [
    "routes = ActionDispatch::Routing::RouteSet.new",
    "routes.draw do",
    '  get "/ping", to: "ping#show"',
    "end",
    'painter.draw { get "/not/a/route" }',
  ].join("\n");
  const { ports } = await rubyExtractor.extract([{ path: "lib/r.rb", text }]);
  assert.deepEqual(summarize(ports), ["lib/r.rb:3 server GET /ping"]);
});

Deno.test("rubyExtractor reads Sinatra MultiRoute `route` with its verbs", async () => {
  const text = [
    'require "sinatra"',
    'namespace "/api" do',
    '  route :get, :post, "/widgets" do',
    "  end",
    '  route "PUT", "/items/:id" do',
    "  end",
    '  route :fetch, "/nope" do',
    "  end",
    '  route "/no-verb" do',
    "  end",
    "end",
  ].join("\n");
  const { ports } = await rubyExtractor.extract([{ path: "app.rb", text }]);
  assert.deepEqual(summarize(ports), [
    "app.rb:3 server GET /api/widgets",
    "app.rb:3 server POST /api/widgets",
    "app.rb:5 server PUT /api/items/{}",
  ]);
});

Deno.test("rubyExtractor reads no Sinatra routes in Minitest and RSpec files", async () => {
  const text = [
    'require "sinatra/base"',
    "class TestApp < Sinatra::Base",
    '  get "/only-in-tests" do',
    "  end",
    "end",
  ].join("\n");
  for (const path of ["test/app_test.rb", "spec/app_spec.rb"]) {
    const { ports } = await rubyExtractor.extract([{ path, text }]);
    assert.deepEqual(ports, [], path);
  }
  const { ports } = await rubyExtractor.extract([{ path: "app.rb", text }]);
  assert.deepEqual(summarize(ports), ["app.rb:3 server GET /only-in-tests"]);
});

Deno.test("rubyExtractor never rejects on malformed Hanami, Grape, Padrino, Roda and WEBrick input", async () => {
  await assertRobust(rubyExtractor, "apps/web/config/routes.rb", [
    "class Routes < Hanami::Routes\n",
    "class Api < Grape::API\n",
    "class App < Padrino::Application\n",
    "class R < Roda\n",
    "route do |r|\n",
    'r.on "x" do\n',
    "r.is Integer do\n",
    "r.get\n",
    "resource :users do\n",
    "route_param :id do\n",
    'version "v1"\n',
    "mount Api\n",
    "App.controllers :posts do\n",
    "get :index, with: :id do\n",
    'server.mount_proc "/x" do |req, res|\n',
    'when "GET"\n',
    "%w[a b].each do |x|\n",
    'get "#{x}"\n',
    "devise_for :users\n",
    "use_doorkeeper\n",
    "if x\n",
    "end\n",
    '"',
    "do ",
  ]);
});
