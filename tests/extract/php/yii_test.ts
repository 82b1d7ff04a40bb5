import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

async function routes(path: string, text: string): Promise<string[]> {
  const { ports } = await phpExtractor.extract([{ path, text }]);
  return summarize(ports);
}

Deno.test("phpExtractor reads Yii urlManager rules, rule arrays and REST rules", async () => {
  const text = `<?php
return [
    'components' => [
        'urlManager' => [
            'enablePrettyUrl' => true,
            'rules' => [
                'GET,HEAD books/<id:\\d+>' => 'book/view',
                'tags/<slug:[\\w-]+>' => 'tag/view',
                '<controller:\\w+>/<id:\\d+>' => '<controller>/view',
                ['pattern' => 'feeds/<kind>', 'route' => 'feed/show', 'verb' => 'POST'],
                ['class' => 'yii\\rest\\UrlRule', 'controller' => 'category'],
            ],
        ],
        'cache' => ['rules' => ['GET nope' => 'x/y']],
    ],
];
`;
  assert.deepEqual(await routes("config/web.php", text), [
    "config/web.php:7 server GET /books/{}",
    "config/web.php:7 server HEAD /books/{}",
    "config/web.php:8 server ANY /tags/{}",
    "config/web.php:10 server POST /feeds/{}",
    "config/web.php:11 server DELETE /categories/{}",
    "config/web.php:11 server GET /categories",
    "config/web.php:11 server GET /categories/{}",
    "config/web.php:11 server HEAD /categories",
    "config/web.php:11 server HEAD /categories/{}",
    "config/web.php:11 server OPTIONS /categories",
    "config/web.php:11 server OPTIONS /categories/{}",
    "config/web.php:11 server PATCH /categories/{}",
    "config/web.php:11 server POST /categories",
    "config/web.php:11 server PUT /categories/{}",
  ]);
});

Deno.test("phpExtractor reads Yii web controllers' actions, verb filters and ActiveController actions", async () => {
  const web = `<?php
namespace app\\controllers\\shop;
use yii\\web\\Controller;
use yii\\filters\\VerbFilter;
class OrderLineController extends Controller
{
    public function behaviors()
    {
        return ['verbs' => ['class' => VerbFilter::class, 'actions' => ['remove-all' => ['POST']]]];
    }
    public function actionIndex() {}
    public function actionRemoveAll() {}
    protected function actionHidden() {}
    public function helper() {}
}
`;
  const rest = `<?php
namespace app\\controllers;
use yii\\rest\\ActiveController;
class TagController extends ActiveController
{
}
`;
  const console = `<?php
namespace app\\commands;
use yii\\console\\Controller;
class SeedController extends Controller
{
    public function actionRun() {}
}
`;
  const { ports } = await phpExtractor.extract([
    { path: "controllers/shop/OrderLineController.php", text: web },
    { path: "controllers/TagController.php", text: rest },
    { path: "commands/SeedController.php", text: console },
  ]);
  assert.deepEqual(summarize(ports), [
    "controllers/TagController.php:4 server DELETE /tag/delete",
    "controllers/TagController.php:4 server GET /tag/index",
    "controllers/TagController.php:4 server GET /tag/view",
    "controllers/TagController.php:4 server HEAD /tag/index",
    "controllers/TagController.php:4 server HEAD /tag/view",
    "controllers/TagController.php:4 server OPTIONS /tag/options",
    "controllers/TagController.php:4 server PATCH /tag/update",
    "controllers/TagController.php:4 server POST /tag/create",
    "controllers/TagController.php:4 server PUT /tag/update",
    "controllers/shop/OrderLineController.php:11 server ANY /shop/order-line",
    "controllers/shop/OrderLineController.php:11 server ANY /shop/order-line/index",
    "controllers/shop/OrderLineController.php:12 server POST /shop/order-line/remove-all",
  ]);
});
