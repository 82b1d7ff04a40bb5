// Rust extractor: axum routers (`.route(path, get(h).post(h2))`, `.nest`,
// `.merge`), actix-web (`#[get("/x")]` handlers, `web::resource`,
// `web::scope`, `.service`, `.configure`), Rocket (`#[get("/x")]` handlers
// mounted with `.mount("/api", routes![...])`), rwf, tide, gotham, salvo,
// warp, poem and Loco routers, and reqwest/awc clients.
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import type { Value } from "../_value/mod.ts";
import { eachFile, syntaxWarning } from "../_syntax/passes.ts";
import { parseSource } from "../_syntax/parser.ts";
import { macroTrees } from "./macro_trees.ts";
import {
  collectConstants,
  type RustFile,
  RustScan,
  usedCrates,
} from "./project.ts";

/**
 * Extracts axum and actix-web routes and reqwest/awc calls from Rust files.
 *
 * axum: `.route("/x", get(h).post(h2))` (`any` → `ANY`, `on(MethodFilter::X)`),
 * prefixes from `.nest("/api", router)` followed through method chains,
 * `let` bindings and functions returning routers, across files. actix-web:
 * `#[get("/x")]`/`#[route("/x", method = "GET")]` handlers (in files that
 * use `actix_web`), prefixed by the `web::scope("/api")` they are
 * `.service(...)`-registered on (also through `.configure(f)`),
 * `web::resource("/x").route(web::get().to(h))` and `.route("/x",
 * web::post().to(h))`. Rocket: `#[get("/x/<id>")]`, `#[post("/", data =
 * "<d>")]`... and `#[route(GET, uri = "/x")]` handlers (in files or crates
 * that use `rocket`, never in actix-web files), once per `.mount("/api",
 * routes![h, module::h])` that lists them (also through `let` bindings and
 * functions returning `routes!`), `?<query>` parts dropped; a handler no
 * list mounts gets its bare path at confidence 0.8. rwf (`route!`, `crud!`),
 * tide (`app.at(path).get(h)`), gotham (`route.get(path).to(h)`), salvo
 * (`Router::with_path(p).get(h)` trees), warp (filter chains), poem
 * (`Route::new().at(path, get(h))`, `#[oai]`) and Loco (`Routes::new().add`)
 * routes are read in files that use those crates; test code (`#[cfg(test)]`,
 * `tests/`) gives no routes. Clients: `reqwest::get(url)`, and `get/post/...`
 * or `request(Method::X, url)` on receivers built by `reqwest::Client::new()`
 * / `awc::Client::default()` or declared with those types.
 *
 * @example Usage
 * ```ts
 * import { rustExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `use axum::{routing::get, Router};
 * fn app() -> Router {
 *     Router::new().nest("/api", Router::new().route("/users/:id", get(show)))
 * }`;
 * const { ports } = await rustExtractor.extract([{ path: "src/main.rs", text }]);
 * assert.equal(ports[0]?.ref.key, "GET /api/users/{}");
 * ```
 */
export const rustExtractor: LanguageExtractor = {
  name: "rust",
  accepts(path: string): boolean {
    return path.endsWith(".rs");
  },
  async extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const diagnostics: ExtractDiagnostic[] = [];
    const parsed: RustFile[] = [];
    const constants = new Map<string, Value>();
    try {
      await eachFile(files, diagnostics, async (file) => {
        const tree = await parseSource("rust", file.text);
        syntaxWarning(tree.rootNode, file.path, diagnostics);
        collectConstants(tree.rootNode, constants);
        const macros = await macroTrees(tree.rootNode, file.text);
        parsed.push({ file, tree, macros, ...usedCrates(tree.rootNode) });
      });
      const scan = new RustScan(parsed, constants);
      await eachFile(
        parsed.map((p) => ({ ...p, path: p.file.path })),
        diagnostics,
        (f) => {
          scan.run(f);
          return Promise.resolve();
        },
      );
      return { ports: scan.ports, diagnostics };
    } finally {
      for (const p of parsed) {
        p.tree.delete();
        for (const t of p.macros) t.delete();
      }
    }
  },
};
