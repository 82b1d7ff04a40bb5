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

Deno.test("rustExtractor reads routers listed in vec![...] at their own lines", async () => {
  const text = `use salvo::prelude::*;

pub struct Api;

impl Routers for Api {
    fn build(self) -> Vec<Router> {
        vec![
            Router::with_path("reports").get(list).post(create),
            Router::with_path("reports/{id}").delete(remove),
        ]
    }
}

#[cfg(test)]
mod tests {
    fn routers() -> Vec<Router> {
        vec![Router::with_path("test-only").get(list)]
    }
}
`;
  const { ports } = await rustExtractor.extract([{
    path: "src/main.rs",
    text,
  }]);
  assert.deepEqual(summarize(ports), [
    "src/main.rs:8 server GET /reports",
    "src/main.rs:8 server POST /reports",
    "src/main.rs:9 server DELETE /reports/{}",
  ]);
});

Deno.test("rustExtractor gives a salvo route full confidence when no parent adds to its path", async () => {
  const { ports } = await rustExtractor.extract([
    { path: "src/main.rs", text: MAIN },
    { path: "src/routes.rs", text: ROUTES },
  ]);
  const confidence = (key: string) =>
    ports.find((p) => p.ref.key === key)?.ref.confidence;
  assert.equal(confidence("GET /v1/books"), 0.95);
  const alone = await rustExtractor.extract([{
    path: "src/main.rs",
    text:
      `use salvo::prelude::*;\nfn r() -> Router { Router::with_path("ping").get(ping) }\n`,
  }]);
  assert.equal(alone.ports[0]?.ref.confidence, 1);
});
