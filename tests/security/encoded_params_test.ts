// Percent-encoded path parameters against deny rules: the enforcer must see
// the value the application serves, however a client spells it, and a
// malformed encoding must reach neither the enforcer nor the handler.
import assert from "node:assert/strict";
import { Hono } from "hono";
import { AccessSubject } from "../../src/guard/access_subject.ts";
import { bearerUserProvider } from "../../src/guard/bearer_user_provider.ts";
import { PermissionGuard } from "../../src/guard/permission_guard.ts";
import { makeEnforcer } from "../fixtures/guard/casbin.ts";

// Everything is allowed except what a deny rule names.
const MODEL = `[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act, eft
[policy_effect]
e = !some(where (p.eft == deny))
[matchers]
m = r.sub.role == p.sub && r.obj == p.obj && r.act == p.act
`;
const POLICY = [
  "p, viewer, secret, read, deny",
  "p, viewer, été, read, deny",
  "p, viewer, a b, read, deny",
  "p, viewer, 1/2, read, deny",
  "p, viewer, 100%, read, deny",
].join("\n");

async function makeApp(): Promise<{
  app: Hono;
  seen: unknown[];
  served: string[];
}> {
  const enforcer = await makeEnforcer(POLICY, MODEL);
  const seen: unknown[] = [];
  const served: string[] = [];
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => ({
      enforce: (...values: unknown[]) => {
        seen.push(values[1]);
        return enforcer.enforce(...values);
      },
    }),
  });
  const app = new Hono();
  const read = guard.requirePermission(
    AccessSubject.param("id", "/docs/:id"),
    "read",
  );
  app.get("/docs/:id", (c) =>
    read(() => {
      // What the application serves: Hono decodes the parameter.
      served.push(c.req.param("id"));
      return new Response(c.req.param("id"));
    })(c.req.raw));
  return { app, seen, served };
}

async function get(app: Hono, path: string): Promise<number> {
  const response = await app.request(`http://localhost${path}`, {
    headers: { authorization: "Bearer viewer" },
  });
  await response.body?.cancel();
  return response.status;
}

Deno.test("A deny rule holds for every spelling of the value a handler serves", async () => {
  const { app, seen, served } = await makeApp();
  const denied = [
    "/docs/secret",
    "/docs/%73ecret",
    "/docs/%73%65%63%72%65%74",
    "/docs/s%65cret",
    "/docs/été",
    "/docs/%C3%A9t%C3%A9",
    "/docs/%c3%a9t%c3%a9",
    "/docs/a%20b",
    "/docs/a b",
    "/docs/1%2F2",
    "/docs/1%2f2",
    "/docs/100%25",
  ];
  for (const path of denied) {
    assert.equal(await get(app, path), 403, path);
  }
  assert.deepEqual(served, []);
  assert.deepEqual(
    new Set(seen),
    new Set(["secret", "été", "a b", "1/2", "100%"]),
  );
});

Deno.test("Allowed values reach the enforcer decoded, as the handler serves them", async () => {
  const { app, seen, served } = await makeApp();
  for (const path of ["/docs/public", "/docs/%70ublic", "/docs/x%2Fy"]) {
    assert.equal(await get(app, path), 200, path);
  }
  assert.deepEqual(seen, ["public", "public", "x/y"]);
  assert.deepEqual(served, seen);
});

Deno.test("A malformed encoding answers 400 and reaches neither the enforcer nor the handler", async () => {
  const { app, seen, served } = await makeApp();
  for (
    const path of ["/docs/%E0%A4%A", "/docs/%zz", "/docs/%", "/docs/%C3"]
  ) {
    const response = await app.request(`http://localhost${path}`, {
      headers: { authorization: "Bearer viewer" },
    });
    assert.equal(response.status, 400, path);
    assert.deepEqual(await response.json(), {
      detail: "Invalid percent-encoding in path",
    });
  }
  assert.deepEqual(seen, []);
  assert.deepEqual(served, []);
});
