import assert from "node:assert/strict";
import { rustExtractor } from "../../../src/extract/rust/mod.ts";
import { summarize } from "../_fixtures.ts";

const APP = `use rwf::http::{Engine, Server};
use rwf::prelude::*;

struct Orders;

#[async_trait]
impl Controller for Orders {
    async fn handle(&self, request: &Request) -> Result<Response, Error> {
        match request.method() {
            Method::GET => Ok(Response::new()),
            Method::DELETE => Ok(Response::new()),
            _ => Ok(Response::new().status(405)),
        }
    }
}

#[tokio::main]
async fn main() {
    let backoffice = Engine::new(vec![
        route!("/stats" => Stats),
    ]);
    Server::new(vec![
        route!("/orders" => Orders),
        crud!("/api/items" => ItemController),
        Health.route("/health"),
        engine!("/backoffice" => backoffice),
    ])
    .launch()
    .await
    .unwrap();
}
`;

Deno.test("rustExtractor reads rwf route!, crud!, .route and engine! mounts", async () => {
  const { ports } = await rustExtractor.extract([
    { path: "src/main.rs", text: APP },
  ]);
  assert.deepEqual(
    summarize(ports),
    [
      "src/main.rs:20 server ANY /backoffice/stats",
      "src/main.rs:23 server DELETE /orders",
      "src/main.rs:23 server GET /orders",
      "src/main.rs:24 server GET /api/items",
      "src/main.rs:24 server GET /api/items/{}",
      "src/main.rs:24 server DELETE /api/items/{}",
      "src/main.rs:24 server PATCH /api/items/{}",
      "src/main.rs:24 server POST /api/items",
      "src/main.rs:24 server PUT /api/items/{}",
      "src/main.rs:25 server ANY /health",
    ].sort(byLine),
  );
});

Deno.test("rustExtractor reads no rwf routes from files that do not use rwf", async () => {
  const text = APP.replace(/use rwf::[^\n]*\n/g, "");
  const { ports } = await rustExtractor.extract([
    { path: "src/main.rs", text },
  ]);
  assert.deepEqual(summarize(ports), []);
});

function byLine(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
