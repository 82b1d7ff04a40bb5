import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

async function routes(path: string, text: string): Promise<string[]> {
  const { ports } = await phpExtractor.extract([{ path, text }]);
  return summarize(ports);
}

Deno.test("phpExtractor reads ThinkPHP rules, resources, groups and an application's prefix", async () => {
  const text = `<?php
use think\\facade\\Route;
Route::get('item/:id', 'item/read');
Route::rule('sync', 'job/sync', 'PUT|POST');
Route::rule('ping', 'misc/ping');
Route::resource('note', 'Note');
Route::group('panel', function () {
    Route::delete('cache/<key>', 'panel.Cache/clear');
});
Route::miss('misc/missing');
`;
  assert.deepEqual(await routes("app/shop/route/app.php", text), [
    "app/shop/route/app.php:3 server GET /shop/item/{}",
    "app/shop/route/app.php:4 server POST /shop/sync",
    "app/shop/route/app.php:4 server PUT /shop/sync",
    "app/shop/route/app.php:5 server ANY /shop/ping",
    "app/shop/route/app.php:6 server DELETE /shop/note/{}",
    "app/shop/route/app.php:6 server GET /shop/note",
    "app/shop/route/app.php:6 server GET /shop/note/create",
    "app/shop/route/app.php:6 server GET /shop/note/{}",
    "app/shop/route/app.php:6 server GET /shop/note/{}/edit",
    "app/shop/route/app.php:6 server POST /shop/note",
    "app/shop/route/app.php:6 server PUT /shop/note/{}",
    "app/shop/route/app.php:8 server DELETE /shop/panel/cache/{}",
  ]);
});

Deno.test("phpExtractor reads ThinkPHP controllers' annotated routes and controller/action URLs", async () => {
  const text = `<?php
namespace app\\controller\\admin;
use think\\Request;
class OrderItemController
{
    #[Route('latest', 'GET')]
    public function index() {}
    /**
     * @Route("items/:id", "GET|DELETE")
     */
    public function show($id) {}
    protected function helper() {}
    public static function make() {}
    public function __construct() {}
}
`;
  const file = "app/controller/admin/OrderItemController.php";
  assert.deepEqual(await routes(file, text), [
    `${file}:6 server ANY /admin.order_item`,
    `${file}:6 server ANY /admin.order_item/index`,
    `${file}:6 server GET /latest`,
    `${file}:11 server ANY /admin.order_item/show`,
    `${file}:11 server DELETE /items/{}`,
    `${file}:11 server GET /items/{}`,
  ]);
});

Deno.test("phpExtractor reads no ThinkPHP URLs from other frameworks' controllers", async () => {
  const text = `<?php
namespace App\\Http\\Controllers;
class OrderController extends BaseController
{
    public function index() {}
}
`;
  assert.deepEqual(
    await routes("app/Http/Controllers/OrderController.php", text),
    [],
  );
});
