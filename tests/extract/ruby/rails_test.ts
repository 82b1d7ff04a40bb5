import assert from "node:assert/strict";
import { rubyExtractor } from "../../../src/extract/ruby/mod.ts";
import { summarize } from "../_fixtures.ts";

async function routes(body: string[]): Promise<string[]> {
  const text = ["Rails.application.routes.draw do", ...body, "end"].join("\n");
  const { ports } = await rubyExtractor.extract([
    { path: "config/routes.rb", text },
  ]);
  return summarize(ports);
}

Deno.test("rubyExtractor reads Rails routes in every branch of a conditional", async () => {
  assert.deepEqual(
    await routes([
      "  namespace :admin do",
      "    if Rails.env.test?",
      '      get "debug/echo", to: "m#h"',
      "    elsif Rails.env.development?",
      '      get "dev/echo", to: "m#h"',
      "    else",
      '      post "echo", to: "m#h"',
      "    end",
      '    get "after", to: "m#h"',
      "  end",
      '  get "flag", to: "m#h" unless ENV["OFF"]',
    ]),
    [
      "config/routes.rb:4 server GET /admin/debug/echo",
      "config/routes.rb:6 server GET /admin/dev/echo",
      "config/routes.rb:8 server POST /admin/echo",
      "config/routes.rb:10 server GET /admin/after",
      "config/routes.rb:12 server GET /flag",
    ],
  );
});

Deno.test("rubyExtractor unrolls Rails routes in a loop over a literal list only", async () => {
  assert.deepEqual(
    await routes([
      "  %w[browse annotate].each do |action|",
      '    get "repo/:id/#{action}", to: "repo##{action}"',
      "  end",
      '  [:a, "b"].each { |x| post "x/#{x}" }',
      "  names.each do |name|",
      '    get "unknown/#{name}"',
      "  end",
      "  %w[a b].map do |name|",
      '    get "mapped/#{name}"',
      "  end",
      '  get "after"',
    ]),
    [
      "config/routes.rb:3 server GET /repo/{}/annotate",
      "config/routes.rb:3 server GET /repo/{}/browse",
      "config/routes.rb:5 server POST /x/a",
      "config/routes.rb:5 server POST /x/b",
      "config/routes.rb:12 server GET /after",
    ],
  );
});

Deno.test("rubyExtractor reads Rails `new` blocks and the QUERY verb", async () => {
  assert.deepEqual(
    await routes([
      "  resources :refunds, only: [] do",
      "    new do",
      "      get :template",
      "    end",
      "    member do",
      "      query :search",
      "    end",
      "  end",
      '  query "find", to: "p#i"',
      '  match "filter", to: "p#i", via: :query',
      '  match "both", to: "p#i", via: [:get, :query]',
      '  match "legacy", to: "p#i", via: "post"',
      '  match "bogus", to: "p#i", via: :fetch',
    ]),
    [
      "config/routes.rb:4 server GET /refunds/new/template",
      "config/routes.rb:7 server QUERY /refunds/{}/search",
      "config/routes.rb:10 server QUERY /find",
      "config/routes.rb:11 server QUERY /filter",
      "config/routes.rb:12 server GET /both",
      "config/routes.rb:12 server QUERY /both",
      "config/routes.rb:13 server POST /legacy",
    ],
  );
});

Deno.test("rubyExtractor reads no Rails routes of a test folder's dummy app", async () => {
  const text = 'Rails.application.routes.draw do\n  get "/dummy"\nend\n';
  const { ports } = await rubyExtractor.extract([
    { path: "spec/dummy/config/routes.rb", text },
    { path: "test/dummy/config/routes.rb", text },
    { path: "config/routes.rb", text },
  ]);
  assert.deepEqual(summarize(ports), ["config/routes.rb:2 server GET /dummy"]);
});

Deno.test("rubyExtractor unrolls at most two nested literal loops", async () => {
  assert.deepEqual(
    await routes([
      "  %w[a b].each do |x|",
      "    %w[c d].each do |y|",
      '      get "#{x}/#{y}"',
      "      %w[e f].each do |z|",
      '        get "#{x}/#{y}/#{z}"',
      "      end",
      "    end",
      "  end",
    ]),
    [
      "config/routes.rb:4 server GET /a/c",
      "config/routes.rb:4 server GET /a/d",
      "config/routes.rb:4 server GET /b/c",
      "config/routes.rb:4 server GET /b/d",
    ],
  );
});
