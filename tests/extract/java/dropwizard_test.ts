import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary } from "../_fixtures.ts";

const APP = `import io.dropwizard.core.Application;
import io.dropwizard.assets.AssetsBundle;
public class ShopApplication extends Application<ShopConfiguration> {
  public void initialize(Bootstrap<ShopConfiguration> bootstrap) {
    bootstrap.addBundle(new AssetsBundle());
    bootstrap.addBundle(new AssetsBundle("/web", "/ui", "index.html"));
  }
}`;

const RESOURCE = `import jakarta.ws.rs.*;
@Path("/orders")
public class OrderResource {
  @GET @Path("/{id}") public String get(@PathParam("id") String id) { return id; }
}`;

Deno.test("javaExtractor serves Dropwizard resources and assets under the configured paths", async () => {
  const config = `# shop
logging:
  rootPath: /not-the-server
server:
  type: simple
  applicationContextPath: /shop # the app
  rootPath: /api/*
`;
  const { ports } = await javaExtractor.extract([
    { path: "shop/config.yml", text: config },
    { path: "shop/deploy/k8s.yaml", text: "kind: Service\nrootPath: /nope\n" },
    { path: "shop/src/main/java/ShopApplication.java", text: APP },
    { path: "shop/src/main/java/OrderResource.java", text: RESOURCE },
    { path: "other/src/main/java/OrderResource.java", text: RESOURCE },
  ]);
  assert.deepEqual(portSummary(ports), [
    "other/src/main/java/OrderResource.java:4 server GET /orders/{} 0.95",
    "shop/src/main/java/OrderResource.java:4 server GET /shop/api/orders/{} 0.95",
    "shop/src/main/java/ShopApplication.java:5 server GET /shop/assets/{} 0.95",
    "shop/src/main/java/ShopApplication.java:6 server GET /shop/ui/{} 0.95",
  ]);
});
