import assert from "node:assert/strict";
import { cppExtractor } from "../../../src/extract/cpp/mod.ts";
import { summarize } from "../_fixtures.ts";

const APP = `#include "crow.h"
int main() {
  crow::SimpleApp app;
  CROW_ROUTE(app, "/books/<int>")([](int id) { return "x"; });
  CROW_ROUTE(app, "/books")
    .methods("POST"_method, crow::HTTPMethod::Put)([](const crow::request& r) {
      return "y";
    });
  app.route_dynamic("/live")([] { return "z"; });
  crow::Blueprint shop("shop");
  crow::Blueprint v1("v1");
  CROW_BP_ROUTE(v1, "/cart")([] { return "c"; });
  shop.register_blueprint(v1);
  app.register_blueprint(shop);
  CROW_BP_ROUTE(elsewhere, "/orphan")([] { return "o"; });
  // CROW_ROUTE(app, "/commented")
  /* CROW_ROUTE(app, "/block") */
  auto s = "CROW_ROUTE(app, \\"/in-string\\")";
  CROW_WEBSOCKET_ROUTE(app, "/ws");
}
`;

Deno.test("cppExtractor reads Crow routes, methods and blueprint prefixes", async () => {
  const { ports, diagnostics } = await cppExtractor.extract([
    { path: "app.cpp", text: APP },
  ]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summarize(ports), [
    "app.cpp:4 server GET /books/{}",
    "app.cpp:5 server POST /books",
    "app.cpp:5 server PUT /books",
    "app.cpp:9 server GET /live",
    "app.cpp:12 server GET /shop/v1/cart",
    "app.cpp:15 server GET /orphan",
  ]);
  const orphan = ports.find((p) => p.ref.key === "GET /orphan")!;
  assert.equal(orphan.ref.confidence, 0.8);
  assert.equal(ports[0]!.ref.confidence, 1);
});
