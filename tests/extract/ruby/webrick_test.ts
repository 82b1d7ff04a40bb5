import assert from "node:assert/strict";
import { rubyExtractor } from "../../../src/extract/ruby/mod.ts";
import { portAt, summarize } from "../_fixtures.ts";

const SERVER = [
  'require "webrick"',
  "server = WEBrick::HTTPServer.new(Port: 8080)",
  'server.mount_proc "/" do |req, res|',
  '  res.body = "root"',
  "end",
  'server.mount_proc "/users" do |req, res|',
  "  case req.request_method",
  '  when "GET", "HEAD"',
  "    list",
  '  when "POST"',
  "    create",
  "  end",
  "end",
  'server.mount_proc "/health" do |req, res|',
  '  res.body = "ok" if req.request_method == "GET"',
  "end",
  'server.mount "/items", Shop::ItemServlet',
  'server.mount "/static", WEBrick::HTTPServlet::FileHandler, "/var/www"',
  "server.start",
].join("\n");

const SERVLET = [
  "module Shop",
  "  class ItemServlet < WEBrick::HTTPServlet::AbstractServlet",
  "    def do_GET(req, res) = nil",
  "    def do_DELETE(req, res) = nil",
  "    def helper = nil",
  "  end",
  "end",
].join("\n");

Deno.test("rubyExtractor reads WEBrick mount_proc handlers and servlets", async () => {
  const { ports, diagnostics } = await rubyExtractor.extract([
    { path: "server.rb", text: SERVER },
    { path: "lib/item_servlet.rb", text: SERVLET },
    { path: "spec/support/fake.rb", text: SERVER.replace("/users", "/fake") },
  ]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summarize(ports), [
    "server.rb:3 server ANY /",
    "server.rb:6 server GET /users",
    "server.rb:6 server HEAD /users",
    "server.rb:6 server POST /users",
    "server.rb:14 server GET /health",
    "server.rb:17 server DELETE /items",
    "server.rb:17 server GET /items",
  ]);
  assert.equal(portAt(ports, "server.rb", 17)!.ref.detail.framework, "webrick");
});
