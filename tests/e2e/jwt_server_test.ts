// End-to-end: the JWT reference routes of examples/jwt_server.ts over real
// HTTP, with the shipped model and policy files and tokens from
// examples/jwt_tokens.ts.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { CachedFileEnforcerProvider } from "../../src/guard/cached_file_enforcer_provider.ts";
import { JwtUserProvider } from "../../src/guard/jwt_user_provider.ts";
import { createJwtApp, jwtOptionsFromEnv } from "../../examples/jwt_server.ts";
import { DEVELOPMENT_SECRET, mintToken } from "../../examples/jwt_tokens.ts";

const example = (name: string): string =>
  fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));

Deno.test("examples/jwt_server.ts serves the reference routes to JWT users", async (t) => {
  await using provider = await CachedFileEnforcerProvider.open({
    modelPath: example("model.conf"),
    policyPath: example("policy.csv"),
  });
  const jwt = await JwtUserProvider.create(jwtOptionsFromEnv({}));
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    createJwtApp(provider, jwt),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  const call = async (
    path: string,
    init: RequestInit & { token?: string } = {},
  ): Promise<{ status: number; headers: Headers; body: unknown }> => {
    const headers = new Headers(init.headers);
    if (init.token !== undefined) {
      headers.set("authorization", `Bearer ${init.token}`);
    }
    const response = await fetch(`${base}${path}`, { ...init, headers });
    return {
      status: response.status,
      headers: response.headers,
      body: await response.json(),
    };
  };
  try {
    const tokens = {
      admin: await mintToken("admin", DEVELOPMENT_SECRET),
      editor: await mintToken("editor", DEVELOPMENT_SECRET),
      viewer: await mintToken("viewer", DEVELOPMENT_SECRET),
    };
    await t.step("GET /me returns the token's user", async () => {
      const me = await call("/me", { token: tokens.viewer });
      assert.equal(me.status, 200);
      assert.deepEqual(me.body, { role: "viewer", sub: "viewer-user" });
    });
    await t.step(
      "every role reads, editor and admin write, viewer cannot",
      async () => {
        for (const token of Object.values(tokens)) {
          assert.equal((await call("/posts", { token })).status, 200);
        }
        for (const role of ["admin", "editor"] as const) {
          const created = await call("/posts", {
            method: "POST",
            token: tokens[role],
            body: JSON.stringify({ title: `by ${role}` }),
          });
          assert.equal(created.status, 201);
          assert.equal(
            (created.body as { author: string }).author,
            `${role}-user`,
          );
        }
        const denied = await call("/posts", {
          method: "POST",
          token: tokens.viewer,
          body: JSON.stringify({ title: "nope" }),
        });
        assert.equal(denied.status, 403);
        assert.deepEqual(denied.body, { detail: "Forbidden" });
      },
    );
    await t.step("the token may come in the token cookie", async () => {
      const response = await call("/posts", {
        headers: { cookie: `token=${tokens.viewer}` },
      });
      assert.equal(response.status, 200);
    });
    await t.step(
      "no token, a bad one, or one for another key: 401",
      async () => {
        const missing = await call("/posts");
        assert.equal(missing.status, 401);
        assert.equal(missing.headers.get("www-authenticate"), "Bearer");
        assert.deepEqual(missing.body, { detail: "Unauthorized" });
        const otherKey = await mintToken(
          "admin",
          "another-secret-of-at-least-32-bytes!!",
        );
        for (const token of [otherKey, `${tokens.admin}x`, "not-a-jwt"]) {
          const refused = await call("/posts", { token });
          assert.equal(refused.status, 401);
          assert.equal(
            refused.headers.get("www-authenticate"),
            'Bearer error="invalid_token"',
          );
          assert.deepEqual(refused.body, { detail: "Invalid token" });
        }
      },
    );
    await t.step("unknown path 404, wrong method 405 with Allow", async () => {
      assert.equal((await call("/nope")).status, 404);
      const wrong = await call("/posts", { method: "DELETE" });
      assert.equal(wrong.status, 405);
      assert.equal(wrong.headers.get("allow"), "GET, POST");
    });
  } finally {
    await server.shutdown();
  }
});
