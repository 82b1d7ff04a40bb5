import assert from "node:assert/strict";
import { kotlinExtractor } from "../../../src/extract/kotlin/mod.ts";
import { assertRobust, loadFixture, only, portSummary } from "../_fixtures.ts";

const ORDERS = "orders/src/main/kotlin/com/acme/orders/";
const SHOP = "shop/src/main/kotlin/com/acme/shop/";

async function portsOf(prefix: string): Promise<string[]> {
  const files = await loadFixture("kotlin");
  const { ports, diagnostics } = await kotlinExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  return portSummary(ports.filter((p) => p.filePath.startsWith(prefix)));
}

Deno.test("kotlinExtractor reads Spring controllers with placeholders of the default profile", async () => {
  assert.deepEqual(await portsOf(`${ORDERS}OrderController.kt`), [
    `${ORDERS}OrderController.kt:12 server POST /api/v2/orders 0.95`,
    `${ORDERS}OrderController.kt:15 server GET /api/v2/orders/search 0.95`,
    `${ORDERS}OrderController.kt:15 server POST /api/v2/orders/search 0.95`,
    `${ORDERS}OrderController.kt:18 server DELETE /api/v2/orders/by-ref/{} 0.95`,
    `${ORDERS}OrderController.kt:18 server DELETE /api/v2/orders/{} 0.95`,
    `${ORDERS}OrderController.kt:9 server GET /api/v2/orders/{} 0.95`,
  ]);
});

Deno.test("kotlinExtractor serves a mapped interface only when a controller implements it", async () => {
  assert.deepEqual(await portsOf(`${ORDERS}ItemApi.kt`), [
    `${ORDERS}ItemApi.kt:12 server PUT /catalog/items/{} 0.95`,
    `${ORDERS}ItemApi.kt:9 server GET /catalog/items 0.95`,
  ]);
});

Deno.test("kotlinExtractor reads the router DSL under its nest prefixes", async () => {
  assert.deepEqual(await portsOf(`${ORDERS}Routes.kt`), [
    `${ORDERS}Routes.kt:10 server GET /fn 0.95`,
    `${ORDERS}Routes.kt:11 server POST /fn/{}/cancel 0.95`,
    `${ORDERS}Routes.kt:13 server GET /health 1`,
  ]);
});

Deno.test("kotlinExtractor reads Kafka consumers and producers", async () => {
  const files = await loadFixture("kotlin");
  const { ports } = await kotlinExtractor.extract(files);
  const queue = ports.filter((p) => p.ref.mechanism === "queue").map((p) =>
    `${p.ref.line} ${p.ref.role} ${p.ref.key} ${p.ref.detail?.library}`
  );
  assert.deepEqual(queue.sort(), [
    "15 server payments kafka-clients",
    "15 server refunds kafka-clients",
    "19 client orders.shipped kafka-clients",
    "20 client orders.created spring-kafka",
    "23 server inventory spring-kafka",
  ]);
});

Deno.test("kotlinExtractor reads Ktor routing with route prefixes and Route extensions", async () => {
  assert.deepEqual(await portsOf(`${SHOP}Application.kt`), [
    `${SHOP}Application.kt:11 server GET / 1`,
    `${SHOP}Application.kt:13 server GET /api/products/{} 0.95`,
    `${SHOP}Application.kt:14 server POST /api/products 0.95`,
    `${SHOP}Application.kt:19 server GET /legacy 1`,
    `${SHOP}Application.kt:27 server DELETE /api/admin/cache 0.95`,
    `${SHOP}Application.kt:32 server GET /cart 0.95`,
    `${SHOP}Application.kt:33 server PUT /cart/{} 0.95`,
  ]);
});

