import assert from "node:assert/strict";
import { csharpExtractor } from "../../../src/extract/csharp/mod.ts";
import {
  assertRobust,
  loadFixture,
  only,
  portAt,
  summarize,
} from "../_fixtures.ts";

Deno.test("csharpExtractor finds minimal API routes with MapGroup prefixes", async () => {
  const files = only(await loadFixture("csharp"), "Api/Program.cs");
  const { ports, diagnostics } = await csharpExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summarize(ports), [
    "Api/Program.cs:4 server GET /health",
    "Api/Program.cs:9 server GET /api/orders",
    "Api/Program.cs:10 server GET /api/orders/{}",
    "Api/Program.cs:11 server POST /api/orders",
    "Api/Program.cs:12 server GET /api/ping",
    "Api/Program.cs:12 server HEAD /api/ping",
    "Api/Program.cs:13 server DELETE /admin/cache",
    "Api/Program.cs:14 server ANY /fallback",
  ]);
  assert.equal(portAt(ports, "Program.cs", 4)!.ref.confidence, 1);
  assert.equal(portAt(ports, "Program.cs", 10)!.ref.confidence, 0.95);
  assert.equal(portAt(ports, "Program.cs", 10)!.owner.kind, "module");
});

Deno.test("csharpExtractor takes extension-method groups from their call sites", async () => {
  const all = await loadFixture("csharp");
  const files = [
    ...only(all, "Api/Program.cs"),
    ...only(all, "Api/TodoEndpoints.cs"),
  ];
  const { ports } = await csharpExtractor.extract(files);
  const todos = ports.filter((p) => p.filePath === "Api/TodoEndpoints.cs");
  assert.deepEqual(summarize(todos), [
    "Api/TodoEndpoints.cs:7 server GET /todos",
    "Api/TodoEndpoints.cs:8 server PUT /todos/{}",
  ]);
  assert.equal(
    todos[0]!.owner.qualifiedName,
    "Api/TodoEndpoints.cs::TodoEndpoints.MapTodosApi",
  );
  // Without the call site the group prefix is unknown: the bare paths.
  const alone = await csharpExtractor.extract(
    only(all, "Api/TodoEndpoints.cs"),
  );
  assert.deepEqual(summarize(alone.ports), [
    "Api/TodoEndpoints.cs:7 server GET /",
    "Api/TodoEndpoints.cs:8 server PUT /{}",
  ]);
  assert.equal(alone.ports[0]!.ref.confidence, 0.8);
});

Deno.test("csharpExtractor composes controller routes and [controller] tokens", async () => {
  const files = only(await loadFixture("csharp"), "Api/Controllers/Users");
  const { ports } = await csharpExtractor.extract(files);
  const file = "Api/Controllers/UsersController.cs";
  assert.deepEqual(summarize(ports), [
    `${file}:9 server GET /api/Users`,
    `${file}:12 server GET /api/Users/{}`,
    `${file}:15 server POST /api/Users`,
    `${file}:18 server PUT /api/Users/{}/Rename`,
    `${file}:21 server DELETE /legacy/users/{}`,
    `${file}:24 server ANY /api/Users/search`,
  ]);
  const get = portAt(ports, "UsersController.cs", 12)!;
  assert.equal(get.ref.col, 5);
  assert.equal(get.owner.qualifiedName, `${file}::UsersController.Get`);
  assert.equal(portAt(ports, "UsersController.cs", 21)!.ref.confidence, 1);
});

Deno.test("csharpExtractor fills [area], [controller] and [action] tokens", async () => {
  const files = only(await loadFixture("csharp"), "Api/Controllers/Reports");
  const { ports } = await csharpExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    "Api/Controllers/ReportsController.cs:9 server GET /Admin/Reports/Yearly/{}",
  ]);
});

