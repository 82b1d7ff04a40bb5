import assert from "node:assert/strict";
import {
  HttpProviders,
  methodsMeet,
  templateServes,
} from "../../src/boundary/_path_template.ts";
import type { PortRecord } from "../../src/boundary/port_records.ts";

function port(key: string, owner: string, role = "server"): PortRecord {
  return {
    graph: "",
    boundaryId: key,
    mechanism: "http",
    key,
    role: role as PortRecord["role"],
    ownerId: owner,
    owner,
    service: "",
    confidence: 1,
  };
}

Deno.test("templateServes() takes a call's literal segment for a route parameter", () => {
  assert.ok(templateServes("/pay/{}", "/pay/partner-7"));
  assert.ok(templateServes("/a/{}/b/{}", "/a/{}/b/SHIP"));
  assert.ok(templateServes("/a/{}", "/a/{}"));
  // a call's unknown segment is never taken for a route's literal
  assert.ok(!templateServes("/users/me", "/users/{}"));
  assert.ok(!templateServes("/pay/{}", "/pay/x/y"));
  assert.ok(!templateServes("/pay/{}", "/other/x"));
});

Deno.test("methodsMeet() lets ANY on either side meet every method", () => {
  assert.ok(methodsMeet("GET", "GET"));
  assert.ok(methodsMeet("ANY", "POST"));
  assert.ok(methodsMeet("PUT", "ANY"));
  assert.ok(!methodsMeet("GET", "POST"));
});

Deno.test("HttpProviders.serving() prefers the exact path, else route templates", () => {
  const providers = new HttpProviders([
    port("GET /users/me", "me"),
    port("GET /users/{}", "user"),
    port("POST /users/{}", "post-user"),
    port("ANY /files/{}/{}", "files"),
    port("GET /users/{}", "caller", "client"),
  ]);
  const owners = (method: string, path: string) =>
    providers.serving(method, path).map((p) => p.ownerId).sort();
  assert.deepEqual(owners("GET", "/users/me"), ["me"]);
  assert.deepEqual(owners("GET", "/users/ann"), ["user"]);
  assert.deepEqual(owners("ANY", "/users/ann"), ["post-user", "user"]);
  assert.deepEqual(owners("DELETE", "/files/a/{}"), ["files"]);
  assert.deepEqual(owners("GET", "/nothing"), []);
  // a client port is never a provider
  assert.deepEqual(owners("GET", "/users/{}"), ["user"]);
});

Deno.test("HttpProviders.serving() stays bounded on many overlapping templates", () => {
  const ports: PortRecord[] = [];
  // every combination of literal and parameter over 14 segments
  for (let mask = 0; mask < 1 << 14; mask++) {
    const segments = Array.from(
      { length: 14 },
      (_, i) => (mask >> i) & 1 ? "{}" : "s",
    );
    ports.push(port(`GET /${segments.join("/")}`, `r${mask}`));
  }
  const providers = new HttpProviders(ports);
  const start = performance.now();
  const found = providers.serving("GET", "/" + Array(14).fill("s").join("/"));
  assert.equal(found.length, 1); // the exact route
  const templates = providers.serving(
    "GET",
    "/" + Array(14).fill("t").join("/"),
  );
  assert.ok(templates.length <= 1);
  assert.ok(performance.now() - start < 2000);
});

Deno.test("HttpProviders.serving() falls back to a route of the same path in another case", () => {
  const providers = new HttpProviders([
    port("GET /VehicleInfo/{}", "vehicles"),
    port("GET /vehicleinfo/{}/owner", "exact"),
  ]);
  assert.deepEqual(
    providers.serving("GET", "/vehicleinfo/{}").map((p) => p.ownerId),
    ["vehicles"],
  );
  assert.deepEqual(
    providers.serving("POST", "/vehicleinfo/{}").map((p) => p.ownerId),
    [],
  );
});
