import assert from "node:assert/strict";
import { rustExtractor } from "../../../src/extract/rust/mod.ts";
import { summarize } from "../_fixtures.ts";

async function servers(text: string, path = "src/main.rs"): Promise<string[]> {
  const { ports } = await rustExtractor.extract([{ path, text }]);
  return summarize(ports.filter((p) => p.ref.role === "server"));
}

Deno.test("rustExtractor reads axum services, fallbacks and method filters", async () => {
  const text = `use axum::{routing::{get, on, post, MethodFilter}, Router};
use tower_http::services::{ServeDir, ServeFile};

fn app() -> Router {
    let files = ServeDir::new("public");
    Router::new()
        .route("/tickets", get(list).post(create).layer(Trace::new()))
        .route("/pick", on(MethodFilter::PUT.or(MethodFilter::PATCH), pick))
        .route_service("/robots.txt", ServeFile::new("robots.txt"))
        .nest_service("/static", files)
        .nest_service("/sub", sub_router())
        .nest("/admin", Router::new().route("/jobs", get(jobs)).fallback(missing))
        .fallback(missing)
}

fn sub_router() -> Router {
    Router::new().route("/x", get(x))
}

fn not_a_router() {
    // a method router's own fallback, and an option builder's
    let m = get(list).fallback(missing);
    let o = Options::default().fallback("en");
}
`;
  assert.deepEqual(await servers(text), [
    "src/main.rs:7 server GET /tickets",
    "src/main.rs:7 server POST /tickets",
    "src/main.rs:8 server PATCH /pick",
    "src/main.rs:8 server PUT /pick",
    "src/main.rs:9 server ANY /robots.txt",
    "src/main.rs:10 server ANY /static/{}",
    "src/main.rs:12 server ANY /admin/{}",
    "src/main.rs:12 server GET /admin/jobs",
    "src/main.rs:13 server ANY /{}",
    "src/main.rs:17 server GET /sub/x",
  ]);
});

Deno.test("rustExtractor reads aide's api_route, *_with verbs and nest_api_service", async () => {
  const text = `use aide::axum::{routing::{get_with, post_with}, ApiRouter};
use axum::routing::get;

fn v2() -> ApiRouter {
    ApiRouter::new().api_route("/reports", get(list).delete(drop_all))
}

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .api_route_with("/jobs", post_with(run, run_docs), |op| op.tag("Jobs"))
        .nest_api_service("/v2", v2())
}
`;
  assert.deepEqual(await servers(text), [
    "src/main.rs:5 server DELETE /v2/reports",
    "src/main.rs:5 server GET /v2/reports",
    "src/main.rs:10 server POST /jobs",
  ]);
});

Deno.test("rustExtractor reports no routes from test code", async () => {
  const text = `use axum::{routing::get, Router};

fn app() -> Router {
    Router::new().route("/live", get(live))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[tokio::test]
    async fn routes() {
        let _ = Router::new().route("/test-only", get(live)).fallback(live);
    }
}

#[test]
fn another() {
    let _ = Router::new().route("/also-test-only", get(live));
}
`;
  assert.deepEqual(await servers(text), ["src/main.rs:4 server GET /live"]);
  assert.deepEqual(await servers(text, "tests/api.rs"), []);
});

Deno.test("rustExtractor reads actix builders under `use actix_web::web::*`", async () => {
  const glob = `use actix_web::web::*;

fn config(cfg: &mut ServiceConfig) {
    cfg.service(
        scope("/v2")
            .service(scope("/cart").route("", get().to(show)).route("", post().to(add)))
            .service(resource("/find").route(get().to(find))),
    );
}
`;
  assert.deepEqual(await servers(glob), [
    "src/main.rs:6 server GET /v2/cart",
    "src/main.rs:6 server POST /v2/cart",
    "src/main.rs:7 server GET /v2/find",
  ]);
  // Without the glob, a bare `get()` is some other function.
  const bare = glob.replace("use actix_web::web::*;", "use actix_web::web;");
  assert.deepEqual(await servers(bare), []);
});

Deno.test("rustExtractor nests a let-bound router named like its builder only under its prefix", async () => {
  const main = `use axum::Router;
mod admin;

fn app() -> Router {
    let admin_router = admin::admin_router().with_state(());
    Router::new().nest("/admin", admin_router)
}
`;
  const admin = `use axum::{routing::get, Router};

pub fn admin_router() -> Router {
    Router::new().route("/users", get(users))
}
`;
  const { ports } = await rustExtractor.extract([
    { path: "src/main.rs", text: main },
    { path: "src/admin.rs", text: admin },
  ]);
  assert.deepEqual(summarize(ports), [
    "src/admin.rs:4 server GET /admin/users",
  ]);
});

Deno.test("rustExtractor composes utoipa-axum routes! handlers with their nest prefixes", async () => {
  const main = `use utoipa_axum::router::OpenApiRouter;
mod orders;
mod order_routes;

fn app() -> OpenApiRouter {
    OpenApiRouter::new().nest("/api/orders", order_routes::routes())
}
`;
  const routes = `use crate::orders;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter {
    OpenApiRouter::new()
        .routes(routes!(orders::list))
        .routes(routes!(orders::edit))
        .routes(routes!(orders::undocumented))
}
`;
  const orders = `#[utoipa::path(get, path = "/", tag = "orders")]
pub async fn list() {}

#[utoipa::path(method(put, patch), path = "/{id}", responses((status = 200)))]
pub async fn edit() {}

#[utoipa::path(path = "/no-method")]
pub async fn undocumented() {}

#[utoipa::path(get, path = "/never-registered")]
pub async fn unused() {}
`;
  const { ports } = await rustExtractor.extract([
    { path: "src/main.rs", text: main },
    { path: "src/order_routes.rs", text: routes },
    { path: "src/orders.rs", text: orders },
  ]);
  assert.deepEqual(summarize(ports), [
    "src/orders.rs:1 server GET /api/orders",
    "src/orders.rs:4 server PATCH /api/orders/{}",
    "src/orders.rs:4 server PUT /api/orders/{}",
  ]);
});

Deno.test("rustExtractor follows a router function whose chain ends with a comment", async () => {
  const text = `use axum::{routing::get, Router};

fn app() -> Router {
    Router::new().nest("/api", api())
}

fn api() -> Router {
    Router::new()
        .route("/ping", get(ping)) // health check
}
`;
  assert.deepEqual(await servers(text), ["src/main.rs:9 server GET /api/ping"]);
});
