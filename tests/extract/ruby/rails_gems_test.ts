import assert from "node:assert/strict";
import { rubyExtractor } from "../../../src/extract/ruby/mod.ts";
import { modelClassName } from "../../../src/extract/ruby/rails_gems.ts";
import { portAt, summarize } from "../_fixtures.ts";

const ROUTES = [
  "Rails.application.routes.draw do",
  "  devise_for :users, skip: [:passwords]",
  '  devise_for :admin_users, path: "staff", only: [:sessions],',
  '    path_names: { sign_in: "login" }, sign_out_via: [:get, :delete]',
  "  devise_for :ghosts, skip: :all",
  "  devise_scope :user do",
  '    get "enter", to: "devise/sessions#new"',
  "  end",
  "end",
].join("\n");

const USER = [
  "class User < ApplicationRecord",
  "  devise :database_authenticatable, :confirmable, :recoverable",
  "end",
  "class Post < ApplicationRecord",
  "  devise :registerable",
  "end",
].join("\n");

Deno.test("rubyExtractor draws Devise routes for the modules of the model", async () => {
  const { ports, diagnostics } = await rubyExtractor.extract([
    { path: "config/routes.rb", text: ROUTES },
    { path: "app/models/user.rb", text: USER },
  ]);
  assert.deepEqual(diagnostics, []);
  const r = "config/routes.rb";
  assert.deepEqual(summarize(ports), [
    `${r}:2 server DELETE /users/sign_out`,
    `${r}:2 server GET /users/confirmation`,
    `${r}:2 server GET /users/confirmation/new`,
    `${r}:2 server GET /users/sign_in`,
    `${r}:2 server POST /users/confirmation`,
    `${r}:2 server POST /users/sign_in`,
    // `AdminUser` is not in the scan: the generator's modules, `only:` sessions
    `${r}:3 server DELETE /staff/sign_out`,
    `${r}:3 server GET /staff/login`,
    `${r}:3 server GET /staff/sign_out`,
    `${r}:3 server POST /staff/login`,
    `${r}:7 server GET /enter`,
  ]);
  assert.equal(portAt(ports, "routes.rb", 2)!.ref.confidence, 0.95);
  assert.equal(portAt(ports, "routes.rb", 2)!.ref.detail.gem, "devise");
  assert.equal(portAt(ports, "routes.rb", 3)!.ref.confidence, 0.6);
});

Deno.test("rubyExtractor assumes the Devise generator's modules without the model", async () => {
  const text = [
    "Rails.application.routes.draw do",
    '  scope "/v1" do',
    "    devise_for :users",
    "  end",
    "end",
  ].join("\n");
  const { ports } = await rubyExtractor.extract([
    { path: "config/routes.rb", text },
  ]);
  assert.deepEqual(summarize(ports).map((s) => s.split(" server ")[1]), [
    "DELETE /v1/users",
    "DELETE /v1/users/sign_out",
    "GET /v1/users/cancel",
    "GET /v1/users/edit",
    "GET /v1/users/password/edit",
    "GET /v1/users/password/new",
    "GET /v1/users/sign_in",
    "GET /v1/users/sign_up",
    "PATCH /v1/users",
    "PATCH /v1/users/password",
    "POST /v1/users",
    "POST /v1/users/password",
    "POST /v1/users/sign_in",
    "PUT /v1/users",
    "PUT /v1/users/password",
  ]);
});

Deno.test("rubyExtractor draws Doorkeeper routes less the skipped controllers", async () => {
  const text = [
    "Rails.application.routes.draw do",
    "  use_doorkeeper do",
    '    controllers tokens: "oauth/tokens"',
    "    skip_controllers :applications, :authorized_applications",
    "  end",
    '  use_doorkeeper scope: "api/auth" do',
    "    skip_controllers :authorizations, :tokens, :applications",
    "  end",
    "end",
    "class Other",
    "  def x",
    "    use_doorkeeper",
    "  end",
    "end",
  ].join("\n");
  const { ports } = await rubyExtractor.extract([
    { path: "config/routes.rb", text },
  ]);
  assert.deepEqual(summarize(ports), [
    "config/routes.rb:2 server DELETE /oauth/authorize",
    "config/routes.rb:2 server GET /oauth/authorize",
    "config/routes.rb:2 server GET /oauth/authorize/native",
    "config/routes.rb:2 server GET /oauth/token/info",
    "config/routes.rb:2 server POST /oauth/authorize",
    "config/routes.rb:2 server POST /oauth/introspect",
    "config/routes.rb:2 server POST /oauth/revoke",
    "config/routes.rb:2 server POST /oauth/token",
    "config/routes.rb:6 server DELETE /api/auth/authorized_applications/{}",
    "config/routes.rb:6 server GET /api/auth/authorized_applications",
    "config/routes.rb:6 server GET /api/auth/token/info",
  ]);
});

Deno.test("modelClassName names the model of a Devise resource", () => {
  assert.equal(modelClassName("users"), "User");
  assert.equal(modelClassName("admin_users"), "AdminUser");
  assert.equal(modelClassName("companies"), "Company");
  assert.equal(modelClassName("staff"), "Staff");
});
