import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary } from "../_fixtures.ts";

Deno.test("javaExtractor reads Play routes files and their includes", async () => {
  const routes = `# Home
GET     /                     controllers.Home.index
GET     /books/:id            controllers.Books.show(id: Long)
PATCH   /books/$isbn<[0-9]+>  controllers.Books.patch(isbn: String)
GET     /assets/*file         controllers.Assets.at(path="/public", file)
POST    /books                controllers.Books.create(request: Request)   # comment
FETCH   /nope                 controllers.Books.nope
->      /shop                 shop.Routes
->      /sird                 controllers.SirdRouter
`;
  const shop = `GET /carts/:cartId controllers.Carts.show(cartId: Long)
`;
  const unused = `GET /never controllers.Never.index
`;
  const { ports } = await javaExtractor.extract([
    { path: "app/conf/routes", text: routes },
    { path: "app/conf/shop.routes", text: shop },
    { path: "app/conf/unused.routes", text: unused },
    {
      path: "lib/conf/only.routes",
      text: "DELETE /jobs/:id c.Jobs.delete(id)",
    },
    { path: "docs/routes", text: "GET /docs-only c.Docs.index" },
    { path: "src/sbt-test/sample/conf/routes", text: "GET /sample c.S.index" },
  ]);
  assert.deepEqual(portSummary(ports), [
    "app/conf/routes:2 server GET / 1",
    "app/conf/routes:3 server GET /books/{} 1",
    "app/conf/routes:4 server PATCH /books/{} 1",
    "app/conf/routes:5 server GET /assets/{} 1",
    "app/conf/routes:6 server POST /books 1",
    "app/conf/shop.routes:1 server GET /shop/carts/{} 0.95",
    "lib/conf/only.routes:1 server DELETE /jobs/{} 1",
  ]);
  assert.equal(ports[0]?.ref.detail.framework, "play");
});

Deno.test("javaExtractor reads a routes line of 200,000 unclosed regex parameters in one pass", async () => {
  const started = performance.now();
  const { ports } = await javaExtractor.extract([
    {
      path: "conf/routes",
      text: `GET /x${"$a<".repeat(200_000)} c.X.y\nGET /ok/$id<[0-9]+> c.X.z\n`,
    },
  ]);
  assert.ok(ports.some((p) => p.ref.key === "GET /ok/{}"));
  assert.ok(performance.now() - started < 5_000);
});
