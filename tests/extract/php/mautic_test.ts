import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("phpExtractor reads a Mautic plugin's routes under their group's mount path", async () => {
  const text = `<?php
return [
    'routes' => [
        'main' => [
            'plugin_hello_index' => ['path' => '/hello/{page}', 'controller' => 'X::index'],
        ],
        'public' => [
            'plugin_hello_track' => ['path' => '/hello/track', 'method' => 'POST'],
        ],
        'api' => [
            'plugin_hello_api' => ['path' => '/hello', 'method' => 'GET|PUT'],
        ],
        'other' => [
            'plugin_hello_x' => ['path' => '/not-mounted'],
        ],
    ],
    'menu' => ['routes' => ['main' => ['x' => ['path' => '/not-a-route']]]],
];
`;
  const file = "plugins/HelloBundle/Config/config.php";
  const { ports } = await phpExtractor.extract([
    { path: file, text },
    { path: "app/config/config.php", text },
  ]);
  assert.deepEqual(summarize(ports), [
    `${file}:5 server ANY /s/hello/{}`,
    `${file}:8 server POST /hello/track`,
    `${file}:11 server GET /api/hello`,
    `${file}:11 server PUT /api/hello`,
  ]);
});
