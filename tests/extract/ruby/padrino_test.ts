import assert from "node:assert/strict";
import { rubyExtractor } from "../../../src/extract/ruby/mod.ts";
import { padrinoMounts } from "../../../src/extract/ruby/padrino.ts";
import { portAt, summarize } from "../_fixtures.ts";

const APP = [
  "module Blog",
  "  class Admin < Padrino::Application",
  '    get "/dashboard" do',
  "    end",
  "    get :index do",
  "    end",
  "    controllers :reports do",
  "      get :show, with: [:year, :month] do",
  "      end",
  "    end",
  "  end",
  "end",
].join("\n");

const CONTROLLER = [
  "Admin.controllers :users do",
  "  get :index do",
  "  end",
  '  get :profile, map: "/people/:id" do',
  "  end",
  '  post "/invite" do',
  "  end",
  "end",
  "Admin.controllers :notes, parent: :user do",
  "  delete :destroy, with: :id do",
  "  end",
  "end",
  "Other.controllers :ghosts do",
  "  get :index do",
  "  end",
  "end",
].join("\n");

const APPS = [
  'Padrino.mount("blog_admin", app_class: "Blog::Admin").to("/admin")',
  'Padrino.mount("blog_admin", app_class: "Blog::Admin").to("/staff")',
].join("\n");

Deno.test("rubyExtractor reads Padrino apps and controllers under their mounts", async () => {
  const { ports, diagnostics } = await rubyExtractor.extract([
    { path: "app/admin/app.rb", text: APP },
    { path: "app/admin/controllers/users.rb", text: CONTROLLER },
    { path: "config/apps.rb", text: APPS },
  ]);
  assert.deepEqual(diagnostics, []);
  const paths = summarize(ports).filter((p) => !p.includes("/staff"));
  assert.deepEqual(paths, [
    "app/admin/app.rb:3 server GET /admin/dashboard",
    "app/admin/app.rb:5 server GET /admin",
    "app/admin/app.rb:8 server GET /admin/reports/show/{}/{}",
    "app/admin/controllers/users.rb:2 server GET /admin/users",
    "app/admin/controllers/users.rb:4 server GET /admin/people/{}",
    "app/admin/controllers/users.rb:6 server POST /admin/users/invite",
    "app/admin/controllers/users.rb:10 server DELETE /admin/user/{}/notes/destroy/{}",
  ]);
  assert.equal(summarize(ports).length, 2 * paths.length);
  assert.equal(portAt(ports, "app.rb", 3)!.ref.detail.framework, "padrino");
});

Deno.test("rubyExtractor reads a Padrino app mounted nowhere at the root", async () => {
  const { ports } = await rubyExtractor.extract([
    { path: "app/admin/app.rb", text: APP },
  ]);
  assert.deepEqual(summarize(ports), [
    "app/admin/app.rb:3 server GET /dashboard",
    "app/admin/app.rb:5 server GET /",
    "app/admin/app.rb:8 server GET /reports/show/{}/{}",
  ]);
});

Deno.test("padrinoMounts names the mounted class", () => {
  const mounts = padrinoMounts([
    "Padrino.mount('core', app_class: 'CoreApp').to('/')\n" +
    "Padrino.mount('blog_admin').to('/admin')",
  ]);
  assert.deepEqual([...mounts], [["CoreApp", ["/"]], ["BlogAdmin", [
    "/admin",
  ]]]);
});
