import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

async function routes(path: string, text: string): Promise<string[]> {
  const { ports } = await phpExtractor.extract([{ path, text }]);
  return summarize(ports);
}

Deno.test("phpExtractor reads CodeIgniter routes, groups, placeholders, resources and presenters", async () => {
  const text = `<?php
$routes->get('/', 'Home::index');
$routes->put('orders/(:num)', 'Orders::update/$1');
$routes->match(['get', 'post'], 'signup', 'Auth::signup');
$routes->add('hook', 'Hook::any');
$routes->group('shop/(:segment)', ['filter' => 'auth'], function ($routes) {
    $routes->group('cart', function ($routes) {
        $routes->delete('items/(:any)', 'Cart::remove/$1');
    });
});
$routes->environment('development', function ($routes) {
    $routes->get('tools', 'Tools::index');
});
$routes->resource('books', ['only' => ['index', 'show']]);
$routes->presenter('notes', ['except' => 'remove,delete,edit,update,new,create']);
$routes->setAutoRoute(false);
$other->get('not-a-route', 'X::y');
`;
  assert.deepEqual(await routes("app/Config/Routes.php", text), [
    "app/Config/Routes.php:2 server GET /",
    "app/Config/Routes.php:3 server PUT /orders/{}",
    "app/Config/Routes.php:4 server GET /signup",
    "app/Config/Routes.php:4 server POST /signup",
    "app/Config/Routes.php:5 server ANY /hook",
    "app/Config/Routes.php:8 server DELETE /shop/{}/cart/items/{}",
    "app/Config/Routes.php:12 server GET /tools",
    "app/Config/Routes.php:14 server GET /books",
    "app/Config/Routes.php:14 server GET /books/{}",
    "app/Config/Routes.php:15 server GET /notes",
    "app/Config/Routes.php:15 server GET /notes/show/{}",
    "app/Config/Routes.php:15 server GET /notes/{}",
  ]);
});

Deno.test("phpExtractor reads $routes only in a CodeIgniter routes file", async () => {
  const text = `<?php
$routes->get('cache/entries', 'X::y');
$routes->resource('items');
`;
  assert.deepEqual(await routes("app/Services/Lookup.php", text), []);
});
