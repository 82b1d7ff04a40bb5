import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary } from "../_fixtures.ts";

async function ports(
  files: Array<{ path: string; text: string }>,
): Promise<string[]> {
  const { ports } = await javaExtractor.extract(files);
  return portSummary(ports);
}

Deno.test("javaExtractor reads Javalin apps, ApiBuilder paths, crud and the context path", async () => {
  const text = `import io.javalin.Javalin;
import static io.javalin.apibuilder.ApiBuilder.*;

public class App {
  static final String API = "/api";
  public static void main(String[] args) {
    Javalin app = Javalin.create(config -> {
      config.router.contextPath = "/portal";
      config.router.apiBuilder(() -> {
        path(API, () -> {
          get("/status", ctx -> ctx.result("ok"));
          path("/teams/{teamId}", () -> {
            get(ctx -> ctx.result("team"));
            crud(new MemberController());
          });
        });
      });
    });
    app.post("/users", ctx -> ctx.status(201));
    app.addHttpHandler(HandlerType.PUT, "/users/{id}", ctx -> {});
    java.util.Map<String, String> cache = new java.util.HashMap<>();
    cache.get("/not-a-route");
  }
}`;
  assert.deepEqual(await ports([{ path: "App.java", text }]), [
    "App.java:11 server GET /portal/api/status 0.95",
    "App.java:13 server GET /portal/api/teams/{} 0.95",
    "App.java:14 server DELETE /portal/api/teams/{} 0.95",
    "App.java:14 server GET /portal/api/teams 0.95",
    "App.java:14 server GET /portal/api/teams/{} 0.95",
    "App.java:14 server PATCH /portal/api/teams/{} 0.95",
    "App.java:14 server POST /portal/api/teams 0.95",
    "App.java:19 server POST /portal/users 0.95",
    "App.java:20 server PUT /portal/users/{} 0.95",
  ]);
});

Deno.test("javaExtractor reads Spark's static routes, paths and redirects", async () => {
  const text = `import static spark.Spark.*;

public class Web {
  public static void main(String[] args) {
    get("/hello", (req, res) -> "hi");
    path("/api", () -> {
      post("/items", (req, res) -> "ok");
      path("/v1", () -> delete("/items/:id", (req, res) -> "gone"));
    });
    redirect.get("/old", "/hello");
  }
}`;
  assert.deepEqual(await ports([{ path: "Web.java", text }]), [
    "Web.java:10 server GET /old 1",
    "Web.java:5 server GET /hello 1",
    "Web.java:7 server POST /api/items 0.95",
    "Web.java:8 server DELETE /api/v1/items/{} 0.95",
  ]);
});

Deno.test("javaExtractor reads Vert.x routes, route chains and mounted sub-routers", async () => {
  const text = `import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;

public class Server {
  void start() {
    Router router = Router.router(vertx);
    router.route("/api/*").handler(BodyHandler.create());
    router.get("/health").handler(this::health);
    router.route(HttpMethod.POST, "/imports/:id").handler(this::imp);
    router.route().path("/jobs/:id").method(HttpMethod.PUT).handler(this::job);
    router.route("/any/:id").handler(this::any);
    Router api = Router.router(vertx);
    api.get("/items").handler(this::items);
    router.route("/v2/*").subRouter(api);
    java.util.List<String> list = new java.util.ArrayList<>();
    list.get(0);
  }
}`;
  assert.deepEqual(await ports([{ path: "Server.java", text }]), [
    "Server.java:10 server PUT /jobs/{} 1",
    "Server.java:11 server ANY /any/{} 1",
    "Server.java:13 server GET /v2/items 0.95",
    "Server.java:8 server GET /health 1",
    "Server.java:9 server POST /imports/{} 1",
  ]);
});

