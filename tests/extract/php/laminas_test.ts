import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("phpExtractor reads the Laminas router tree: segments, children, methods, hostnames, regex specs", async () => {
  const text = `<?php
use Laminas\\Router\\Http\\Literal;
use Laminas\\Router\\Http\\Segment;
use Laminas\\Router\\Http\\Method;
use Laminas\\Router\\Http\\Hostname;
return [
    'router' => [
        'routes' => [
            'album' => [
                'type' => Segment::class,
                'options' => ['route' => '/album[/:action[/:id]]'],
            ],
            'shop' => [
                'type' => Literal::class,
                'options' => ['route' => '/shop'],
                'may_terminate' => true,
                'child_routes' => [
                    'write' => [
                        'type' => Method::class,
                        'options' => ['verb' => 'post,put'],
                        'child_routes' => [
                            'cart' => ['type' => Literal::class, 'options' => ['route' => '/cart']],
                        ],
                    ],
                ],
            ],
            'files' => [
                'type' => 'Regex',
                'options' => ['regex' => '/f/(?<id>\\d+)', 'spec' => '/f/%id%'],
            ],
            'tenant' => [
                'type' => Hostname::class,
                'options' => ['route' => ':tenant.example.test'],
                'child_routes' => [
                    'ping' => ['type' => Literal::class, 'options' => ['route' => '/ping']],
                ],
            ],
        ],
    ],
    'view_manager' => ['routes' => [['options' => ['route' => '/not-a-route']]]],
];
`;
  const { ports } = await phpExtractor.extract([
    { path: "module/Shop/config/module.config.php", text },
  ]);
  const file = "module/Shop/config/module.config.php";
  assert.deepEqual(summarize(ports), [
    `${file}:9 server ANY /album`,
    `${file}:9 server ANY /album/{}`,
    `${file}:9 server ANY /album/{}/{}`,
    `${file}:13 server ANY /shop`,
    `${file}:22 server POST /shop/cart`,
    `${file}:22 server PUT /shop/cart`,
    `${file}:27 server ANY /f/{}`,
    `${file}:35 server ANY /ping`,
  ]);
});
