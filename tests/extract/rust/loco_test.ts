import assert from "node:assert/strict";
import { rustExtractor } from "../../../src/extract/rust/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("rustExtractor reads Loco controller routes under their AppRoutes prefix", async () => {
  const app = `use loco_rs::prelude::*;
use crate::controllers;

fn routes() -> AppRoutes {
    AppRoutes::with_default_routes()
        .prefix("/api")
        .add_route(controllers::notes::routes())
}
`;
  const notes = `use loco_rs::prelude::*;

pub fn routes() -> Routes {
    Routes::new()
        .prefix("notes")
        .add("/", get(list).post(create))
        .add("/{id}", get(show).delete(remove))
}

fn unrelated(set: &mut std::collections::HashSet<u8>) {
    set.add("/not-a-route", 1);
}

#[cfg(test)]
mod tests {
    fn routes() -> Routes {
        Routes::new().prefix("test").add("/only", get(list))
    }
}
`;
  const { ports } = await rustExtractor.extract([
    { path: "src/app.rs", text: app },
    { path: "src/controllers/notes.rs", text: notes },
  ]);
  assert.deepEqual(summarize(ports), [
    "src/controllers/notes.rs:6 server GET /api/notes",
    "src/controllers/notes.rs:6 server POST /api/notes",
    "src/controllers/notes.rs:7 server DELETE /api/notes/{}",
    "src/controllers/notes.rs:7 server GET /api/notes/{}",
  ]);
});
