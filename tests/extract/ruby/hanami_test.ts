import assert from "node:assert/strict";
import { rubyExtractor } from "../../../src/extract/ruby/mod.ts";
import { snakeCase } from "../../../src/extract/ruby/hanami.ts";
import { portAt, summarize } from "../_fixtures.ts";

Deno.test("rubyExtractor reads Hanami 2 routes with slices, scopes and resources", async () => {
  const text = [
    "module Shop",
    "  class Routes < Hanami::Routes",
    '    root to: "home.show"',
    '    get "/books/:id", to: "books.show"',
    '    scope "/api" do',
    '      post "/orders", to: "orders.create"',
    "    end",
    '    slice :admin, at: "/admin" do',
    "      resources :cafes, only: %i[show update] do",
    "        resources :reviews, only: %i[create]",
    "      end",
    "      resource :account, only: %i[show]",
    "    end",
    '    mount Sidekiq::Web, at: "/jobs"',
    "  end",
    "end",
    "class NotRoutes < Base",
    '  get "/not/a/route", to: "x.y"',
    "end",
  ].join("\n");
  const { ports, diagnostics } = await rubyExtractor.extract([
    { path: "config/routes.rb", text },
  ]);
  assert.deepEqual(diagnostics, []);
  const f = "config/routes.rb";
  assert.deepEqual(summarize(ports), [
    `${f}:3 server GET /`,
    `${f}:4 server GET /books/{}`,
    `${f}:6 server POST /api/orders`,
    // `update` is PATCH only in Hanami
    `${f}:9 server GET /admin/cafes/{}`,
    `${f}:9 server PATCH /admin/cafes/{}`,
    `${f}:10 server POST /admin/cafes/{}/reviews`,
    `${f}:12 server GET /admin/account`,
    `${f}:14 server ANY /jobs`,
    `${f}:14 server ANY /jobs/{}`,
  ]);
  assert.equal(portAt(ports, "routes.rb", 4)!.ref.detail.framework, "hanami");
  assert.equal(portAt(ports, "routes.rb", 4)!.ref.confidence, 1);
});

Deno.test("rubyExtractor reads Hanami 1 application routes under their mount", async () => {
  const routes = [
    'namespace "users" do',
    '  post "/login", to: "users#login"',
    "end",
    'get "/status", to: "status#show"',
  ].join("\n");
  const environment = [
    "Hanami.configure do",
    '  mount AdminPanel::Application, at: "/admin"',
    '  mount Web::Application, at: "/"',
    "end",
  ].join("\n");
  const files = [
    { path: "apps/admin_panel/config/routes.rb", text: routes },
    { path: "apps/web/config/routes.rb", text: routes },
    { path: "config/environment.rb", text: environment },
    // not an application's route file
    { path: "lib/apps/config/routes.rb", text: routes },
  ];
  const { ports } = await rubyExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    "apps/admin_panel/config/routes.rb:2 server POST /admin/users/login",
    "apps/admin_panel/config/routes.rb:4 server GET /admin/status",
    "apps/web/config/routes.rb:2 server POST /users/login",
    "apps/web/config/routes.rb:4 server GET /status",
  ]);
  // without the environment, an application is read at the root
  const alone = await rubyExtractor.extract(files.slice(0, 1));
  assert.deepEqual(summarize(alone.ports), [
    "apps/admin_panel/config/routes.rb:2 server POST /users/login",
    "apps/admin_panel/config/routes.rb:4 server GET /status",
  ]);
});

Deno.test("snakeCase names a Hanami 1 application's folder", () => {
  assert.equal(snakeCase("Api"), "api");
  assert.equal(snakeCase("AdminPanel"), "admin_panel");
  assert.equal(snakeCase("V2Api"), "v2_api");
});
