import assert from "node:assert/strict";
import {
  ServiceLocator,
  serviceOfHost,
} from "../../src/boundary/_service_name.ts";
import type { PortRecord } from "../../src/boundary/port_records.ts";

function at(filePath: string, service = "repo"): PortRecord {
  return {
    graph: "",
    boundaryId: "b",
    mechanism: "http",
    key: "GET /x",
    role: "server",
    ownerId: filePath,
    owner: filePath,
    service,
    confidence: 1,
    filePath,
  };
}

Deno.test("serviceOfHost() reads the service a host names", () => {
  assert.equal(serviceOfHost("userservice:8080"), "userservice");
  assert.equal(serviceOfHost("lb://customers-service"), "customers-service");
  assert.equal(serviceOfHost("http://cart.shop.svc.cluster.local:80/"), "cart");
  assert.equal(serviceOfHost("http://${CART_HOST}:8080/"), "");
  assert.equal(serviceOfHost("10.0.0.7:80"), "");
  assert.equal(serviceOfHost(""), "");
});

Deno.test("ServiceLocator.holds() matches a folder spelled like the name", () => {
  const ports = [
    at("petshop-orders-service/src/Orders.java"),
    at("src/Billing_Service/Controller.cs"),
    at("ledger/reader/app.py"),
  ];
  const services = new ServiceLocator(ports);
  assert.ok(services.holds("orders-service", ports[0]!));
  assert.ok(services.holds("billingservice", ports[1]!));
  assert.ok(services.holds("reader", ports[2]!));
  assert.ok(!services.holds("service", ports[0]!));
  assert.ok(!services.holds("orders", ports[0]!));
  assert.ok(!services.holds("reader", ports[0]!));
  assert.ok(services.locates("reader"));
  assert.ok(!services.locates("payments"));
});

Deno.test("ServiceLocator.holds() follows the folders a deployment file gives", () => {
  const ports = [at("apps/one/main.go"), at("gateway/main.go")];
  const services = new ServiceLocator(
    ports,
    new Map([["api", ["apps/one"]]]),
  );
  assert.ok(services.holds("api", ports[0]!));
  assert.ok(!services.holds("api", ports[1]!));
  assert.ok(services.holds("gateway", ports[1]!));
});

Deno.test("ServiceLocator.holds() matches a scan root named like the service", () => {
  const port = at("main.py", "inventory");
  assert.ok(new ServiceLocator([port]).holds("inventory", port));
});

Deno.test("ServiceLocator.serviceKey() groups ports by the deepest service folder, else the first distinct folder", () => {
  const ports = [
    at("src/shop/cart/api.py"),
    at("src/shop/cart/lib/util.py"),
    at("src/shop/users/api.py"),
    at("src/web/app.ts"),
  ];
  const services = new ServiceLocator(
    ports,
    new Map([["cart", ["src/shop/cart"]], ["shop", ["src/shop"]]]),
  );
  const [cart, cartLib, users, web] = ports.map((p) => services.serviceKey(p));
  assert.equal(cart, cartLib);
  assert.notEqual(cart, users);
  assert.notEqual(users, web);
  const plain = new ServiceLocator(ports);
  assert.equal(plain.serviceKey(ports[0]!), plain.serviceKey(ports[2]!));
  assert.notEqual(plain.serviceKey(ports[0]!), plain.serviceKey(ports[3]!));
});
