import assert from "node:assert/strict";
import { cppExtractor } from "../../../src/extract/cpp/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("cppExtractor reads cpp-httplib server routes, not client calls", async () => {
  const text = `#include <httplib.h>
int main() {
  httplib::Server svr;
  svr.Get("/notes/:id", [](const httplib::Request& req, httplib::Response& res) {});
  svr.Post("/notes", create_note);
  svr.Delete(R"(/notes/(\\d+))", remove_note);
  httplib::Client cli("http://example.com");
  auto r = cli.Get("/remote");
  other.Get("/unknown", h);
  svr.listen("0.0.0.0", 8080);
}
`;
  const { ports } = await cppExtractor.extract([{ path: "main.cpp", text }]);
  assert.deepEqual(summarize(ports), [
    "main.cpp:4 server GET /notes/{}",
    "main.cpp:5 server POST /notes",
    "main.cpp:6 server DELETE /notes/(\\d+)",
  ]);
});
