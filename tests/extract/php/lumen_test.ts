import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

async function routes(path: string, text: string): Promise<string[]> {
  const { ports } = await phpExtractor.extract([{ path, text }]);
  return summarize(ports);
}

Deno.test("phpExtractor reads Lumen routes, addRoute and nested group prefixes", async () => {
  const text = `<?php
$router->get('/', fn () => $router->app->version());
$router->group(['prefix' => 'api', 'middleware' => 'auth'], function () use ($router) {
    $router->post('/orders', 'OrderController@store');
    $router->group(['prefix' => 'admin'], function () use ($router) {
        $router->addRoute(['PUT', 'PATCH'], '/flags/{id}', 'FlagController@set');
    });
});
$router->group(['namespace' => 'Legacy'], function () use ($router) {
    $router->delete('/sessions/{id}', 'SessionController@end');
});
$app->router->options('/probe', fn () => 1);
$router->get('/one-argument');
$route->get('/not-the-router', 'X@y');
`;
  assert.deepEqual(await routes("routes/web.php", text), [
    "routes/web.php:2 server GET /",
    "routes/web.php:4 server POST /api/orders",
    "routes/web.php:6 server PATCH /api/admin/flags/{}",
    "routes/web.php:6 server PUT /api/admin/flags/{}",
    "routes/web.php:10 server DELETE /sessions/{}",
    "routes/web.php:12 server OPTIONS /probe",
  ]);
});

Deno.test("phpExtractor reads $router only in a routes file or a Lumen one", async () => {
  const text = `<?php
$router->get('/cache-key', 'X@y');
`;
  assert.deepEqual(await routes("app/Support/Cache.php", text), []);
});
