import assert from "node:assert/strict";
import { rustExtractor } from "../../../src/extract/rust/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("rustExtractor reads poem routes and nested poem-openapi services", async () => {
  const text = `use poem::{get, handler, post, Route};
use poem_openapi::{OpenApi, OpenApiService};

struct Billing;

#[OpenApi(prefix_path = "/billing")]
impl Billing {
    #[oai(path = "/invoices/:id", method = "get")]
    async fn invoice(&self) {}

    #[oai(path = "/invoices", method = "post", tag = "Billing")]
    async fn create(&self) {}

    async fn helper(&self) {}
}

fn app() -> Route {
    let service = OpenApiService::new(Billing, "Billing", "1.0");
    let docs = service.swagger_ui();
    Route::new()
        .at("/", index)
        .at("/jobs/:id", get(job).delete(drop_job))
        .nest("/admin", Route::new().at("/stats", poem::get(stats)))
        .nest("/api", service)
        .nest("/docs", docs)
}

#[cfg(test)]
mod tests {
    struct Fake;

    #[OpenApi]
    impl Fake {
        #[oai(path = "/test-only", method = "get")]
        async fn fake(&self) {}
    }
}

fn not_routes(map: std::collections::BTreeMap<u8, u8>) {
    let _ = map.range(1..2);
    let _ = Vec::<u8>::new().get(0);
}
`;
  const { ports } = await rustExtractor.extract([{
    path: "src/main.rs",
    text,
  }]);
  assert.deepEqual(summarize(ports), [
    "src/main.rs:8 server GET /api/billing/invoices/{}",
    "src/main.rs:11 server POST /api/billing/invoices",
    "src/main.rs:21 server ANY /",
    "src/main.rs:22 server DELETE /jobs/{}",
    "src/main.rs:22 server GET /jobs/{}",
    "src/main.rs:23 server GET /admin/stats",
  ]);
});
