import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("phpExtractor reads a Drupal module's routing.yml, skipping dynamic route callbacks", async () => {
  const text = `shop.cart:
  path: '/shop/cart/{cart}'
  defaults:
    _controller: '\\Drupal\\shop\\Controller\\Cart::view'
  methods: [GET, DELETE]
shop.settings:
  path: '/admin/config/shop'
  defaults:
    _form: '\\Drupal\\shop\\Form\\Settings'
shop.dynamic:
  route_callbacks:
    - '\\Drupal\\shop\\Routing\\Routes::routes'
`;
  const { ports } = await phpExtractor.extract([
    { path: "web/modules/custom/shop/shop.routing.yml", text },
    { path: "web/modules/custom/shop/shop.services.yml", text },
  ]);
  const file = "web/modules/custom/shop/shop.routing.yml";
  assert.deepEqual(summarize(ports), [
    `${file}:1 server DELETE /shop/cart/{}`,
    `${file}:1 server GET /shop/cart/{}`,
    `${file}:6 server ANY /admin/config/shop`,
  ]);
});
