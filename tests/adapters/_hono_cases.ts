import assert from "node:assert/strict";
import { Hono } from "hono";
import {
  AccessSubject,
  bearerUserProvider,
  HttpError,
  PermissionGuard,
  type User,
} from "@portcullis/portcullis/guard";
import { honoGuard } from "@portcullis/portcullis/hono";
import { serve } from "@portcullis/portcullis/node";
import type { Case } from "./_case.ts";

function as(role: string | undefined, init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  if (role !== undefined) headers.set("authorization", `Bearer ${role}`);
  return { ...init, headers };
}

/** A guard over "role may do action on object" rules, counting user lookups. */
function makeGuard(rules: string[]): {
  guard: PermissionGuard<User>;
  lookups: () => number;
} {
  let lookups = 0;
  const guard = new PermissionGuard({
    userProvider: (request) => {
      lookups++;
      return bearerUserProvider(request);
    },
    enforcerProvider: () => ({
      enforce: (user: User, object: unknown, action: unknown) =>
        rules.includes(`${user.role} ${String(object)} ${String(action)}`),
    }),
  });
  return { guard, lookups: () => lookups };
}

export const honoCases: Case[] = [{
  name:
    "honoGuard() lets allowed requests through with c.get('user') and stops refused ones",
  async run(): Promise<void> {
    const { guard } = makeGuard(["editor post write", "viewer post read"]);
    const allow = honoGuard(guard);
    let handled = 0;
    const app = new Hono().post(
      "/posts",
      allow(guard.requirePermission("post", "write")),
      (c) => {
        handled++;
        return c.json({ author: c.get("user").role }, 201);
      },
    );
    const created = await app.request(
      "/posts",
      as("editor", { method: "POST" }),
    );
    assert.equal(created.status, 201);
    assert.deepEqual(await created.json(), { author: "editor" });
    const denied = await app.request(
      "/posts",
      as("viewer", { method: "POST" }),
    );
    assert.equal(denied.status, 403);
    assert.deepEqual(await denied.json(), { detail: "Forbidden" });
    const anonymous = await app.request("/posts", { method: "POST" });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("www-authenticate"), "Bearer");
    assert.equal(handled, 1, "only the allowed request reached the handler");
  },
}, {
  name:
    "honoGuard() stores the user under another variable, resolves it once for stacked middleware",
  async run(): Promise<void> {
    const { guard, lookups } = makeGuard([
      "admin post read",
      "admin post delete",
    ]);
    const allow = honoGuard(guard, { variable: "account" });
    const app = new Hono().delete(
      "/posts/:id",
      allow(guard.authRequired()),
      allow(guard.requirePermission("post", "read")),
      allow(
        guard.requirePermission("post", "delete").withErrorFactory(() =>
          new HttpError(404, "Not Found")
        ),
      ),
      (c) => c.text(`${c.get("account").role} deleted ${c.req.param("id")}`),
    );
    const deleted = await app.request(
      "/posts/7",
      as("admin", { method: "DELETE" }),
    );
    assert.equal(await deleted.text(), "admin deleted 7");
    assert.equal(lookups(), 1);
    const hidden = await app.request(
      "/posts/7",
      as("viewer", { method: "DELETE" }),
    );
    assert.equal(hidden.status, 403, "the first refusing middleware answers");
    await hidden.body?.cancel();
  },
}, {
  name: "honoGuard() with a JSON body subject leaves the body for the handler",
  async run(): Promise<void> {
    const { guard } = makeGuard(["editor news write"]);
    const allow = honoGuard(guard);
    const app = new Hono().post(
      "/articles",
      allow(
        guard.requirePermission(
          AccessSubject.body((body) => (body as { section?: string }).section),
          "write",
        ),
      ),
      async (c) => c.json(await c.req.json(), 201),
    );
    const body = JSON.stringify({ section: "news", title: "Hello" });
    const created = await app.request(
      "/articles",
      as("editor", { method: "POST", body }),
    );
    assert.equal(created.status, 201);
    assert.deepEqual(await created.json(), { section: "news", title: "Hello" });
    const denied = await app.request(
      "/articles",
      as("editor", { method: "POST", body: '{"section":"sport"}' }),
    );
    assert.equal(denied.status, 403);
    await denied.body?.cancel();
  },
}, {
  name: "honoGuard() rejects what is not a guard or a wrapper",
  run(): Promise<void> {
    assert.throws(() => honoGuard({} as PermissionGuard), TypeError);
    const { guard } = makeGuard([]);
    assert.throws(
      () => honoGuard(guard)("post" as unknown as never),
      TypeError,
    );
    return Promise.resolve();
  },
}, {
  name: "a Hono app with guard middleware runs on node:http through serve()",
  async run(): Promise<void> {
    const { guard } = makeGuard(["viewer post read"]);
    const app = new Hono().get(
      "/posts",
      honoGuard(guard)(guard.requirePermission("post", "read")),
      (c) => c.json([{ id: 1, by: c.get("user").role }]),
    );
    await using server = await serve(app.fetch, {
      hostname: "127.0.0.1",
      port: 0,
    });
    const url = `http://127.0.0.1:${server.addr.port}/posts`;
    const list = await fetch(url, as("viewer"));
    assert.deepEqual(await list.json(), [{ id: 1, by: "viewer" }]);
    const denied = await fetch(url, as("guest"));
    assert.equal(denied.status, 403);
    await denied.body?.cancel();
  },
}];
