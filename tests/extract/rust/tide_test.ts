import assert from "node:assert/strict";
import { rustExtractor } from "../../../src/extract/rust/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("rustExtractor reads tide routes, bound routes, static mounts and nested apps", async () => {
  const text = `use tide::Request;

#[async_std::main]
async fn main() -> tide::Result<()> {
    let mut app = tide::new();
    app.at("/notes/:id").get(show).delete(remove);
    let tags = app.at("/tags");
    tags.post(tag);
    app.at("/docs/*").serve_dir("docs/")?;
    app.at("/hooks").all(hook);
    app.at("/v1").nest({
        let mut v1 = tide::new();
        v1.at("/ping").get(ping);
        v1
    });
    let mut admin = tide::with_state(());
    admin.at("/jobs").put(jobs);
    app.at("/admin").nest(admin);
    let cache = std::collections::HashMap::<String, String>::new();
    let _ = cache.get("/not-a-route");
    Ok(())
}
`;
  const { ports } = await rustExtractor.extract([{
    path: "src/main.rs",
    text,
  }]);
  assert.deepEqual(summarize(ports), [
    "src/main.rs:6 server DELETE /notes/{}",
    "src/main.rs:6 server GET /notes/{}",
    "src/main.rs:8 server POST /tags",
    "src/main.rs:9 server GET /docs/{}",
    "src/main.rs:10 server ANY /hooks",
    "src/main.rs:13 server GET /v1/ping",
    "src/main.rs:17 server PUT /admin/jobs",
  ]);
});