Deno.test("kotlinExtractor reads HTTP clients under their base URLs", async () => {
  assert.deepEqual(await portsOf(`${SHOP}Clients.kt`), [
    `${SHOP}Clients.kt:21 client GET /api/v2/orders/{} 0.95`,
    `${SHOP}Clients.kt:22 client DELETE /api/v2/orders/{} 0.8`,
    `${SHOP}Clients.kt:23 client GET /invoices/{} 0.8`,
    `${SHOP}Clients.kt:24 client POST /invoices 1`,
    `${SHOP}Clients.kt:25 client GET /stock/{} 0.8`,
    `${SHOP}Clients.kt:26 client POST /events 1`,
    `${SHOP}Clients.kt:27 client DELETE /events/{} 0.8`,
    `${SHOP}Clients.kt:32 client GET /users/{} 1`,
    `${SHOP}Clients.kt:35 client POST /users 1`,
  ]);
});

Deno.test("kotlinExtractor ignores maps, lists, strings and look-alike calls", async () => {
  assert.deepEqual(await portsOf(`${SHOP}NotRoutes.kt`), []);
  // the same routing calls without Ktor's import are not routes
  const files = only(await loadFixture("kotlin"), `${SHOP}Application.kt`)
    .map((f) => ({ ...f, text: f.text.replace(/^import io\.ktor.*$/gm, "") }));
  const { ports } = await kotlinExtractor.extract(files);
  assert.deepEqual(ports, []);
});

Deno.test("kotlinExtractor reads the annotations the grammar detaches from a class", async () => {
  // `@RequestMapping("/a")` before a class followed by another declaration
  // is read by the grammar as an expression of its own.
  const text = `package x

@RestController
@RequestMapping("/api/users")
class A(private val s: S) {
  @GetMapping("/{id}")
  fun get(@PathVariable id: String): String = s.get(id)
}

data class B(val base: String)
`;
  const { ports } = await kotlinExtractor.extract([{ path: "A.kt", text }]);
  assert.deepEqual(portSummary(ports), [
    "A.kt:6 server GET /api/users/{} 0.95",
  ]);
});

Deno.test("kotlinExtractor reads $name templates in strings", async () => {
  const text = `import io.ktor.server.routing.*
const val BASE = "/v1"
fun Application.m() {
  routing {
    get("$BASE/items/\${id}/\\$x") { }
    get("""$BASE/raw""") { }
  }
}
`;
  const { ports } = await kotlinExtractor.extract([{ path: "A.kt", text }]);
  assert.deepEqual(portSummary(ports), [
    "A.kt:5 server GET /v1/items/{}/$x 0.8",
    "A.kt:6 server GET /v1/raw 0.95",
  ]);
});

Deno.test("kotlinExtractor never rejects on malformed input", async () => {
  await assertRobust(kotlinExtractor, "A.kt", [
    "import io.ktor.server.routing.*\n",
    "@RestController\n",
    '@RequestMapping("/a")\n',
    "class A {",
    "}",
    '@GetMapping("/x") ',
    "fun f() {",
    'routing { get("/x") { } }',
    'route("/p") {',
    "val client = HttpClient(CIO)\n",
    'client.get("/u/$id")',
    '"',
    "(",
    ")",
    "\n",
  ]);
});

Deno.test("kotlinExtractor takes a constant from the module that uses it", async () => {
  const files = ["a", "b"].flatMap((m) => [
    {
      path: `${m}/src/main/kotlin/Routes.kt`,
      text: `object Routes {\n    const val ITEM = "/from-${m}"\n}\n`,
    },
    {
      path: `${m}/src/main/kotlin/ItemController.kt`,
      text: `@RestController
class ItemController {
    @GetMapping(Routes.ITEM)
    fun item() = "x"
}
`,
    },
  ]);
  const { ports } = await kotlinExtractor.extract(files);
  assert.deepEqual(portSummary(ports), [
    "a/src/main/kotlin/ItemController.kt:3 server GET /from-a 0.95",
    "b/src/main/kotlin/ItemController.kt:3 server GET /from-b 0.95",
  ]);
});
