import assert from "node:assert/strict";
import fc from "fast-check";
import {
  clientPath,
  concat,
  formatBraces,
  formatPrintf,
  HOLE,
  hole,
  joinPaths,
  literal,
  type PathResult,
  routePath,
  textOf,
  type Value,
} from "../../../src/extract/_value/mod.ts";

/** The path and confidence of a client URL. */
function client(
  url: Value,
  base?: Value,
): Pick<PathResult, "path" | "confidence"> | undefined {
  const result = clientPath(url, base);
  return result && { path: result.path, confidence: result.confidence };
}

Deno.test("formatPrintf() substitutes resolved arguments and leaves holes for the rest", () => {
  const value = formatPrintf(literal("%s/users/%d?x=100%%"), [
    literal("http://svc"),
    undefined,
  ]);
  assert.equal(textOf(value), `http://svc/users/${HOLE}?x=100%`);
  const named = formatPrintf(
    literal("/a/%(id)s"),
    [],
    new Map([["id", literal("7")]]),
  );
  assert.equal(textOf(named), "/a/7");
});

Deno.test("formatBraces() fills positional, numbered and named fields", () => {
  const value = formatBraces(
    literal("/{}/{1}/{name}/{{x}}/{missing}"),
    [literal("a"), literal("b")],
    new Map([["name", literal("c")]]),
  );
  assert.equal(textOf(value), `/a/b/c/{x}/${HOLE}`);
});

Deno.test("clientPath() keeps the path of absolute URLs and drops an unknown base", async (t) => {
  await t.step("absolute URL", () => {
    assert.deepEqual(client(literal("https://api:8080/v1/users?x=1#f")), {
      path: "/v1/users",
      confidence: 1,
    });
  });
  await t.step("unknown base dropped", () => {
    // an environment read may carry a path prefix: partly known
    assert.deepEqual(
      client(concat([hole("os.getenv('ORDERS')", "env"), literal("/users")])),
      { path: "/users", confidence: 0.8 },
    );
    // a base held in the program is the service's origin
    assert.deepEqual(client(concat([undefined, literal("/users")])), {
      path: "/users",
      confidence: 0.95,
    });
  });
  await t.step("relative URL joined to the base URL path", () => {
    assert.deepEqual(
      client(literal("items/1"), literal("http://shop/api/")),
      { path: "/api/items/1", confidence: 0.95 },
    );
  });
  await t.step("nothing to tell", () => {
    assert.equal(clientPath(concat([undefined])), undefined);
    assert.equal(clientPath(literal("users")), undefined);
  });
});

Deno.test("joinPaths() joins with exactly one slash", () => {
  assert.equal(
    textOf(joinPaths(literal("/api/"), literal("/users"))),
    "/api/users",
  );
  assert.equal(
    textOf(joinPaths(literal("/api"), literal("users"))),
    "/api/users",
  );
  assert.equal(textOf(joinPaths(literal(""), literal("/x"))), "/x");
  assert.equal(routePath(literal("users")).path, "/users");
});

Deno.test("clientPath() and routePath() never throw and give paths starting with a slash", () => {
  const piece = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(HOLE, "/", "?", "#", "http://", "{", "}", "%s"),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
      const value = concat(
        pieces.map((p) => p === HOLE ? undefined : literal(p)),
      );
      const client = clientPath(value, literal("http://h/base"));
      if (client) {
        assert.ok(client.path.startsWith("/"));
        assert.ok(!client.path.includes(HOLE));
      }
      const server = routePath(value);
      assert.ok(server.path.startsWith("/"));
      assert.ok(!server.path.includes(HOLE));
    }),
  );
});

Deno.test("routePath() reads a ? inside a route parameter as optional, not as a query", () => {
  assert.equal(
    routePath(literal("/admin/reports/{year:int}/{month:int?}")).path,
    "/admin/reports/{year:int}/{month:int}",
  );
  assert.equal(routePath(literal("user/{name?}")).path, "/user/{name}");
  // fasthttp/router: optional with a pattern
  assert.equal(
    routePath(literal("/combo/{slug?:[a-z]+}")).path,
    "/combo/{slug:[a-z]+}",
  );
  // A query after the route is still cut.
  assert.equal(routePath(literal("/search?q=x")).path, "/search");
});
