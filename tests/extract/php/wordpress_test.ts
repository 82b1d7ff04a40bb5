import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("phpExtractor reads WordPress REST routes, their method constants and regex paths", async () => {
  const text = `<?php
add_action('rest_api_init', function () {
    register_rest_route('shop/v1', '/orders/(?P<id>\\d+)', [
        ['methods' => WP_REST_Server::READABLE, 'callback' => 'get_order'],
        ['methods' => 'DELETE', 'callback' => 'delete_order'],
    ]);
    register_rest_route('shop/v1/', 'carts(?:/(?P<cart>[a-z]+))?', array(
        'methods' => array('PUT'),
        'callback' => 'put_cart',
    ));
    register_rest_route('shop/v1', '/kinds/(?P<kind>(a|b))', ['callback' => 'kinds']);
    register_rest_route($this->namespace, '/dynamic', ['methods' => 'GET']);
    register_rest_route('shop/v1', '/(post|page)', ['methods' => 'GET']);
});
add_action('wp_ajax_nopriv_lookup', 'lookup');
add_action('init', 'boot');
`;
  const { ports } = await phpExtractor.extract([
    { path: "wp-content/plugins/shop/shop.php", text },
  ]);
  const file = "wp-content/plugins/shop/shop.php";
  assert.deepEqual(summarize(ports), [
    `${file}:3 server DELETE /wp-json/shop/v1/orders/{}`,
    `${file}:3 server GET /wp-json/shop/v1/orders/{}`,
    `${file}:7 server PUT /wp-json/shop/v1/carts`,
    `${file}:7 server PUT /wp-json/shop/v1/carts/{}`,
    `${file}:11 server GET /wp-json/shop/v1/kinds/{}`,
    `${file}:15 server GET /wp-admin/admin-ajax.php`,
    `${file}:15 server POST /wp-admin/admin-ajax.php`,
  ]);
});
