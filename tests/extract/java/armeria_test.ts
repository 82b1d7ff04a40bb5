import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary } from "../_fixtures.ts";

async function ports(
  files: Array<{ path: string; text: string }>,
): Promise<string[]> {
  const { ports } = await javaExtractor.extract(files);
  return portSummary(ports);
}

const MAIN = `import com.linecorp.armeria.server.Server;
import com.linecorp.armeria.server.file.FileService;
import com.linecorp.armeria.common.HttpMethod;
// Server.builder().service("/commented", s)
class Main {
  static final String API = "/api";
  static final String DOC = """
    Server.builder().service("/in-a-text-block", s)
    """;
  public static void main(String[] args) {
    Server.builder()
      .service(API + "/ping", new PingService())
      .serviceUnder("/static", FileService.of(Main.class.getClassLoader(), "/web"))
      .route().post("/carts/{cartId}").build(new CartService())
      .route().path("/carts/{cartId}/items").methods(HttpMethod.GET, HttpMethod.PUT).build(new ItemsService())
      .withRoute(b -> b.path("/feeds/{id}").build(new FeedService()))
      .serviceUnder("/v2", new ShelfService())
      .annotatedService("/admin", new AdminService())
      .build()
      .start();
    java.util.Map<String, String> cache = new java.util.HashMap<>();
    cache.get("/not-a-route");
  }
}`;

const SERVICES = `import com.linecorp.armeria.server.HttpServiceWithRoutes;
import com.linecorp.armeria.server.Route;
import com.linecorp.armeria.server.annotation.*;
class ShelfService implements HttpServiceWithRoutes {
  public java.util.Set<Route> routes() {
    return java.util.Set.of(Route.builder().get("/shelves/{id}").build());
  }
}
@PathPrefix("/users")
class AdminService {
  @Get("/{id}")
  public String get(@Param String id) { return ""; }
  @Post
  @Path({"/", "/bulk"})
  public String create() { return ""; }
  @Get("regex:^/(?<id>\\\\d+)$")
  public String byRegex() { return ""; }
  public String helper() { return ""; }
}`;

Deno.test("javaExtractor reads Armeria server builders and annotated services", async () => {
  assert.deepEqual(
    await ports([
      { path: "Main.java", text: MAIN },
      { path: "Services.java", text: SERVICES },
    ]),
    [
      "Main.java:12 server ANY /api/ping 0.95",
      "Main.java:13 server GET /static 1",
      "Main.java:13 server HEAD /static 1",
      "Main.java:14 server POST /carts/{} 1",
      "Main.java:15 server GET /carts/{}/items 1",
      "Main.java:15 server PUT /carts/{}/items 1",
      "Main.java:16 server ANY /feeds/{} 1",
      "Services.java:11 server GET /admin/users/{} 0.95",
      "Services.java:13 server POST /admin/users 0.95",
      "Services.java:13 server POST /admin/users/bulk 0.95",
      "Services.java:6 server GET /v2/shelves/{} 0.95",
    ],
  );
});

Deno.test("javaExtractor leaves look-alike builders of other libraries alone", async () => {
  const text = `import org.example.Server;
class Other {
  void run() {
    Server.builder().service("/not-armeria", new S()).route().get("/nope").build(new S());
  }
}`;
  assert.deepEqual(await ports([{ path: "Other.java", text }]), []);
});