Deno.test("javaExtractor reads Micronaut controllers and the interfaces they implement", async () => {
  const api = `package com.shop;
import io.micronaut.http.annotation.*;
public interface BookApi {
  @Get("/featured")
  String featured();
}`;
  const controller = `package com.shop;
import io.micronaut.http.annotation.*;
@Controller("/books")
public class BookController implements BookApi {
  @Get
  public String list() { return ""; }
  @Get(uris = {"/{id}", "/by-isbn/{isbn}"})
  public String one() { return ""; }
  @Post(value = "/search{?q}", consumes = "application/json")
  public String search() { return ""; }
  public String featured() { return ""; }
}`;
  const settings = "micronaut:\n  server:\n    context-path: /mn\n";
  assert.deepEqual(
    await ports([
      { path: "shop/src/main/java/com/shop/BookApi.java", text: api },
      {
        path: "shop/src/main/java/com/shop/BookController.java",
        text: controller,
      },
      { path: "shop/src/main/resources/application.yml", text: settings },
    ]),
    [
      "shop/src/main/java/com/shop/BookApi.java:4 server GET /mn/books/featured 0.95",
      "shop/src/main/java/com/shop/BookController.java:5 server GET /mn/books 0.95",
      "shop/src/main/java/com/shop/BookController.java:7 server GET /mn/books/by-isbn/{} 0.95",
      "shop/src/main/java/com/shop/BookController.java:7 server GET /mn/books/{} 0.95",
      "shop/src/main/java/com/shop/BookController.java:9 server POST /mn/books/search 0.95",
    ],
  );
});

Deno.test("javaExtractor reads Quarkus reactive routes and skips failure handlers", async () => {
  const text = `import io.quarkus.vertx.web.Route;
import io.quarkus.vertx.web.RouteBase;
@RouteBase(path = "/reactive")
public class Routes {
  @Route(path = "/events/:id", methods = Route.HttpMethod.GET)
  void event() {}
  @Route(path = "/commands", methods = {Route.HttpMethod.POST, Route.HttpMethod.PUT})
  void command() {}
  @Route(path = "/status")
  void status() {}
  @Route(path = "/*", type = Route.HandlerType.FAILURE)
  void failed() {}
}`;
  assert.deepEqual(await ports([{ path: "Routes.java", text }]), [
    "Routes.java:5 server GET /reactive/events/{} 0.95",
    "Routes.java:7 server POST /reactive/commands 0.95",
    "Routes.java:7 server PUT /reactive/commands 0.95",
    "Routes.java:9 server ANY /reactive/status 0.95",
  ]);
});

Deno.test("javaExtractor needs the framework's import for a routing DSL", async () => {
  const text = `public class NotRoutes {
  void f(Router router, Javalin app) {
    get("/x", (req, res) -> "no");
    path("/p", () -> get("/y", (a, b) -> b));
  }
}`;
  assert.deepEqual(await ports([{ path: "NotRoutes.java", text }]), []);
});

Deno.test("javaExtractor reads the static files of Javalin apps and Vert.x routers", async () => {
  const javalin = `import io.javalin.Javalin;
import io.javalin.http.staticfiles.Location;
public class App {
  public static void main(String[] args) {
    Javalin app = Javalin.create(config -> {
      config.router.contextPath = "/shop";
      config.staticFiles.add("/public", Location.CLASSPATH);
      config.staticFiles.add(files -> {
        files.hostedPath = "/media";
        files.directory = "/media";
      });
      config.staticFiles.enableWebjars();
    });
    java.util.List<String> staticFiles = new java.util.ArrayList<>();
    staticFiles.add("/not-hosted");
  }
}`;
  const vertx = `import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.*;
class Web {
  void start(Router router) {
    router.route("/assets/*").handler(StaticHandler.create("webroot"));
    router.route("/api/*").handler(BodyHandler.create());
  }
}`;
  assert.deepEqual(
    await ports([
      { path: "App.java", text: javalin },
      { path: "Web.java", text: vertx },
    ]),
    [
      "App.java:12 server GET /shop/webjars/{} 0.95",
      "App.java:7 server GET /shop/{} 0.95",
      "App.java:8 server GET /shop/media/{} 0.95",
      "Web.java:5 server GET /assets/{} 1",
      "Web.java:5 server HEAD /assets/{} 1",
    ],
  );
});

Deno.test("javaExtractor reads Spark's static file locations", async () => {
  const text = `import static spark.Spark.*;
public class App {
  public static void main(String[] args) {
    staticFiles.location("/public");
    get("/hello", (req, res) -> "hi");
    java.util.Map<String, String> location = new java.util.HashMap<>();
    location.get("/not-a-route");
  }
}`;
  assert.deepEqual(await ports([{ path: "App.java", text }]), [
    "App.java:4 server GET /{} 1",
    "App.java:5 server GET /hello 1",
  ]);
});
