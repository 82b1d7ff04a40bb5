import assert from "node:assert/strict";
import { rustExtractor } from "../../../src/extract/rust/mod.ts";
import type { SourceFile } from "../../../src/extract/extractor.ts";
import { summarize } from "../_fixtures.ts";

async function servers(files: SourceFile[]): Promise<string[]> {
  const { ports } = await rustExtractor.extract(files);
  return summarize(ports.filter((p) => p.ref.role === "server"));
}

Deno.test("rustExtractor reads Rocket's #[route(path, method = X)] form", async () => {
  const text = `#[macro_use]
extern crate rocket;

#[route("/orders", method = POST, data = "<o>")]
fn place(o: String) -> String { o }

#[route("/lock", method = LOCK)]
fn lock() {}

#[route(GET, uri = "/orders")]
fn list() {}
`;
  assert.deepEqual(await servers([{ path: "src/main.rs", text }]), [
    "src/main.rs:4 server POST /orders",
    "src/main.rs:10 server GET /orders",
  ]);
});

Deno.test("rustExtractor follows Rocket mounts through concat prefixes, appends and aliases", async () => {
  const main = `#[macro_use]
extern crate rocket;
mod billing;
mod reports;
use crate::{reports::{collect as report_routes}};

#[launch]
fn rocket() -> _ {
    let root = "/v1";
    rocket::build()
        .mount([root, "/billing"].concat(), billing::all())
        .mount("/reports", report_routes())
}
`;
  const billing = `use rocket::{get, routes, Route};
use crate::billing::refunds::routes as refund_routes;

#[get("/invoices")]
fn invoices() {}

pub fn all() -> Vec<Route> {
    let mut r = routes![invoices];
    r.append(&mut refund_routes());
    r
}
`;
  const refunds = `use rocket::{post, routes, Route};

#[post("/refunds")]
fn refund() {}

pub fn routes() -> Vec<Route> { routes![refund] }
`;
  const reports = `use rocket::{get, routes, Route};

#[get("/daily")]
fn daily() {}

pub fn collect() -> Vec<Route> { routes![daily] }
`;
  assert.deepEqual(
    await servers([
      { path: "src/main.rs", text: main },
      { path: "src/billing/mod.rs", text: billing },
      { path: "src/billing/refunds.rs", text: refunds },
      { path: "src/reports.rs", text: reports },
    ]),
    [
      "src/billing/mod.rs:4 server GET /v1/billing/invoices",
      "src/billing/refunds.rs:3 server POST /v1/billing/refunds",
      "src/reports.rs:3 server GET /reports/daily",
    ],
  );
});
