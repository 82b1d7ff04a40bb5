import assert from "node:assert/strict";
import { rubyExtractor } from "../../../src/extract/ruby/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("rubyExtractor follows a client wrapper's path parameter to the services that call it", async () => {
  const { ports } = await rubyExtractor.extract([
    {
      path: "lib/api_client.rb",
      text: [
        'require "faraday"',
        "class ApiClient",
        '  BASE = "http://orders-svc"',
        '  V1 = "#{BASE}/v1"',
        "  def initialize",
        "    @conn = Faraday.new(url: V1)",
        "  end",
        "  def post(path, body = nil)",
        "    @conn.post(path, body)",
        "  end",
        "end",
      ].join("\n"),
    },
    {
      path: "app/services/order_service.rb",
      text: [
        "class OrderService",
        "  def initialize",
        "    @api = ApiClient.new",
        "  end",
        "  def place(order)",
        '    @api.post("orders", order)',
        "  end",
        "  def cancel(id)",
        '    @api.post("orders/#{id}/cancel")',
        "  end",
        "end",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "app/services/order_service.rb:6 client POST /v1/orders 0.95",
    "app/services/order_service.rb:9 client POST /v1/orders/{}/cancel 0.8",
  ]);
});

Deno.test("rubyExtractor prefixes Sinatra routes with a constant built from another file's constant", async () => {
  const { ports } = await rubyExtractor.extract([
    {
      path: "config/paths.rb",
      text: 'API = "/api"\nAPI_V2 = API + "/v2"\n',
    },
    {
      path: "app.rb",
      text: [
        'require "sinatra"',
        'require "sinatra/namespace"',
        "namespace API_V2 do",
        '  get "/users/:id" do',
        "  end",
        "end",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "app.rb:4 server GET /api/v2/users/{} 0.95",
  ]);
});

Deno.test("rubyExtractor draws a routes file under the scope that draws it", async () => {
  const { ports } = await rubyExtractor.extract([
    {
      path: "config/routes.rb",
      text: [
        "Rails.application.routes.draw do",
        "  scope path: '/admin' do",
        "    draw :reports",
        "  end",
        "end",
      ].join("\n"),
    },
    {
      path: "config/routes/reports.rb",
      text: "get '/reports/daily', to: 'reports#daily'\n",
    },
  ]);
  assert.deepEqual(summary(ports), [
    "config/routes/reports.rb:1 server GET /admin/reports/daily 0.95",
  ]);
});
