import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("javaExtractor gives a client wrapper's URL at each call site that supplies it", async () => {
  const { ports } = await javaExtractor.extract([{
    path: "src/UserClient.java",
    text: [
      "import org.springframework.web.client.RestTemplate;",
      "class UserClient {",
      "  private final RestTemplate rest = new RestTemplate();",
      '  private static final String BASE = "http://users-svc";',
      "  private String get(String path) {",
      "    return rest.getForObject(BASE + path, String.class);",
      "  }",
      '  String one(String id) { return get("/users/" + id); }',
      '  String all() { return get("/users"); }',
      "}",
    ].join("\n"),
  }]);
  assert.deepEqual(summary(ports), [
    "src/UserClient.java:8 client GET /users/{} 0.8",
    "src/UserClient.java:9 client GET /users 0.95",
  ]);
  assert.equal(ports[0]?.owner.name, "one");
});

Deno.test("javaExtractor follows a shared client's URL parameter to the services that call it", async () => {
  const { ports } = await javaExtractor.extract([
    {
      path: "src/http/ApiClient.java",
      text: [
        "import org.springframework.web.client.RestTemplate;",
        "public class ApiClient {",
        "  private final RestTemplate rest = new RestTemplate();",
        "  public String post(String path, Object body) {",
        '    return rest.postForObject("http://orders-svc" + path, body, String.class);',
        "  }",
        "}",
      ].join("\n"),
    },
    {
      path: "src/orders/OrderService.java",
      text: [
        "class OrderService {",
        "  private final ApiClient api;",
        "  OrderService(ApiClient api) { this.api = api; }",
        '  String place(Order o) { return api.post("/orders", o); }',
        '  String cancel(String id) { return api.post("/orders/" + id + "/cancel", null); }',
        "}",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "src/orders/OrderService.java:4 client POST /orders 0.95",
    "src/orders/OrderService.java:5 client POST /orders/{}/cancel 0.8",
  ]);
});

Deno.test("javaExtractor prefixes a mapping with a constant built from another class's constants", async () => {
  const { ports } = await javaExtractor.extract([
    {
      path: "src/api/Paths.java",
      text: [
        "package api;",
        "public final class Paths {",
        '  public static final String API = "/api/v1";',
        '  public static final String USERS = API + "/users";',
        "}",
      ].join("\n"),
    },
    {
      path: "src/api/UserController.java",
      text: [
        "package api;",
        "import static api.Paths.USERS;",
        "@RestController",
        "@RequestMapping(USERS)",
        "class UserController {",
        '  @GetMapping("/{id}") User get(@PathVariable String id) { return null; }',
        '  @PostMapping(Paths.API + "/users") User create() { return null; }',
        "}",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "src/api/UserController.java:6 server GET /api/v1/users/{} 0.95",
    "src/api/UserController.java:7 server POST /api/v1/users/api/v1/users 0.95",
  ]);
});

Deno.test("javaExtractor nests the functional routes a method returns under the path its caller gives", async () => {
  const { ports } = await javaExtractor.extract([{
    path: "src/Routes.java",
    text: [
      "import org.springframework.web.reactive.function.server.RouterFunction;",
      "import static org.springframework.web.reactive.function.server.RequestPredicates.*;",
      "import static org.springframework.web.reactive.function.server.RouterFunctions.*;",
      "class Routes {",
      "  RouterFunction<?> all(UserHandler h) {",
      '    return nest(path("/api"), users(h)).andNest(path("/v2"), users(h));',
      "  }",
      "  RouterFunction<?> users(UserHandler h) {",
      '    return route(GET("/users"), h::list);',
      "  }",
      "}",
    ].join("\n"),
  }]);
  assert.deepEqual(summary(ports), [
    "src/Routes.java:9 server GET /api/users 0.95",
    "src/Routes.java:9 server GET /v2/users 0.95",
  ]);
});
