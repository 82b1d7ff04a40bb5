import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import {
  assertRobust,
  loadFixture,
  only,
  portAt,
  summarize,
} from "../_fixtures.ts";

Deno.test("phpExtractor composes Laravel groups, prefixes, resources and the api file prefix", async () => {
  const files = only(await loadFixture("php"), "laravel/routes/");
  const { ports, diagnostics } = await phpExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summarize(ports), [
    "laravel/routes/api.php:7 server GET /api/health",
    "laravel/routes/api.php:10 server GET /api/v1/orders/{}",
    "laravel/routes/api.php:11 server POST /api/v1/orders",
    "laravel/routes/api.php:12 server PATCH /api/v1/orders/{}",
    "laravel/routes/api.php:12 server PUT /api/v1/orders/{}",
    "laravel/routes/api.php:15 server DELETE /api/v1/admin/orders/{}",
    "laravel/routes/api.php:16 server GET /api/v1/admin/photos",
    "laravel/routes/api.php:16 server GET /api/v1/admin/photos/{}",
    "laravel/routes/api.php:20 server GET /api/me/profile",
    "laravel/routes/web.php:5 server ANY /webhook",
    "laravel/routes/web.php:6 server DELETE /posts/{}",
    "laravel/routes/web.php:6 server GET /posts",
    "laravel/routes/web.php:6 server GET /posts/{}",
    "laravel/routes/web.php:6 server PATCH /posts/{}",
    "laravel/routes/web.php:6 server POST /posts",
    "laravel/routes/web.php:6 server PUT /posts/{}",
  ]);
  assert.equal(portAt(ports, "routes/api.php", 10)!.ref.confidence, 0.95);
  assert.equal(portAt(ports, "routes/api.php", 10)!.ref.col, 5);
  assert.equal(portAt(ports, "routes/web.php", 5)!.ref.confidence, 1);
});

Deno.test("phpExtractor finds Guzzle calls against base_uri and Laravel Http calls", async () => {
  const files = only(await loadFixture("php"), "laravel/app/Services/");
  const { ports } = await phpExtractor.extract(files);
  const file = "laravel/app/Services/BillingClient.php";
  assert.deepEqual(summarize(ports), [
    `${file}:21 client GET /api/v1/invoices/{}`,
    `${file}:22 client POST /api/v1/invoices`,
    `${file}:23 client DELETE /api/v1/invoices/{}`,
    `${file}:24 client GET /api/v1/orders/{}`,
    `${file}:25 client POST /api/v1/orders/{}/refund`,
  ]);
  assert.equal(portAt(ports, "BillingClient.php", 22)!.ref.confidence, 0.95);
  assert.equal(
    portAt(ports, "BillingClient.php", 21)!.owner.qualifiedName,
    `${file}::BillingClient.invoice`,
  );
});

Deno.test("phpExtractor finds Slim routes and groups", async () => {
  const files = only(await loadFixture("php"), "slim/");
  const { ports } = await phpExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    "slim/public/index.php:9 server GET /hello/{}",
    "slim/public/index.php:14 server GET /api/items",
    "slim/public/index.php:14 server POST /api/items",
    "slim/public/index.php:15 server DELETE /api/items/{}",
  ]);
});

Deno.test("phpExtractor composes Symfony class and method Route attributes", async () => {
  const files = only(await loadFixture("php"), "symfony/");
  const { ports } = await phpExtractor.extract(files);
  const file = "symfony/src/Controller/OrderController.php";
  assert.deepEqual(summarize(ports), [
    `${file}:12 server GET /shop/orders/{}`,
    `${file}:18 server POST /shop/orders`,
    `${file}:18 server PUT /shop/orders`,
    `${file}:24 server ANY /shop/ping`,
  ]);
  assert.equal(
    portAt(ports, "OrderController.php", 12)!.owner.qualifiedName,
    `${file}::OrderController.show`,
  );
});

Deno.test("phpExtractor ignores arrays, loggers, facades and untyped receivers", async () => {
  const files = only(await loadFixture("php"), "laravel/app/Lookalikes.php");
  assert.equal(files.length, 1);
  const { ports } = await phpExtractor.extract(files);
  assert.deepEqual(ports, []);
});

Deno.test("phpExtractor never rejects on malformed input", async () => {
  await assertRobust(phpExtractor, "r.php", [
    "<?php ",
    'Route::get("/x", fn() => 1);',
    'Route::prefix("a")->group(function () {',
    "});",
    '$c = new Client(["base_uri" => "http://h/a/"]);',
    '$c->get("u");',
    "use GuzzleHttp\\Client;",
    '"',
    "(",
    ")",
    "\n",
  ]);
});

Deno.test("phpExtractor skips the routes a PHPUnit test case declares, keeps its client calls", async () => {
  const text = `<?php
namespace App\\Tests\\Controller;
use Symfony\\Bundle\\FrameworkBundle\\Test\\WebTestCase;
use Symfony\\Component\\Routing\\Attribute\\Route;
use GuzzleHttp\\Client;
class PingControllerTest extends WebTestCase
{
    #[Route('/only-in-tests', methods: ['GET'])]
    public function probe(): void {}
    public function testRoute(): void
    {
        Route::get('/registered-by-test', fn () => 1);
        $client = new Client(['base_uri' => 'http://billing.internal/']);
        $client->get('/invoices');
    }
}
`;
  const plain = text.replace("PingControllerTest extends WebTestCase", "Ping");
  const { ports } = await phpExtractor.extract([
    { path: "tests/Controller/PingControllerTest.php", text },
    { path: "src/Controller/Ping.php", text: plain },
  ]);
  assert.deepEqual(summarize(ports), [
    "src/Controller/Ping.php:8 server GET /only-in-tests",
    "src/Controller/Ping.php:12 server GET /registered-by-test",
    "src/Controller/Ping.php:14 client GET /invoices",
    "tests/Controller/PingControllerTest.php:14 client GET /invoices",
  ]);
});

Deno.test("phpExtractor never rejects on malformed input to the other routers", async () => {
  await assertRobust(phpExtractor, "app/Config/Routes.php", [
    "<?php ",
    "use Cake\\Routing\\RouteBuilder; use think\\facade\\Route; ",
    "use Mezzio\\Application; use Phalcon\\Mvc\\Micro; ",
    "use Hyperf\\HttpServer\\Router\\Router; ",
    '$routes->group("a/(:num)", function ($routes) {',
    '$routes->resource("p", ["only" => "index"]);',
    '$router->addRoute(["GET"], "/x", "h");',
    '$builder->connect("/c/*", [])->setMethods(["POST"]);',
    'Route::rule("r/:id", "x", "GET|");',
    'Router::addGroup("/g", function () {',
    '$app = new Micro(); $app->map("/m", fn () => 1)->via([]);',
    "'urlManager' => ['rules' => ['GET <id:\\d+>' => 'x']],",
    "'router' => ['routes' => ['a' => ['options' => ['route' => '/a[/:b[/:c]]']]]],",
    "register_rest_route('n', '/(?P<id>(a|b)', []);",
    "$_GET['q'];",
    "});",
    "[",
    "]",
    '"',
    "\n",
  ]);
});
