import assert from "node:assert/strict";
import { createHonoApp } from "../../examples/hono.ts";
import { makeEnforcer } from "../fixtures/guard/casbin.ts";

function as(role: string | undefined, init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  if (role !== undefined) headers.set("authorization", `Bearer ${role}`);
  return { ...init, headers };
}

Deno.test("examples/hono.ts guards handlers and middleware with the same policy", async (t) => {
  const enforcer = await makeEnforcer();
  const app = createHonoApp(() => enforcer);

  await t.step("GET /me via c.req.raw", async () => {
    const ok = await app.request("/me", as("viewer"));
    assert.deepEqual(await ok.json(), { role: "viewer" });
    const refused = await app.request("/me");
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get("www-authenticate"), "Bearer");
  });
  await t.step("GET /posts via middleware", async () => {
    assert.equal((await app.request("/posts", as("viewer"))).status, 200);
    const denied = await app.request("/posts", as("guest"));
    assert.equal(denied.status, 403);
    assert.deepEqual(await denied.json(), { detail: "Forbidden" });
    assert.equal((await app.request("/posts")).status, 401);
  });
  await t.step(
    "POST /posts: the handler still reads the body and the user",
    async () => {
      const created = await app.request(
        "/posts",
        as("editor", { method: "POST", body: '{"title":"From Hono"}' }),
      );
      assert.equal(created.status, 201);
      assert.deepEqual(await created.json(), {
        id: 2,
        title: "From Hono",
        author: "editor",
      });
      const denied = await app.request(
        "/posts",
        as("viewer", { method: "POST", body: '{"title":"x"}' }),
      );
      assert.equal(denied.status, 403);
      const invalid = await app.request(
        "/posts",
        as("editor", { method: "POST", body: "{oops" }),
      );
      assert.equal(invalid.status, 400);
    },
  );
  await t.step(
    "GET /posts/:id: the per-route factory answers 404 on denial",
    async () => {
      assert.equal((await app.request("/posts/1", as("viewer"))).status, 200);
      const hidden = await app.request("/posts/1", as("guest"));
      assert.equal(hidden.status, 404);
      assert.deepEqual(await hidden.json(), { detail: "Not Found" });
    },
  );
  await t.step("a failing enforcer answers 500 without details", async () => {
    const broken = createHonoApp(() => {
      throw new Error("policy store down");
    });
    // deno-lint-ignore no-console
    const originalError = console.error;
    // deno-lint-ignore no-console
    console.error = () => {};
    try {
      const response = await broken.request("/posts", as("admin"));
      assert.equal(response.status, 500);
      assert.equal(
        await response.text(),
        '{"detail":"Internal Server Error"}',
      );
    } finally {
      // deno-lint-ignore no-console
      console.error = originalError;
    }
  });
});
