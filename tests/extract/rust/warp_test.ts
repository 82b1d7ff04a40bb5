import assert from "node:assert/strict";
import { rustExtractor } from "../../../src/extract/rust/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("rustExtractor reads warp filter chains, path! macros and mounted filters", async () => {
  const text = `use warp::Filter;

pub fn app() -> impl Filter<Extract = (impl warp::Reply,), Error = warp::Rejection> + Clone {
    let root = warp::path::end().and(warp::get()).map(|| "home");
    root.or(warp::path("v2").and(api())).or(ws_route())
}

fn api() -> impl Filter<Extract = (impl warp::Reply,), Error = warp::Rejection> + Clone {
    let show = warp::path("notes")
        .and(warp::path::param::<u64>())
        .and(warp::path::end())
        .and(warp::get())
        .and_then(show_note);
    let edit = warp::path!("notes" / u64 / "title")
        .and(warp::patch())
        .and(with_db())
        .and_then(edit_title)
        .map(|r| r);
    show.or(edit)
}

fn ws_route() -> impl Filter<Extract = (impl warp::Reply,), Error = warp::Rejection> + Clone {
    warp::path("live").and(warp::ws()).map(|ws: warp::ws::Ws| ws)
}

fn with_db() -> impl Filter<Extract = ((),), Error = std::convert::Infallible> + Clone {
    warp::any().map(|| ())
}

fn not_routes(items: Vec<u8>) -> Vec<u8> {
    items.iter().map(|x| x + 1).collect()
}
`;
  const { ports } = await rustExtractor.extract([{
    path: "src/main.rs",
    text,
  }]);
  assert.deepEqual(summarize(ports), [
    "src/main.rs:4 server GET /",
    "src/main.rs:13 server GET /v2/notes/{}",
    "src/main.rs:17 server PATCH /v2/notes/{}/title",
    "src/main.rs:23 server GET /live",
  ]);
});
