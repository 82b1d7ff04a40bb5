import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import {
  assertRobust,
  loadFixture,
  only,
  portAt,
  summarize,
} from "../_fixtures.ts";

const DIR = "src/main/java/com/acme/";

Deno.test("javaExtractor finds Spring routes with class prefixes", async () => {
  const files = (await loadFixture("java")).filter((f) =>
    !f.path.endsWith("RoutesConfig.java")
  );
  const { ports, diagnostics } = await javaExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  const servers = ports.filter((p) => p.ref.role === "server");
  assert.deepEqual(summarize(servers), [
    `${DIR}HealthController.java:7 server GET /health`,
    `${DIR}PetsApi.java:6 server GET /v2/pets/{}`,
    `${DIR}PetsApi.java:9 server POST /v2/pets`,
    `${DIR}UserController.java:9 server GET /api/users`,
    `${DIR}UserController.java:14 server GET /api/users/{}`,
    `${DIR}UserController.java:19 server POST /api/users`,
    `${DIR}UserController.java:24 server PATCH /api/users/{}`,
    `${DIR}UserController.java:24 server PUT /api/users/{}`,
    `${DIR}UserController.java:29 server ANY /api/users/search`,
    `${DIR}UserController.java:34 server DELETE /api/users/by-name/{}`,
    `${DIR}UserController.java:34 server DELETE /api/users/{}`,
  ]);
  const get = portAt(servers, "UserController.java", 14)!;
  assert.equal(get.ref.confidence, 0.95);
  assert.equal(get.ref.col, 5);
  assert.equal(
    get.owner.qualifiedName,
    `${DIR}UserController.java::UserController.get`,
  );
  assert.equal(get.ref.detail.framework, "spring");
});

Deno.test("javaExtractor finds RestTemplate, WebClient and HttpRequest calls", async () => {
  const all = await loadFixture("java");
  const files = [
    ...only(all, `${DIR}OrderClient.java`),
    ...only(all, `${DIR}ApiPaths.java`),
  ];
  const { ports } = await javaExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    `${DIR}OrderClient.java:21 client GET /orders/{}`,
    `${DIR}OrderClient.java:25 client POST /orders`,
    `${DIR}OrderClient.java:29 client POST /orders/{}/cancel`,
    `${DIR}OrderClient.java:33 client GET /orders/{}`,
    `${DIR}OrderClient.java:37 client DELETE /orders/{}`,
    `${DIR}OrderClient.java:41 client GET /api/users`,
    `${DIR}OrderClient.java:42 client POST /api/users`,
  ]);
  const confidences = ports.map((p) => p.ref.confidence);
  assert.deepEqual(confidences, [0.8, 1, 0.8, 1, 1, 0.95, 1]);
  assert.equal(
    ports[0]!.owner.qualifiedName,
    `${DIR}OrderClient.java::OrderClient.find`,
  );
});

Deno.test("javaExtractor drops a client URL made only of unknown parts", async () => {
  const files = only(await loadFixture("java"), `${DIR}OrderClient.java`);
  const { ports } = await javaExtractor.extract(files);
  assert.equal(portAt(ports, "OrderClient.java", 41), undefined);
  assert.equal(ports.length, 6);
});

Deno.test("javaExtractor finds Spring functional routes with path and nest prefixes", async () => {
  const files = only(await loadFixture("java"), `${DIR}RoutesConfig.java`);
  const { ports } = await javaExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    `${DIR}RoutesConfig.java:14 server GET /pets/{}`,
    `${DIR}RoutesConfig.java:15 server POST /pets`,
    `${DIR}RoutesConfig.java:16 server DELETE /shop/v1/carts/{}`,
    `${DIR}RoutesConfig.java:23 server GET /api/owners/{}`,
    `${DIR}RoutesConfig.java:24 server PUT /api/owners/{}`,
    `${DIR}RoutesConfig.java:25 server GET /health`,
  ]);
  assert.equal(portAt(ports, "RoutesConfig.java", 23)!.ref.confidence, 0.95);
  assert.equal(portAt(ports, "RoutesConfig.java", 25)!.ref.confidence, 1);
});

