import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary } from "../_fixtures.ts";

async function ports(
  files: Array<{ path: string; text: string }>,
): Promise<string[]> {
  const { ports } = await javaExtractor.extract(files);
  return portSummary(ports);
}

Deno.test("javaExtractor keeps a mapping's path when javac would want `value =`", async () => {
  const text = `import org.springframework.web.bind.annotation.*;
@RestController
@RequestMapping("/orders")
class OrderController {
  @RequestMapping("/archive", method = RequestMethod.PUT)
  void archive() {}
  @RequestMapping("/bulk", method = {RequestMethod.GET, RequestMethod.POST})
  void bulk() {}
  @RequestMapping(method = RequestMethod.DELETE)
  void clear() {}
}`;
  assert.deepEqual(await ports([{ path: "OrderController.java", text }]), [
    "OrderController.java:5 server PUT /orders/archive 0.95",
    "OrderController.java:7 server GET /orders/bulk 0.95",
    "OrderController.java:7 server POST /orders/bulk 0.95",
    "OrderController.java:9 server DELETE /orders 0.95",
  ]);
});

Deno.test("javaExtractor reads a nest predicate combined with others", async () => {
  const text = `import org.springframework.web.servlet.function.*;
import static org.springframework.web.servlet.function.RequestPredicates.*;
class Routes {
  RouterFunction<ServerResponse> routes() {
    return RouterFunctions.route()
      .nest(path("/shop").and(accept(MediaType.APPLICATION_JSON)), b -> b
        .nest(RequestPredicates.path("/v2"), v2 -> v2.GET("/carts/{id}", h)))
      .nest(accept(MediaType.TEXT_HTML), b -> b.POST("/checkout", h))
      .build();
  }
}`;
  assert.deepEqual(await ports([{ path: "Routes.java", text }]), [
    "Routes.java:7 server GET /shop/v2/carts/{} 0.95",
    "Routes.java:8 server POST /checkout 1",
  ]);
});

Deno.test("javaExtractor resolves a placeholder whose default is a placeholder", async () => {
  const text = `import org.springframework.web.bind.annotation.*;
@RestController
@RequestMapping("\${app.fail.path:\${fail.path:/failure}}")
class FailureController {
  @RequestMapping
  String fail() { return ""; }
}`;
  const settings = "fail.path=/oops\n";
  assert.deepEqual(
    await ports([{ path: "src/main/java/FailureController.java", text }]),
    ["src/main/java/FailureController.java:5 server ANY /failure 0.95"],
  );
  assert.deepEqual(
    await ports([
      { path: "src/main/java/FailureController.java", text },
      { path: "src/main/resources/application.properties", text: settings },
    ]),
    ["src/main/java/FailureController.java:5 server ANY /oops 0.95"],
  );
});

Deno.test("javaExtractor serves the patterns of resource handlers", async () => {
  const text = `import org.springframework.web.servlet.config.annotation.*;
class Web implements WebMvcConfigurer {
  static final String FILES = "/files";
  public void addResourceHandlers(ResourceHandlerRegistry registry) {
    registry.addResourceHandler(FILES + "/**", "/favicon.ico")
      .addResourceLocations("classpath:/static/");
    registry.setOrder(1);
  }
}`;
  assert.deepEqual(await ports([{ path: "Web.java", text }]), [
    "Web.java:5 server GET /favicon.ico 1",
    "Web.java:5 server GET /files/{} 1",
  ]);
});
