import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("phpExtractor reads Hyperf's router file: verbs, addRoute and nested addGroup prefixes", async () => {
  const text = `<?php
use Hyperf\\HttpServer\\Router\\Router;
Router::addRoute(['GET', 'HEAD'], '/feed', 'App\\Controller\\FeedController@index');
Router::addGroup('/v2', function () {
    Router::put('/carts/{id}', [CartController::class, 'update']);
    Router::addGroup('/ops', function () {
        Router::options('/probe', [OpsController::class, 'probe']);
    });
});
Router::get('/lonely');
Cache::get('/not-a-route', 'x');
`;
  const { ports } = await phpExtractor.extract([
    { path: "config/hyperf_routes.php", text },
  ]);
  assert.deepEqual(summarize(ports), [
    "config/hyperf_routes.php:3 server GET /feed",
    "config/hyperf_routes.php:3 server HEAD /feed",
    "config/hyperf_routes.php:5 server PUT /v2/carts/{}",
    "config/hyperf_routes.php:7 server OPTIONS /v2/ops/probe",
  ]);
});

Deno.test("phpExtractor reads Hyperf controller annotations: relative and absolute paths, AutoController", async () => {
  const text = `<?php
namespace App\\Controller\\Shop;
use Hyperf\\HttpServer\\Annotation\\Controller;
use Hyperf\\HttpServer\\Annotation\\AutoController;
use Hyperf\\HttpServer\\Annotation\\GetMapping;
use Hyperf\\HttpServer\\Annotation\\RequestMapping;
#[Controller(prefix: "orders")]
class OrderController
{
    #[GetMapping(path: "")]
    public function list() {}
    #[GetMapping(path: "{id}")]
    public function show() {}
    #[RequestMapping(path: "/health", methods: "GET,HEAD")]
    public function health() {}
    #[RequestMapping(path: "sync")]
    public function sync() {}
    public function helper() {}
}
#[AutoController]
class CartItemController
{
    public function index() {}
    private function hidden() {}
}
`;
  const file = "app/Controller/Shop/OrderController.php";
  const { ports } = await phpExtractor.extract([{ path: file, text }]);
  assert.deepEqual(summarize(ports), [
    `${file}:10 server GET /orders`,
    `${file}:12 server GET /orders/{}`,
    `${file}:14 server GET /health`,
    `${file}:14 server HEAD /health`,
    `${file}:16 server GET /orders/sync`,
    `${file}:16 server POST /orders/sync`,
    `${file}:23 server GET /shop/cart_item`,
    `${file}:23 server GET /shop/cart_item/index`,
  ]);
});