Deno.test("javaExtractor treats Feign interfaces as clients", async () => {
  const all = await loadFixture("java");
  const files = [
    ...only(all, `${DIR}UsersClient.java`),
    ...only(all, `${DIR}ApiPaths.java`),
  ];
  const { ports } = await javaExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    `${DIR}UsersClient.java:7 client GET /api/users/{}`,
  ]);
  assert.equal(ports[0]!.ref.detail.framework, "feign");
});

Deno.test("javaExtractor ignores a mapped interface no controller implements", async () => {
  const files = only(await loadFixture("java"), `${DIR}UnusedApi.java`);
  const { ports } = await javaExtractor.extract(files);
  assert.deepEqual(ports, []);
});

Deno.test("javaExtractor ignores maps, loggers and untyped receivers", async () => {
  const files = only(await loadFixture("java"), `${DIR}Lookalikes.java`);
  const { ports } = await javaExtractor.extract(files);
  assert.deepEqual(ports, []);
});

Deno.test("javaExtractor never rejects on malformed input", async () => {
  await assertRobust(javaExtractor, "A.java", [
    "@RestController ",
    '@RequestMapping("/a") ',
    "class A {",
    "}",
    '@GetMapping("/x") ',
    "void f() {",
    'rest.getForObject("/u" + id);',
    "RestTemplate rest;",
    '"',
    "(",
    ")",
    "\n",
  ]);
});

const SHOP = "src/main/java/com/shop/";

Deno.test("javaExtractor finds JAX-RS resources under the application path", async () => {
  const files = await loadFixture("java_jaxrs");
  const { ports, diagnostics } = await javaExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  const servers = ports.filter((p) => p.ref.role === "server");
  assert.deepEqual(summarize(servers), [
    `${SHOP}InventoryApi.java:10 server GET /api/inventory/{}`,
    `${SHOP}InventoryApi.java:14 server POST /api/inventory`,
    `${SHOP}ItemResource.java:6 server GET /api/orders/{}/items`,
    `${SHOP}ItemResource.java:6 server GET /api/users/{}/orders/items`,
    `${SHOP}OrderResource.java:14 server GET /api/users/{}/orders`,
    `${SHOP}OrderResource.java:19 server GET /api/users/{}/orders/{}`,
    `${SHOP}OrdersRoot.java:5 server GET /api/orders`,
    `${SHOP}UserResource.java:11 server GET /api/users`,
    `${SHOP}UserResource.java:16 server GET /api/users/{}`,
    `${SHOP}UserResource.java:22 server POST /api/users`,
    `${SHOP}UserResource.java:28 server PUT /api/users/{}`,
    `${SHOP}UserResource.java:34 server DELETE /api/users/{}`,
    `${SHOP}UserResource.java:38 server HEAD /api/users/{}`,
    `${SHOP}UserResource.java:44 server PATCH /api/users/{}`,
    `${SHOP}UserResource.java:50 server OPTIONS /api/users`,
  ]);
  const get = portAt(servers, "UserResource.java", 16)!;
  assert.equal(get.ref.col, 5);
  assert.equal(get.ref.confidence, 0.95);
  assert.equal(get.ref.detail.framework, "jax-rs");
  assert.equal(get.ref.detail.path, "/api/users/{id: \\d+}");
  assert.equal(
    get.owner.qualifiedName,
    `${SHOP}UserResource.java::UserResource.get`,
  );
});

Deno.test("javaExtractor joins JAX-RS paths without an application path", async () => {
  const files = only(await loadFixture("java_jaxrs"), `${SHOP}UserResource`);
  const { ports } = await javaExtractor.extract(files);
  const list = portAt(ports, "UserResource.java", 11)!;
  assert.equal(list.ref.key, "GET /users");
  assert.equal(list.ref.confidence, 1);
  const put = portAt(ports, "UserResource.java", 28)!;
  assert.equal(put.ref.key, "PUT /users/{}");
  assert.equal(put.ref.confidence, 0.95);
  // A custom `@HttpMethod` verb and a locator whose class is not scanned
  // give nothing.
  assert.equal(portAt(ports, "UserResource.java", 55), undefined);
  assert.equal(portAt(ports, "UserResource.java", 61), undefined);
  assert.equal(ports.length, 8);
});

