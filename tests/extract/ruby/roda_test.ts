import assert from "node:assert/strict";
import { rubyExtractor } from "../../../src/extract/ruby/mod.ts";
import { portAt, summarize } from "../_fixtures.ts";

const APP = [
  'require "roda"',
  "class App < Roda",
  "  plugin :all_verbs",
  "  route do |req|",
  "    req.root do",
  '      "home"',
  "    end",
  '    req.on "users" do',
  "      req.get do",
  "      end",
  '      req.on :id, param: "x" do',
  "        if admin?",
  '          req.patch "toggle" do',
  "          end",
  "        end",
  "        req.delete { }",
  "      end",
  "    end",
  '    req.is "projects", Integer do |id|',
  "      req.get do",
  "      end",
  "      req.post do",
  "      end",
  "    end",
  '    req.is "ping" do',
  '      "pong"',
  "    end",
  '    req.get "files", /(\\w+)/ do |name|',
  "    end",
  '    other.get "not/a/route"',
  "  end",
  "end",
  "class Helper",
  "  def route",
  '    r.get "nope"',
  "  end",
  "end",
].join("\n");

Deno.test("rubyExtractor composes a Roda routing tree", async () => {
  const { ports, diagnostics } = await rubyExtractor.extract([
    { path: "app.rb", text: APP },
  ]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summarize(ports), [
    "app.rb:5 server GET /",
    "app.rb:9 server GET /users",
    "app.rb:13 server PATCH /users/{}/toggle",
    "app.rb:16 server DELETE /users/{}",
    "app.rb:20 server GET /projects/{}",
    "app.rb:22 server POST /projects/{}",
    // an `r.is` without verbs answers every method
    "app.rb:25 server ANY /ping",
    "app.rb:28 server GET /files/{}",
  ]);
  assert.equal(portAt(ports, "app.rb", 9)!.ref.detail.framework, "roda");
  assert.equal(portAt(ports, "app.rb", 25)!.ref.confidence, 1);
  assert.equal(portAt(ports, "app.rb", 9)!.ref.confidence, 0.95);
});

Deno.test("rubyExtractor reads no Roda routes outside a Roda app", async () => {
  const text = APP.replace('require "roda"\n', "").replace(" < Roda", "");
  const { ports } = await rubyExtractor.extract([{ path: "app.rb", text }]);
  assert.deepEqual(ports, []);
});

Deno.test("rubyExtractor reads Roda multi_route and hash_branch blocks under their branch", async () => {
  const text = [
    "class App < Roda",
    "  plugin :multi_route",
    "  plugin :hash_branches",
    '  route("users") do |r|',
    "    r.get Integer do |id|",
    "    end",
    "  end",
    "  hash_branch(:admin) do |r|",
    '    r.post "flush" do',
    "    end",
    "  end",
    "  route do |r|",
    "    r.multi_route",
    "    r.hash_branches",
    "  end",
    "end",
    'App.route("posts") do |r|',
    "  r.root { }",
    "end",
  ].join("\n");
  const { ports } = await rubyExtractor.extract([{ path: "app.rb", text }]);
  assert.deepEqual(summarize(ports), [
    "app.rb:5 server GET /users/{}",
    "app.rb:9 server POST /admin/flush",
    "app.rb:18 server GET /posts",
  ]);
});
