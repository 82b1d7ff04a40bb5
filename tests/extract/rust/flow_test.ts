import assert from "node:assert/strict";
import { rustExtractor } from "../../../src/extract/rust/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("rustExtractor follows a client wrapper's path parameter to the calls that supply it", async () => {
  const { ports } = await rustExtractor.extract([
    {
      path: "src/http.rs",
      text: [
        "use reqwest::Client;",
        'const BASE: &str = "http://orders-svc";',
        "pub async fn post(client: &Client, path: &str) -> reqwest::Result<String> {",
        '    client.post(format!("{}{}", BASE, path)).send().await?.text().await',
        "}",
      ].join("\n"),
    },
    {
      path: "src/orders.rs",
      text: [
        "use crate::http;",
        "pub struct Orders { client: reqwest::Client }",
        "impl Orders {",
        '    pub async fn place(&self) { http::post(&self.client, "/orders").await; }',
        "    pub async fn cancel(&self, id: u64) {",
        '        http::post(&self.client, &format!("/orders/{id}/cancel")).await;',
        "    }",
        "}",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "src/orders.rs:4 client POST /orders 0.95",
    "src/orders.rs:6 client POST /orders/{}/cancel 0.8",
  ]);
});

Deno.test("rustExtractor nests the router a function returns under an imported constant", async () => {
  const { ports } = await rustExtractor.extract([
    { path: "src/paths.rs", text: 'pub const API: &str = "/api/v1";\n' },
    {
      path: "src/main.rs",
      text: [
        "mod paths;",
        "mod users;",
        "use axum::Router;",
        "use crate::paths::API;",
        "fn app() -> Router {",
        "    Router::new().nest(API, users::routes())",
        "}",
      ].join("\n"),
    },
    {
      path: "src/users.rs",
      text: [
        "use axum::{routing::get, Router};",
        "pub fn routes() -> Router {",
        '    Router::new().route("/users/:id", get(show))',
        "}",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "src/users.rs:3 server GET /api/v1/users/{} 0.95",
  ]);
});

Deno.test("rustExtractor gives an actix configure function the scope of the closure that calls it", async () => {
  const { ports } = await rustExtractor.extract([
    {
      path: "src/main.rs",
      text: [
        "use actix_web::{web, App};",
        "mod auth;",
        "use crate::auth::routes as auth_routes;",
        "fn app() {",
        '    App::new().service(web::scope("/auth").configure(|cfg| auth_routes::configure(cfg)));',
        "}",
      ].join("\n"),
    },
    {
      path: "src/auth/routes.rs",
      text: [
        "use actix_web::web;",
        "pub fn configure(cfg: &mut web::ServiceConfig) {",
        '    cfg.service(web::resource("/login").route(web::post().to(login)));',
        "}",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "src/auth/routes.rs:3 server POST /auth/login 0.95",
  ]);
});
