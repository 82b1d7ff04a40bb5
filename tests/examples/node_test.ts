import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { createNodeServer } from "../../examples/node.ts";
import { createApp } from "../../examples/server.ts";
import { makeEnforcer } from "../fixtures/guard/casbin.ts";

Deno.test("examples/node.ts serves the guarded application through node:http", async () => {
  const enforcer = await makeEnforcer();
  const server = createNodeServer(createApp(() => enforcer));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  try {
    const me = await fetch(`${base}/me`, {
      headers: { authorization: "Bearer viewer" },
    });
    assert.deepEqual(await me.json(), { role: "viewer" });

    const anonymous = await fetch(`${base}/me`);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("www-authenticate"), "Bearer");
    await anonymous.body?.cancel();

    const created = await fetch(`${base}/posts`, {
      method: "POST",
      headers: { authorization: "Bearer editor" },
      body: JSON.stringify({ title: "Through node:http" }),
    });
    assert.equal(created.status, 201);
    assert.equal(
      ((await created.json()) as { title: string }).title,
      "Through node:http",
    );

    const denied = await fetch(`${base}/posts`, {
      method: "POST",
      headers: { authorization: "Bearer viewer" },
      body: "{}",
    });
    assert.equal(denied.status, 403);
    assert.deepEqual(await denied.json(), { detail: "Forbidden" });

    const wrongMethod = await fetch(`${base}/me`, { method: "DELETE" });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get("allow"), "GET");
    await wrongMethod.body?.cancel();
  } finally {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
});
