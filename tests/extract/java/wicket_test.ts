import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary } from "../_fixtures.ts";

const APP = `import org.apache.wicket.protocol.http.WebApplication;
import org.apache.wicket.request.mapper.*;
import org.apache.wicket.request.resource.*;
import org.wicketstuff.rest.lambda.mounter.LambdaRestMounter;
public class ShopApplication extends WebApplication {
  protected void init() {
    mountPage("/cart", CartPage.class);
    mountPackage("/help", HelpPage.class);
    mount(new MountedMapper("/orders/\${orderId}", OrderPage.class));
    getRootRequestMapperAsCompound().add(new ResourceMapper("/files/#{name}", new SharedResourceReference("f")));
    mountResource("/rest", new ResourceReference("rest") {
      public IResource getResource() { return new StockResource(); }
    });
    alias("/basket");
    LambdaRestMounter rest = new LambdaRestMounter(this);
    rest.post("/ping", attributes -> "pong", Object::toString);
    java.util.Map<String, String> cache = new java.util.HashMap<>();
    cache.get("/not-a-route");
    getSession().mountPage("/not-the-application", CartPage.class);
  }
  private void alias(String path) {
    getRootRequestMapperAsCompound().add(new MountedMapper(path, CartPage.class));
  }
}`;

const PAGES = `import org.wicketstuff.annotation.mount.MountPath;
import org.wicketstuff.rest.annotations.*;
import org.apache.wicket.markup.html.WebPage;
@MountPath("/about")
class AboutPage extends WebPage {}
@MountPath
class TermsPage extends WebPage {}
@ResourcePath("/stock")
class StockResource {
  @MethodMapping("/items")
  public String list() { return ""; }
  @MethodMapping(value = "/items/{id}", httpMethod = HttpMethod.DELETE)
  public void remove(int id) {}
  public void helper() {}
}`;

Deno.test("javaExtractor reads Wicket mounts, mount paths and REST resources", async () => {
  const { ports } = await javaExtractor.extract([
    { path: "ShopApplication.java", text: APP },
    { path: "Pages.java", text: PAGES },
  ]);
  assert.deepEqual(portSummary(ports), [
    "Pages.java:10 server GET /stock/items 0.95",
    "Pages.java:12 server DELETE /stock/items/{} 0.95",
    "Pages.java:4 server GET /about 1",
    "Pages.java:6 server GET /TermsPage 1",
    "ShopApplication.java:10 server GET /files/{} 1",
    "ShopApplication.java:11 server DELETE /rest/items/{} 0.95",
    "ShopApplication.java:11 server GET /rest/items 0.95",
    "ShopApplication.java:14 server GET /basket 0.95",
    "ShopApplication.java:16 server POST /ping 1",
    "ShopApplication.java:7 server GET /cart 1",
    "ShopApplication.java:8 server GET /help/{} 1",
    "ShopApplication.java:9 server GET /orders/{} 0.8",
  ]);
});
