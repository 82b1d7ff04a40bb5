import assert from "node:assert/strict";
import { rubyExtractor } from "../../../src/extract/ruby/mod.ts";
import { grapeClasses } from "../../../src/extract/ruby/grape.ts";
import { portAt, summarize } from "../_fixtures.ts";

const BASE = "module Shop\n  class Base < Grape::API\n  end\nend\n";

const ROOT = [
  "module Shop",
  "  class Root < ::Shop::Base",
  "    prefix :api",
  '    version "v1", using: :path',
  "    mount ::Shop::Orders",
  '    mount Shop::Admin => "/admin"',
  "  end",
  "end",
].join("\n");

const ORDERS = [
  "module Shop",
  "  class Orders < Shop::Base",
  "    resource :orders do",
  "      get do",
  "      end",
  "      route_param :id do",
  "        get do",
  "        end",
  '        put "items/:item_id" do',
  "        end",
  "      end",
  '      route :any, "hook" do',
  "      end",
  "    end",
  '    version "v2", using: :header, vendor: "shop"',
  "    namespace :status do",
  "      get :ping do",
  "      end",
  "    end",
  "    helpers do",
  "      def get(x) = x",
  "    end",
  "  end",
  "end",
].join("\n");

const ADMIN = [
  "class Admin < Shop::Base",
  '  version "v9"',
  "  delete :cache do",
  "  end",
  "end",
  "class Client",
  '  get "/not/a/route" do',
  "  end",
  "end",
].join("\n");

Deno.test("rubyExtractor reads Grape APIs with prefix, version, namespaces and mounts", async () => {
  const { ports, diagnostics } = await rubyExtractor.extract([
    { path: "api/base.rb", text: BASE },
    { path: "api/root.rb", text: ROOT },
    { path: "api/orders.rb", text: ORDERS },
    { path: "api/admin.rb", text: ADMIN },
    { path: "spec/support/fake_api.rb", text: ADMIN.replace("Admin", "Fake") },
  ]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summarize(ports), [
    "api/admin.rb:3 server DELETE /api/v1/admin/v9/cache",
    "api/orders.rb:4 server GET /api/v1/orders",
    "api/orders.rb:7 server GET /api/v1/orders/{}",
    "api/orders.rb:9 server PUT /api/v1/orders/{}/items/{}",
    "api/orders.rb:12 server ANY /api/v1/orders/hook",
    // a header version adds no segment
    "api/orders.rb:17 server GET /api/v1/status/ping",
  ]);
  assert.equal(portAt(ports, "orders.rb", 4)!.ref.detail.framework, "grape");
});

Deno.test("rubyExtractor reads a Grape API mounted nowhere at the root", async () => {
  const { ports } = await rubyExtractor.extract([
    { path: "api/base.rb", text: BASE },
    { path: "api/admin.rb", text: ADMIN },
  ]);
  assert.deepEqual(summarize(ports), [
    "api/admin.rb:3 server DELETE /v9/cache",
  ]);
});

Deno.test("grapeClasses follows superclasses to Grape::API and stops at cycles", () => {
  const classes = grapeClasses([
    BASE,
    ROOT,
    "class A < B\nend\nclass B < A\nend\nclass C < Object\nend",
  ]);
  assert.deepEqual([...classes].sort(), ["Base", "Root"]);
});

Deno.test("rubyExtractor bounds Grape mounts that fan out at every level", async () => {
  const classes: string[] = [];
  for (let k = 0; k < 40; k++) {
    const body = k === 0
      ? '  get "/leaf" do\n  end'
      : `  mount A${k - 1}\n  mount A${k - 1}`;
    classes.push(`class A${k} < Grape::API\n${body}\nend`);
  }
  const started = performance.now();
  const { ports } = await rubyExtractor.extract([
    { path: "api.rb", text: classes.join("\n") },
  ]);
  assert.ok(performance.now() - started < 10_000);
  assert.ok(ports.length > 0 && ports.length <= 10_000);
  assert.ok(ports.every((p) => p.ref.key === "GET /leaf"));
});
