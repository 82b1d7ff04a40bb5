import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary } from "../_fixtures.ts";

const MAIN = `import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
public final class Main {
  static void routing(HttpRouting.Builder routing) {
    java.util.Map<String, String> cache = new java.util.HashMap<>();
    cache.get("/not-a-route");
    routing.post("/login", (req, res) -> res.send("ok"))
      .any("/echo", (req, res) -> res.send("echo"))
      .register("/shop", new ShopService());
  }
}`;

const SERVICES = `import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
class ShopService implements HttpService {
  static final String CARTS = "/carts";
  public void routing(HttpRules rules) {
    rules.get(CARTS + "/{id}", this::cart)
      .register("/orders", new OrderService());
  }
}
class OrderService implements HttpService {
  public void routing(HttpRules rules) {
    rules.delete("/{id}", (req, res) -> res.send());
  }
}`;

Deno.test("javaExtractor reads Helidon SE routing under the prefixes services are registered at", async () => {
  const { ports } = await javaExtractor.extract([
    { path: "Main.java", text: MAIN },
    { path: "Services.java", text: SERVICES },
  ]);
  assert.deepEqual(portSummary(ports), [
    "Main.java:7 server POST /login 1",
    "Main.java:8 server ANY /echo 1",
    "Services.java:12 server DELETE /shop/orders/{} 0.95",
    "Services.java:6 server GET /shop/carts/{} 0.95",
  ]);
});
