import assert from "node:assert/strict";
import { rustExtractor } from "../../../src/extract/rust/mod.ts";
import { summarize } from "../_fixtures.ts";

const MAIN = `use salvo::prelude::*;
mod routes;

fn app() -> Router {
    let books = Router::with_path("books")
        .get(list_books)
        .push(Router::with_path("<id>").get(show_book).delete(drop_book));
    Router::new()
        .path("/v1")
        .push(books)
        .push(routes::admin()) // mounted under /v1
        .push(Router::with_path("ws").goal(socket))
}
`;
const ROUTES = `use salvo::prelude::*;

pub fn admin() -> Router {
    Router::new()
        .path("admin")
        .hoop(check_admin) // middleware only
        .post(reindex)
}

fn not_mounted_list() -> Vec<&'static str> {
    let mut v = Vec::new();
    v.push("/not-a-route");
    v
}
`;

Deno.test("rustExtractor composes salvo router trees across lets, functions and files", async () => {
  const { ports } = await rustExtractor.extract([
    { path: "src/main.rs", text: MAIN },
    { path: "src/routes.rs", text: ROUTES },
  ]);
  assert.deepEqual(summarize(ports), [
    "src/main.rs:6 server GET /v1/books",
    "src/main.rs:7 server DELETE /v1/books/{}",
    "src/main.rs:7 server GET /v1/books/{}",
    "src/main.rs:12 server ANY /v1/ws",
    "src/routes.rs:7 server POST /v1/admin",
  ]);
});

Deno.test("rustExtractor reads no salvo routes in files that do not use salvo", async () => {
  const { ports } = await rustExtractor.extract([
    { path: "src/main.rs", text: MAIN.replace("use salvo::prelude::*;", "") },
  ]);
  assert.deepEqual(summarize(ports), []);
});
