import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

async function routes(path: string, text: string): Promise<string[]> {
  const { ports } = await phpExtractor.extract([{ path, text }]);
  return summarize(ports);
}

Deno.test("phpExtractor reads Laravel's query, view, redirect and addRoute registrars", async () => {
  const text = `<?php
use Illuminate\\Support\\Facades\\Route;
Route::query('/find', [SearchController::class, 'find']);
Route::view('/about', 'pages.about');
Route::redirect('/old-home', '/');
Route::addRoute(['PUT', 'query'], '/bulk', fn () => 1);
Route::match(['get', 'query'], '/lookup', fn () => 1);
Route::middleware('auth')->query('/audit', fn () => 1);
Route::view('/lonely');
$db->query('/not-a-route', 'x');
Cache::redirect('/not-a-route', '/x');
`;
  assert.deepEqual(await routes("routes/web.php", text), [
    "routes/web.php:3 server QUERY /find",
    "routes/web.php:4 server GET /about",
    "routes/web.php:5 server ANY /old-home",
    "routes/web.php:6 server PUT /bulk",
    "routes/web.php:6 server QUERY /bulk",
    "routes/web.php:7 server GET /lookup",
    "routes/web.php:7 server QUERY /lookup",
    "routes/web.php:8 server QUERY /audit",
  ]);
});

Deno.test("phpExtractor skips routes registered inside a route's handler, keeps group routes", async () => {
  const text = `<?php
use Illuminate\\Support\\Facades\\Route;
Route::get('/outer', function () {
    Route::get('/inner', fn () => 1);
});
Route::any('/hook', function () {
    Route::post('/inner-any', fn () => 1);
});
Route::middleware('auth')->prefix('p')->post('/chained', function () {
    Route::view('/inner-view', 'v');
});
Route::prefix('admin')->group(function () {
    Route::get('/users', fn () => 1);
});
`;
  assert.deepEqual(await routes("routes/web.php", text), [
    "routes/web.php:3 server GET /outer",
    "routes/web.php:6 server ANY /hook",
    "routes/web.php:9 server POST /p/chained",
    "routes/web.php:13 server GET /admin/users",
  ]);
});
