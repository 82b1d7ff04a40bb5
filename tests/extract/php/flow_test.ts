import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("phpExtractor follows a Guzzle wrapper's path parameter to the services that call it", async () => {
  const { ports } = await phpExtractor.extract([
    {
      path: "src/Http/ApiClient.php",
      text: [
        "<?php",
        "use GuzzleHttp\\Client;",
        "class ApiClient {",
        "    private Client $http;",
        "    public function __construct() {",
        "        $this->http = new Client(['base_uri' => 'http://orders-svc']);",
        "    }",
        "    public function send(string $method, string $path) {",
        "        return $this->http->request('POST', $path);",
        "    }",
        "}",
      ].join("\n"),
    },
    {
      path: "src/Orders/OrderService.php",
      text: [
        "<?php",
        "class OrderService {",
        "    public function __construct(private ApiClient $api) {}",
        "    public function place() { return $this->api->send('POST', '/orders'); }",
        "    public function cancel($id) { return $this->api->send('POST', '/orders/' . $id . '/cancel'); }",
        "}",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "src/Orders/OrderService.php:4 client POST /orders 0.95",
    "src/Orders/OrderService.php:5 client POST /orders/{}/cancel 0.8",
  ]);
});

Deno.test("phpExtractor prefixes routes with a class constant built from another", async () => {
  const { ports } = await phpExtractor.extract([
    {
      path: "src/Paths.php",
      text: [
        "<?php",
        "class Paths {",
        "    const BASE = '/api';",
        "    const V1 = self::BASE . '/v1';",
        "}",
      ].join("\n"),
    },
    {
      path: "routes/web.php",
      text: [
        "<?php",
        "Route::prefix(Paths::V1)->group(function () {",
        "    Route::get('/users', [UserController::class, 'index']);",
        "});",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "routes/web.php:3 server GET /api/v1/users 0.95",
  ]);
});

Deno.test("phpExtractor registers a function's routes in the group each caller calls it from", async () => {
  const { ports } = await phpExtractor.extract([
    {
      path: "app/routes.php",
      text: [
        "<?php",
        "use Slim\\Factory\\AppFactory;",
        "use Slim\\Routing\\RouteCollectorProxy;",
        "$app = AppFactory::create();",
        "$app->group('/api', function (RouteCollectorProxy $group) {",
        "    registerUserRoutes($group);",
        "});",
        "Route::prefix('admin')->group(function () {",
        "    AdminRoutes::register();",
        "});",
      ].join("\n"),
    },
    {
      path: "app/users.php",
      text: [
        "<?php",
        "use Slim\\Routing\\RouteCollectorProxy;",
        "function registerUserRoutes(RouteCollectorProxy $group) {",
        "    $group->get('/users', 'UserController:list');",
        "}",
        "class AdminRoutes {",
        "    public static function register() {",
        "        Route::delete('/users/{id}', [AdminController::class, 'destroy']);",
        "    }",
        "}",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "app/users.php:4 server GET /api/users 0.95",
    "app/users.php:8 server DELETE /admin/users/{} 0.95",
  ]);
});
