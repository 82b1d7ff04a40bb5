import assert from "node:assert/strict";
import {
  forwardedPath,
  type GatewayRoute,
  matchAnt,
} from "../../../src/extract/_port/gateway.ts";

function route(init: Partial<GatewayRoute>): GatewayRoute {
  return {
    gateway: "edge",
    id: "",
    path: "/**",
    method: "ANY",
    target: "svc",
    uri: "lb://svc",
    stripPrefix: 0,
    filePath: "application.yml",
    line: 1,
    framework: "spring-cloud-gateway",
    ...init,
  };
}

Deno.test("forwardedPath strips the prefix segments a route removes", () => {
  const r = route({ path: "/api/customer/**", stripPrefix: 2 });
  assert.equal(forwardedPath(r, "/api/customer/owners/1"), "/owners/1");
  assert.equal(forwardedPath(r, "/api/customer"), "/");
  assert.equal(forwardedPath(r, "/api/vet/vets"), undefined);
});

Deno.test("forwardedPath applies a rewrite, a set path and a prefix path", () => {
  assert.equal(
    forwardedPath(
      route({
        path: "/red/**",
        rewrite: {
          pattern: "/red/?(?<segment>.*)",
          replacement: "/$<segment>",
        },
      }),
      "/red/blue",
    ),
    "/blue",
  );
  assert.equal(
    forwardedPath(
      route({ path: "/foo/{segment}", setPath: "/{segment}" }),
      "/foo/bar",
    ),
    "/bar",
  );
  assert.equal(
    forwardedPath(route({ path: "/orders/*", prefixPath: "/v1" }), "/orders/7"),
    "/v1/orders/7",
  );
  // a rewrite that is no valid regular expression matches nothing
  assert.equal(
    forwardedPath(route({ rewrite: { pattern: "(", replacement: "" } }), "/x"),
    undefined,
  );
});

Deno.test("matchAnt matches single-segment wildcards, variables and **", () => {
  assert.ok(matchAnt("/a/*/c", "/a/b/c"));
  assert.equal(matchAnt("/a/*/c", "/a/b/x/c"), undefined);
  assert.ok(matchAnt("/a/**/c", "/a/b/x/c"));
  assert.ok(matchAnt("/a/**", "/a"));
  assert.ok(matchAnt("/img/*.png", "/img/logo.png"));
  assert.equal(matchAnt("/img/*.png", "/img/logo.gif"), undefined);
  assert.equal(matchAnt("/users/{id}", "/users/42")?.get("id"), "42");
});

Deno.test("matchAnt stays polynomial on many ** against a long path", () => {
  const pattern = "/**/a".repeat(200) + "/b";
  const path = "/a".repeat(2000);
  assert.equal(matchAnt(pattern, path), undefined);
  // a path longer than the bound is not rewritten
  assert.equal(forwardedPath(route({}), "/x".repeat(2000)), undefined);
});
