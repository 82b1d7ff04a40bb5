// Ruby extractor: Rails routes (`config/routes.rb`: verbs, `resources`,
// `namespace`, `scope`, nesting, member/collection, concerns, `draw`,
// mounted engines and Rack apps, Devise and Doorkeeper), Hanami, Grape,
// Padrino, Roda, WEBrick and Sinatra routes, and Net::HTTP / Faraday /
// HTTParty client calls.
import type {
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import { settleConstants, type Value } from "../_value/mod.ts";
import { twoPasses } from "../_syntax/passes.ts";
import { collectConstants, RubyFile } from "./project.ts";
import { extractRails } from "./rails.ts";
import { extractHanami } from "./hanami.ts";
import { extractGrape } from "./grape.ts";
import { extractPadrino } from "./padrino.ts";
import { extractWebrick } from "./webrick.ts";
import type { RubyScan } from "./route_files.ts";

/**
 * Extracts Ruby routes and HTTP client calls.
 *
 * Rails (files with `routes.draw`): `get/post/put/patch/delete "/x"` (also
 * `get :x`, `get "x" => "c#a"`), `match ..., via:` (`:all` → `ANY`),
 * `root`, `resources`/`resource` (the RESTful routes; `only:`/`except:`,
 * `path:`), nested resources (`/posts/:post_id/comments`), `member` and
 * `collection` blocks (or `on:`), `namespace :api` and `scope "/v1"`
 * prefixes; optional segments like `(.:format)` are dropped; `scope
 * module:`/`controller:` and `constraints` blocks keep the path. Route
 * concerns (`concern :commentable do ... end`) expand under each resource
 * using them (`concerns: :commentable`, `concerns :commentable`);
 * `draw(:admin)` reads `config/routes/admin.rb` inside the current scopes;
 * `mount Api::Engine, at: "/api"` puts the engine's own routes (its
 * `Api::Engine.routes.draw` in the scan) under the mount path, while any
 * other mounted Rack app (`mount Sidekiq::Web => "/sidekiq"`) is two ports
 * at confidence 0.6: `ANY /sidekiq` and `ANY /sidekiq/*` (key `ANY
 * /sidekiq/{}`). Sinatra (files
 * that `require "sinatra"` or subclass `Sinatra::Base`): `get "/x" do`, with
 * sinatra-contrib `namespace` prefixes and `route :get, :post, "/x"`. Rails
 * also: `if`/`unless` branches, literal-list loops, `new` blocks, the QUERY
 * verb, Devise `devise_for` and Doorkeeper `use_doorkeeper`. Hanami
 * (`Hanami::Routes` classes and Hanami 1 application route files), Grape
 * (`Grape::API` classes, `prefix`, path `version`, namespaces, `mount`),
 * Padrino (applications and `App.controllers`, `config/apps.rb` mounts),
 * Roda (`route do |r|` trees) and WEBrick (`mount_proc`, servlets). Files
 * under `test/` and `spec/` are not read for server routes. Clients: `Net::HTTP.get/post(URI)`,
 * `Net::HTTP::Post.new(path)`, `http.get(path)` on `Net::HTTP.new/start`
 * objects, Faraday connections (`Faraday.new(url: base)`, base path
 * prepended) and `Faraday.get`/`HTTParty.get` with full URLs.
 *
 * @example Usage
 * ```ts
 * import { rubyExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `Rails.application.routes.draw do
 *   namespace :api do
 *     resources :users, only: [:show]
 *   end
 * end`;
 * const { ports } = await rubyExtractor.extract([{ path: "config/routes.rb", text }]);
 * assert.equal(ports[0]?.ref.key, "GET /api/users/{}");
 * ```
 */
export const rubyExtractor: LanguageExtractor = {
  name: "ruby",
  accepts(path: string): boolean {
    return path.endsWith(".rb");
  },
  async extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const constants = new Map<string, Value>();
    const result = await twoPasses(
      files,
      "ruby",
      (file) => /^\s*[A-Z]\w*\s*=/m.test(file.text),
      (root) => collectConstants(root, constants),
      (file, root, ports, trees) =>
        new RubyFile(file, constants, ports, undefined, trees).run(root),
      () => settleConstants(constants),
    );
    await extractRails(files, constants, result.ports, result.diagnostics);
    const scan: RubyScan = {
      files,
      constants,
      ports: result.ports,
      diagnostics: result.diagnostics,
    };
    const parts = [extractHanami, extractGrape, extractPadrino, extractWebrick];
    for (const part of parts) await part(scan);
    return result;
  },
};
