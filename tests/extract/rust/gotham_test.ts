import assert from "node:assert/strict";
import { rustExtractor } from "../../../src/extract/rust/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("rustExtractor reads gotham routes with scopes, associations and verbs", async () => {
  const text = `use gotham::router::builder::*;
use gotham::router::Router;

fn router() -> Router {
    build_router(chain, pipelines, |route| {
        route.get_or_head("/").to(index);
        route.scope("/shop", |route| {
            route
                .get("/carts/:id")
                .with_path_extractor::<CartPath>()
                .to(show_cart);
            route.with_pipeline_chain(admin_chain, |route| {
                route.delete("/carts/:id").to(drop_cart);
            });
            route.associate("/orders", |assoc| {
                assoc.post().to(place);
                assoc.patch().to(amend);
            });
        });
        route.request(vec![Method::PUT, Method::OPTIONS], "/sync").to(sync);
        route.get("/manual").to_file("assets/manual.html");
    })
}

fn not_routes(map: std::collections::HashMap<&str, u8>) {
    let _ = map.get("/not-a-route");
    let _ = format_like().get("/nope").map(|x| x);
}
`;
  const { ports } = await rustExtractor.extract([{
    path: "src/main.rs",
    text,
  }]);
  assert.deepEqual(summarize(ports), [
    "src/main.rs:6 server GET /",
    "src/main.rs:6 server HEAD /",
    "src/main.rs:9 server GET /shop/carts/{}",
    "src/main.rs:13 server DELETE /shop/carts/{}",
    "src/main.rs:16 server POST /shop/orders",
    "src/main.rs:17 server PATCH /shop/orders",
    "src/main.rs:20 server OPTIONS /sync",
    "src/main.rs:20 server PUT /sync",
    "src/main.rs:21 server GET /manual",
  ]);
});
