import assert from "node:assert/strict";
import { cppExtractor } from "../../../src/extract/cpp/mod.ts";
import { summarize } from "../_fixtures.ts";

const MAIN = `#include <drogon/drogon.h>
using namespace drogon;
int main() {
  app().registerHandler("/health", [](const HttpRequestPtr &req, Callback &&cb) {}, {Get, drogon::Head});
  drogon::app().registerHandler("/any/{id}", &handler);
  app().registerHandlerViaRegex("/files/(.*)", &files, {Get});
  cache.registerHandler("/not-drogon", &h, {Get});
  app().run();
}
`;

const CONTROLLER = `#include <drogon/HttpController.h>
namespace shop {
namespace v1 {
class Orders : public drogon::HttpController<Orders> {
 public:
  METHOD_LIST_BEGIN
  METHOD_ADD(Orders::list, "", Get);
  METHOD_ADD(Orders::show, "/{id}", Get, "shop::AuthFilter");
  METHOD_ADD(Orders::edit, "{id}/edit", {Put, Patch});
  ADD_METHOD_TO(Orders::stats, "/stats", Get);
  METHOD_LIST_END
};
}  // namespace v1
}  // namespace shop
class Legacy : public drogon::HttpSimpleController<Legacy> {
 public:
  PATH_LIST_BEGIN
  PATH_ADD("/legacy", Post);
  PATH_LIST_END
};
class Plain {
  void f() { METHOD_ADD(Plain::g, "/x", Get); }
};
`;

Deno.test("cppExtractor reads Drogon handlers and controllers", async () => {
  const { ports } = await cppExtractor.extract([
    { path: "main.cc", text: MAIN },
    { path: "Orders.h", text: CONTROLLER },
  ]);
  assert.deepEqual(summarize(ports), [
    "Orders.h:7 server GET /shop/v1/Orders",
    "Orders.h:8 server GET /shop/v1/Orders/{}",
    "Orders.h:9 server PATCH /shop/v1/Orders/{}/edit",
    "Orders.h:9 server PUT /shop/v1/Orders/{}/edit",
    "Orders.h:10 server GET /stats",
    "Orders.h:18 server POST /legacy",
    "main.cc:4 server GET /health",
    "main.cc:4 server HEAD /health",
    "main.cc:5 server ANY /any/{}",
    "main.cc:6 server GET /files/(.*)",
  ]);
  const show = ports.find((p) => p.ref.key === "GET /shop/v1/Orders/{}")!;
  assert.equal(show.owner.qualifiedName, "Orders.h::Orders");
});
