import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

async function routes(path: string, text: string): Promise<string[]> {
  const { ports } = await phpExtractor.extract([{ path, text }]);
  return summarize(ports);
}

Deno.test("phpExtractor reads CakePHP scopes, prefixes, connect methods and resources", async () => {
  const text = `<?php
use Cake\\Routing\\RouteBuilder;
return static function (RouteBuilder $routes) {
    $routes->scope('/', function (RouteBuilder $b) {
        $b->connect('/docs/*', ['controller' => 'Docs', 'action' => 'show']);
        $b->connect('/quit', ['controller' => 'Users', 'action' => 'quit'])->setMethods(['POST']);
        $b->connect('/hook', ['controller' => 'Hooks', '_method' => ['PUT', 'PATCH']]);
        $b->get('/posts/:slug', ['controller' => 'Posts', 'action' => 'view']);
        $b->resources('BlogPosts', ['only' => ['index', 'delete']]);
    });
    $routes->prefix('SiteAdmin', function (RouteBuilder $b) {
        $b->post('/flags', ['controller' => 'Flags', 'action' => 'add']);
    });
    $routes->prefix('v2', ['path' => '/api/v2.0'], function (RouteBuilder $b) {
        $b->delete('/tokens/{id}', ['controller' => 'Tokens', 'action' => 'delete']);
    });
    $routes->setRouteClass('DashedRoute');
    $cache->get('/not-a-route');
};
`;
  assert.deepEqual(await routes("config/routes.php", text), [
    "config/routes.php:5 server ANY /docs/{}",
    "config/routes.php:6 server POST /quit",
    "config/routes.php:7 server PATCH /hook",
    "config/routes.php:7 server PUT /hook",
    "config/routes.php:8 server GET /posts/{}",
    "config/routes.php:9 server DELETE /blog-posts/{}",
    "config/routes.php:9 server GET /blog-posts",
    "config/routes.php:12 server POST /site-admin/flags",
    "config/routes.php:15 server DELETE /api/v2.0/tokens/{}",
  ]);
});

Deno.test("phpExtractor reads route builders only in files using CakePHP routing", async () => {
  const text = `<?php
$builder->connect('/db', ['host' => 'x']);
$builder->resources('Things');
`;
  assert.deepEqual(await routes("config/bootstrap.php", text), []);
});
