import assert from "node:assert/strict";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import {
  AccessSubject,
  bearerUserProvider,
  PermissionGuard,
  type User,
} from "@portcullis/portcullis/guard";
import { expressGuard } from "@portcullis/portcullis/express";
import type { Case } from "./_case.ts";

// Node 20 has no global URLPattern, which AccessSubject.param needs.
if (!("URLPattern" in globalThis)) await import("urlpattern-polyfill");

function makeGuard(rules: string[]): PermissionGuard<User> {
  return new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => ({
      enforce: (user: User, object: unknown, action: unknown) =>
        rules.includes(`${user.role} ${String(object)} ${String(action)}`),
    }),
  });
}

/** Listens on 127.0.0.1 and returns the base URL and an async disposer. */
async function listen(
  app: express.Express,
): Promise<{ base: string } & AsyncDisposable> {
  const server: Server = await new Promise((resolve) => {
    const started = app.listen(0, "127.0.0.1", () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function as(role: string | undefined, init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  if (role !== undefined) headers.set("authorization", `Bearer ${role}`);
  return { ...init, headers };
}

export const expressCases: Case[] = [{
  name:
    "expressGuard() calls next() with res.locals.user when allowed, answers refusals itself",
  async run(): Promise<void> {
    const guard = makeGuard(["editor post write"]);
    const allow = expressGuard(guard);
    let handled = 0;
    const app = express();
    app.post(
      "/posts",
      allow(guard.requirePermission("post", "write")),
      (_req, res) => {
        handled++;
        res.status(201).json({ author: (res.locals.user as User).role });
      },
    );
    await using server = await listen(app);
    const created = await fetch(
      `${server.base}/posts`,
      as("editor", { method: "POST" }),
    );
    assert.equal(created.status, 201);
    assert.deepEqual(await created.json(), { author: "editor" });
    const denied = await fetch(
      `${server.base}/posts`,
      as("viewer", { method: "POST" }),
    );
    assert.equal(denied.status, 403);
    assert.deepEqual(await denied.json(), { detail: "Forbidden" });
    const anonymous = await fetch(`${server.base}/posts`, { method: "POST" });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("www-authenticate"), "Bearer");
    await anonymous.body?.cancel();
    assert.equal(handled, 1);
  },
}, {
  name: "expressGuard() on a mounted router sees the whole path (originalUrl)",
  async run(): Promise<void> {
    const guard = makeGuard(["ops-admin ops close"]);
    const allow = expressGuard(guard, { local: "account" });
    const boards = express.Router();
    boards.post(
      "/:board/close",
      allow(guard.requirePermission(
        AccessSubject.param("board", "/boards/:board/close"),
        "close",
      )),
      (req, res) => {
        res.json({
          closed: req.params["board"],
          by: (res.locals.account as User).role,
        });
      },
    );
    const app = express();
    app.use("/boards", boards);
    await using server = await listen(app);
    const closed = await fetch(
      `${server.base}/boards/ops/close`,
      as("ops-admin", { method: "POST" }),
    );
    assert.deepEqual(await closed.json(), { closed: "ops", by: "ops-admin" });
    const denied = await fetch(
      `${server.base}/boards/hr/close`,
      as("ops-admin", { method: "POST" }),
    );
    assert.equal(denied.status, 403);
    await denied.body?.cancel();
  },
}, {
  name:
    "expressGuard() after express.json() decides on req.body; the handler still has it",
  async run(): Promise<void> {
    const guard = makeGuard(["editor news write"]);
    const app = express();
    app.post(
      "/articles",
      express.json(),
      expressGuard(guard)(guard.requirePermission(
        AccessSubject.body((body) => (body as { section?: string }).section),
        "write",
      )),
      (req, res) => {
        res.status(201).json(req.body);
      },
    );
    await using server = await listen(app);
    const post = (body: string): Promise<Response> =>
      fetch(
        `${server.base}/articles`,
        as("editor", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        }),
      );
    const created = await post('{"section":"news","title":"Hi"}');
    assert.equal(created.status, 201);
    assert.deepEqual(await created.json(), { section: "news", title: "Hi" });
    const denied = await post('{"section":"sport"}');
    assert.equal(denied.status, 403);
    await denied.body?.cancel();
  },
}, {
  name: "expressGuard() leaves an unread body to the parsers after it",
  async run(): Promise<void> {
    const guard = makeGuard(["editor post write"]);
    const app = express();
    app.post(
      "/posts",
      expressGuard(guard)(guard.requirePermission("post", "write")),
      express.json(),
      (req, res) => {
        res.status(201).json(req.body);
      },
    );
    await using server = await listen(app);
    const created = await fetch(
      `${server.base}/posts`,
      as("editor", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"title":"Through Express"}',
      }),
    );
    assert.equal(created.status, 201);
    assert.deepEqual(await created.json(), { title: "Through Express" });
  },
}, {
  name: "expressGuard() answers 500 without details when the enforcer fails",
  async run(): Promise<void> {
    const guard = new PermissionGuard({
      userProvider: bearerUserProvider,
      enforcerProvider: () => {
        throw new Error("policy store down");
      },
      onError: () => {},
    });
    const app = express();
    app.get(
      "/",
      expressGuard(guard)(guard.requirePermission("post", "read")),
      (_req, res) => {
        res.send("never");
      },
    );
    await using server = await listen(app);
    const response = await fetch(`${server.base}/`, as("admin"));
    assert.equal(response.status, 500);
    assert.equal(await response.text(), '{"detail":"Internal Server Error"}');
  },
}];
