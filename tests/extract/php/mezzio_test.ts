import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("phpExtractor reads Mezzio routes: verbs, route() method lists and any method", async () => {
  const text = `<?php
use Mezzio\\Application;
use Mezzio\\Router\\Route;
/** @var Application $app */
// $app->get('/commented', Handler::class);
$app->get('/books/{id:\\d+}', BookHandler::class);
$app->route('/orders/{id}', OrderHandler::class, ['GET', 'PATCH']);
$app->route('/hooks', HookHandler::class, Route::HTTP_METHOD_ANY);
$app->any('/echo', EchoHandler::class);
$app->pipe('/api', ApiMiddleware::class);
$container->get('/not-a-route', 'x');
`;
  const { ports } = await phpExtractor.extract([
    { path: "config/routes.php", text },
  ]);
  assert.deepEqual(summarize(ports), [
    "config/routes.php:6 server GET /books/{}",
    "config/routes.php:7 server GET /orders/{}",
    "config/routes.php:7 server PATCH /orders/{}",
    "config/routes.php:8 server ANY /hooks",
    "config/routes.php:9 server ANY /echo",
  ]);
});