Deno.test("csharpExtractor finds HttpClient calls and request messages", async () => {
  const files = only(await loadFixture("csharp"), "Web/OrdersClient.cs");
  const { ports } = await csharpExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    "Web/OrdersClient.cs:18 client GET /api/orders/{}",
    "Web/OrdersClient.cs:22 client POST /api/orders",
    "Web/OrdersClient.cs:27 client DELETE /api/orders/{}",
    "Web/OrdersClient.cs:33 client HEAD /api/ping",
    "Web/OrdersClient.cs:35 client GET /api/users",
  ]);
  assert.deepEqual(ports.map((p) => p.ref.confidence), [
    0.8,
    0.95,
    0.8,
    1,
    0.8,
  ]);
});

Deno.test("csharpExtractor ignores loggers, dictionaries and other receivers", async () => {
  const files = only(await loadFixture("csharp"), "Web/Lookalikes.cs");
  const { ports } = await csharpExtractor.extract(files);
  assert.deepEqual(ports, []);
});

Deno.test("csharpExtractor never rejects on malformed input", async () => {
  await assertRobust(csharpExtractor, "P.cs", [
    'app.MapGet("/x", () => 1);',
    'var g = app.MapGroup("/a");',
    "g.MapPost(",
    '[Route("api/[controller]")]',
    "class XController {",
    "}",
    '[HttpGet("{id}")]',
    "void F() {",
    '"',
    "(",
    ")",
    "\n",
  ]);
});

Deno.test("csharpExtractor gives conventionally routed actions their MapControllerRoute URLs", async () => {
  const files = only(await loadFixture("csharp_conventional"), "Shop/");
  const { ports, diagnostics } = await csharpExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  const admin = "Shop/Areas/Admin/Controllers/DashboardController.cs";
  const blog = "Shop/Controllers/BlogController.cs";
  const home = "Shop/Controllers/HomeController.cs";
  const orders = "Shop/Controllers/OrdersController.cs";
  const invoices = "Shop/Controllers/Api/InvoicesController.cs";
  assert.deepEqual(summarize(ports), [
    // MapAreaControllerRoute("admin", "Admin", "Admin/{controller=Dashboard}/...")
    `${admin}:8 server ANY /Admin`,
    `${admin}:8 server ANY /Admin/Dashboard`,
    `${admin}:8 server ANY /Admin/Dashboard/Index`,
    `${admin}:10 server ANY /Admin/Dashboard/Users`,
    `${admin}:10 server ANY /Admin/Dashboard/Users/{}`,
    // `[Route]` and `[ApiController]` inherited from a base controller
    `${invoices}:14 server GET /api/Invoices`,
    `${invoices}:17 server GET /api/Invoices/{}`,
    // the dedicated "blog/{*article}" route and the default route
    `${blog}:7 server ANY /Blog/Article`,
    `${blog}:7 server ANY /blog`,
    `${blog}:7 server ANY /blog/{}`,
    `${blog}:9 server ANY /Blog`,
    `${blog}:9 server ANY /Blog/Index`,
    // attribute-routed: unchanged
    `${blog}:16 server GET /api/posts`,
    `${home}:7 server ANY /`,
    `${home}:7 server ANY /Home`,
    `${home}:7 server ANY /Home/Index`,
    `${home}:9 server GET /Home/Privacy`,
    `${home}:12 server POST /Home/Contact`,
    `${orders}:7 server ANY /Orders`,
    `${orders}:7 server ANY /Orders/Index`,
    `${orders}:9 server ANY /Orders/Details`,
    `${orders}:9 server ANY /Orders/Details/{}`,
    `${orders}:11 server POST /Orders/Cancel`,
    `${orders}:11 server POST /Orders/Cancel/{}`,
    `${orders}:15 server GET /Orders/Summary`,
    `${orders}:15 server HEAD /Orders/Summary`,
    `${orders}:18 server GET /orders/export`,
    "Shop/Program.cs:14 server GET /health",
  ]);
  const index = portAt(ports, "HomeController.cs", 7)!;
  assert.equal(index.ref.col, 26);
  assert.equal(index.ref.confidence, 0.95);
  assert.equal(index.owner.qualifiedName, `${home}::HomeController.Index`);
  assert.equal(index.ref.detail.routing, "conventional");
  assert.equal(index.ref.detail.route, "default");
  assert.equal(
    index.ref.detail.pattern,
    "{controller=Home}/{action=Index}/{id?}",
  );
  assert.equal(portAt(ports, "HomeController.cs", 9)!.ref.col, 5);
  assert.equal(portAt(ports, "OrdersController.cs", 18)!.ref.confidence, 1);
});

