import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

const M = "app/code/Acme/Shop";

Deno.test("phpExtractor reads Magento webapi.xml routes and routes.xml-named action controllers", async () => {
  const webapi = `<?xml version="1.0"?>
<routes>
    <!-- <route url="/V1/commented" method="GET"> -->
    <route url="/V1/carts/:cartId/items" method="POST">
        <service class="X" method="add"/>
    </route>
</routes>
`;
  const frontend = `<config><router id="standard">
  <route id="shop" frontName="store"><module name="Acme_Shop"/></route>
</router></config>`;
  const admin = `<config><router id="admin">
  <route id="shop_admin" frontName="shop_admin"><module name="Acme_Shop"/></route>
</router></config>`;
  const get = `<?php
namespace Acme\\Shop\\Controller\\Cart\\Item;
use Magento\\Framework\\App\\Action\\HttpGetActionInterface;
use Magento\\Framework\\App\\Action\\HttpPostActionInterface;
class Add implements HttpGetActionInterface, HttpPostActionInterface
{
    public function execute() {}
}
`;
  const index = `<?php
namespace Acme\\Shop\\Controller\\Index;
class Index extends \\Magento\\Framework\\App\\Action\\Action
{
    public function execute() {}
}
`;
  const edit = `<?php
namespace Acme\\Shop\\Controller\\Adminhtml\\Order;
class Edit extends \\Magento\\Backend\\App\\Action
{
    public function execute() {}
}
`;
  const notAnAction = `<?php
namespace Acme\\Shop\\Controller\\Support;
abstract class Base { abstract public function execute(); }
class Helper { public function run() {} }
`;
  const { ports } = await phpExtractor.extract([
    { path: `${M}/etc/webapi.xml`, text: webapi },
    { path: `${M}/etc/frontend/routes.xml`, text: frontend },
    { path: `${M}/etc/adminhtml/routes.xml`, text: admin },
    { path: `${M}/etc/di.xml`, text: webapi },
    { path: `${M}/Controller/Cart/Item/Add.php`, text: get },
    { path: `${M}/Controller/Index/Index.php`, text: index },
    { path: `${M}/Controller/Adminhtml/Order/Edit.php`, text: edit },
    { path: `${M}/Controller/Support/Helper.php`, text: notAnAction },
  ]);
  assert.deepEqual(summarize(ports), [
    `${M}/Controller/Adminhtml/Order/Edit.php:5 server ANY /admin/shop_admin/order/edit`,
    `${M}/Controller/Cart/Item/Add.php:7 server GET /store/cart_item/add`,
    `${M}/Controller/Cart/Item/Add.php:7 server POST /store/cart_item/add`,
    `${M}/Controller/Index/Index.php:5 server ANY /store`,
    `${M}/Controller/Index/Index.php:5 server ANY /store/index`,
    `${M}/Controller/Index/Index.php:5 server ANY /store/index/index`,
    `${M}/etc/webapi.xml:4 server POST /rest/V1/carts/{}/items`,
  ]);
});
