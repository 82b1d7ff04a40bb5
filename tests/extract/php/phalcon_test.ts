import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

async function routes(path: string, text: string): Promise<string[]> {
  const { ports } = await phpExtractor.extract([{ path, text }]);
  return summarize(ports);
}

Deno.test("phpExtractor reads Phalcon Micro routes, map()->via() and collection prefixes", async () => {
  const text = `<?php
use Phalcon\\Mvc\\Micro;
use Phalcon\\Mvc\\Micro\\Collection;
$app = new Micro();
$app->get('/ping', fn () => 'pong');
$app->map('/sign-in', fn () => 1)->via(['GET', 'POST']);
$app->map('/any', fn () => 1);
$orders = new Collection();
$orders->setHandler(new OrdersController());
$orders->setPrefix('/orders');
$orders->delete('/{id}', 'remove');
$app->mount($orders);
$session = new Session();
$session->get('/not-a-route', 'x');
`;
  assert.deepEqual(await routes("public/index.php", text), [
    "public/index.php:5 server GET /ping",
    "public/index.php:6 server GET /sign-in",
    "public/index.php:6 server POST /sign-in",
    "public/index.php:7 server ANY /any",
    "public/index.php:11 server DELETE /orders/{}",
  ]);
});

Deno.test("phpExtractor reads the Phalcon MVC router, its groups and methods", async () => {
  const text = `<?php
use Phalcon\\Mvc\\Router;
use Phalcon\\Mvc\\Router\\Group;
$router = new Router(false);
$router->addPatch('/carts/{id}', 'Carts::patch');
$router->add('/reports', 'Reports::run', ['GET', 'POST']);
$router->add('/legacy', 'Legacy::run')->via(['PUT']);
$admin = new Group(['module' => 'admin']);
$admin->setPrefix('/admin');
$admin->add('/stats', ['action' => 'stats']);
$router->mount($admin);
`;
  assert.deepEqual(await routes("app/config/router.php", text), [
    "app/config/router.php:5 server PATCH /carts/{}",
    "app/config/router.php:6 server GET /reports",
    "app/config/router.php:6 server POST /reports",
    "app/config/router.php:7 server PUT /legacy",
    "app/config/router.php:10 server ANY /admin/stats",
  ]);
});

Deno.test("phpExtractor reads Phalcon controllers' annotations, else their default URLs", async () => {
  const annotated = `<?php
use Phalcon\\Mvc\\Controller;
/**
 * @RoutePrefix('/api/books')
 */
class BooksController extends Controller
{
    /** @Get('/{id}') */
    public function showAction($id) {}
    /** @Route('/import', methods={'POST'}) */
    public function importAction() {}
    public function helperAction() {}
}
`;
  const plain = `<?php
use Phalcon\\Mvc\\Controller;
class ShelfItemsController extends Controller
{
    public function indexAction() {}
    public function moveAction($id, $to = null) {}
    public function helper() {}
}
`;
  const { ports } = await phpExtractor.extract([
    { path: "app/controllers/BooksController.php", text: annotated },
    { path: "app/controllers/ShelfItemsController.php", text: plain },
  ]);
  assert.deepEqual(summarize(ports), [
    "app/controllers/BooksController.php:9 server GET /api/books/{}",
    "app/controllers/BooksController.php:11 server POST /api/books/import",
    "app/controllers/ShelfItemsController.php:5 server ANY /shelf_items",
    "app/controllers/ShelfItemsController.php:5 server ANY /shelf_items/index",
    "app/controllers/ShelfItemsController.php:6 server ANY /shelf_items/move/{}",
  ]);
});