Deno.test("javaExtractor resolves constants in a JAX-RS @Path", async () => {
  const all = await loadFixture("java_jaxrs");
  const files = [
    ...only(all, `${SHOP}OrdersRoot.java`),
    ...only(all, `${SHOP}Paths.java`),
  ];
  const { ports } = await javaExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    `${SHOP}OrdersRoot.java:5 server GET /orders`,
  ]);
  assert.equal(ports[0]!.ref.confidence, 0.95);
});

Deno.test("javaExtractor treats REST client interfaces as clients", async () => {
  const files = await loadFixture("java_jaxrs");
  const { ports } = await javaExtractor.extract(files);
  const clients = ports.filter((p) => p.ref.role === "client");
  assert.deepEqual(summarize(clients), [
    `${SHOP}CatalogClient.java:9 client GET /catalog/products/{}`,
    `${SHOP}LegacyUsersApi.java:5 client GET /legacy/users/{}`,
    `${SHOP}PaymentsClient.java:12 client POST /payments`,
    `${SHOP}PaymentsClient.java:15 client GET /payments/{}`,
  ]);
  assert.ok(clients.every((p) => p.ref.detail.framework === "jax-rs"));
  // Without the proxy call site, the `@Path` interface is neither a server
  // nor a client.
  const alone = await javaExtractor.extract(
    only(files, `${SHOP}LegacyUsersApi.java`),
  );
  assert.deepEqual(alone.ports, []);
});

Deno.test("javaExtractor ignores unused @Path interfaces and JAX-RS look-alikes", async () => {
  const all = await loadFixture("java_jaxrs");
  const files = [
    ...only(all, `${SHOP}ReportsApi.java`),
    ...only(all, `${SHOP}lookalike/`),
    ...only(all, `${SHOP}ItemResource.java`),
    ...only(all, `${SHOP}InventoryApi.java`),
  ];
  const { ports } = await javaExtractor.extract(files);
  assert.deepEqual(ports, []);
});

Deno.test("javaExtractor never rejects on malformed JAX-RS input", async () => {
  await assertRobust(javaExtractor, "R.java", [
    "import jakarta.ws.rs.*;",
    '@Path("/a") ',
    '@ApplicationPath("/x") ',
    "class A extends Application {",
    "interface I {",
    "class B implements I {",
    "}",
    "@GET ",
    '@Path("{id: \\d+}") ',
    "B sub() {",
    "void f();",
    "@RegisterRestClient ",
    "build(I.class);",
    '"',
    "(",
    ")",
    "\n",
  ]);
});

Deno.test("javaExtractor reads a shared JAX-RS interface as server and client", async () => {
  const api = [
    "import jakarta.ws.rs.GET;",
    "import jakarta.ws.rs.Path;",
    '@Path("/orders")',
    "public interface OrdersApi {",
    '    @GET @Path("{id}") Order get(String id);',
    "}",
  ].join("\n");
  const impl = [
    "public class OrdersResource implements OrdersApi {",
    "    public Order get(String id) { return null; }",
    "}",
  ].join("\n");
  const caller = [
    "import org.eclipse.microprofile.rest.client.RestClientBuilder;",
    "class Caller {",
    "    OrdersApi api = RestClientBuilder.newBuilder().build(OrdersApi.class);",
    "}",
  ].join("\n");
  const { ports } = await javaExtractor.extract([
    { path: "OrdersApi.java", text: api },
    { path: "OrdersResource.java", text: impl },
    { path: "Caller.java", text: caller },
  ]);
  assert.deepEqual(summarize(ports), [
    "OrdersApi.java:5 client GET /orders/{}",
    "OrdersApi.java:5 server GET /orders/{}",
  ]);
});