Deno.test("csharpExtractor reads MapRoute, UseMvc, UseEndpoints and MapDefaultControllerRoute registrations", async () => {
  const all = await loadFixture("csharp_conventional");
  const legacy = await csharpExtractor.extract(only(all, "Legacy/"));
  const products = "Legacy/Controllers/ProductsController.cs";
  assert.deepEqual(summarize(legacy.ports), [
    `${products}:5 server ANY /Products`,
    `${products}:5 server ANY /Products/Index`,
    `${products}:7 server ANY /Products/Edit`,
    `${products}:7 server ANY /Products/Edit/{}`,
    `${products}:9 server POST /Products/Edit`,
    `${products}:9 server POST /Products/Edit/{}`,
  ]);
  const coreTwo = await csharpExtractor.extract(only(all, "CoreTwo/"));
  assert.deepEqual(summarize(coreTwo.ports), [
    "CoreTwo/Controllers/AccountController.cs:5 server GET /Account/Login",
    "CoreTwo/Controllers/AccountController.cs:8 server POST /Account/Login",
  ]);
  const endpoints = await csharpExtractor.extract(only(all, "Endpoints/"));
  const billing = "Endpoints/Areas/Billing/Controllers/HomeController.cs";
  assert.deepEqual(summarize(endpoints.ports), [
    // "{area:exists}/{controller=Home}/..." reaches area controllers only
    `${billing}:8 server ANY /Billing`,
    `${billing}:8 server ANY /Billing/Home`,
    `${billing}:8 server ANY /Billing/Home/Index`,
    `${billing}:10 server DELETE /Billing/Home/Refund`,
    `${billing}:10 server DELETE /Billing/Home/Refund/{}`,
    "Endpoints/Controllers/HomeController.cs:5 server ANY /",
    "Endpoints/Controllers/HomeController.cs:5 server ANY /Home",
    "Endpoints/Controllers/HomeController.cs:5 server ANY /Home/Index",
  ]);
});

Deno.test("csharpExtractor gives no ports to controllers without a conventional route", async () => {
  const all = await loadFixture("csharp_conventional");
  // No registration at all: not even `[HttpGet]` actions get a port.
  const bare = await csharpExtractor.extract(only(all, "NoRoutes/"));
  assert.deepEqual(bare.ports, []);
  // `MapRoute` of other libraries registers nothing.
  const lookalikes = await csharpExtractor.extract(only(all, "Lookalikes/"));
  assert.equal(lookalikes.ports.length, 0);
});

Deno.test("csharpExtractor never rejects on malformed conventional routes", async () => {
  await assertRobust(csharpExtractor, "P.cs", [
    'app.MapControllerRoute("d", "{controller=Home}/{action=Index}/{id?}");',
    'app.MapControllerRoute(name: "x", pattern: "{a{b}/{*c}}");',
    'app.MapAreaControllerRoute("a", "Admin", "Admin/{controller}/{action}");',
    "app.MapDefaultControllerRoute();",
    "routes.MapRoute(",
    'new { controller = "Home", id = UrlParameter.Optional }',
    "public class HomeController : Controller {",
    '[Area("Admin")]',
    "[HttpPost]",
    "[NonAction]",
    "public IActionResult Index(int id) => View();",
    "}",
    '"',
    "(",
    ")",
    "\n",
  ]);
});
