import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../../src/adapters/node/mod.ts";
import { createApp } from "../../examples/server.ts";
import { makeEnforcer } from "../fixtures/guard/casbin.ts";
import { bundleForNode } from "../e2e/_server.ts";

Deno.test("the reference application runs on node:http through serve()", async () => {
  const enforcer = await makeEnforcer();
  await using server = await serve(createApp(() => enforcer), {
    hostname: "127.0.0.1",
    port: 0,
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  {
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
  }
});

Deno.test("examples/node.ts runs under Node itself, without URLPattern or TypeScript support", async () => {
  const dir = await Deno.makeTempDir({ prefix: "portcullis-node-" });
  try {
    const bundle = await bundleForNode(dir);
    for (const file of ["model.conf", "policy.csv"]) {
      await Deno.copyFile(
        fileURLToPath(new URL(`../../examples/${file}`, import.meta.url)),
        join(dir, file),
      );
    }
    const child = new Deno.Command("node", {
      args: [bundle],
      env: { PORT: "0" },
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream())
      .getReader();
    try {
      let output = "";
      while (!/Listening on (\S+).*\n/.test(output)) {
        const { done, value } = await lines.read();
        assert.ok(!done, `node exited before listening: ${output}`);
        output += value;
      }
      const base = output.match(/Listening on (\S+).*\n/)![1]!.replace(
        /\/$/,
        "",
      );
      const created = await fetch(`${base}/posts`, {
        method: "POST",
        headers: { authorization: "Bearer editor" },
        body: JSON.stringify({ title: "On Node" }),
      });
      assert.equal(created.status, 201);
      assert.equal(
        ((await created.json()) as { author: string }).author,
        "editor",
      );
      const denied = await fetch(`${base}/posts`, {
        headers: { authorization: "Bearer guest" },
      });
      assert.equal(denied.status, 403);
      assert.deepEqual(await denied.json(), { detail: "Forbidden" });
      const missing = await fetch(`${base}/nope`);
      assert.equal(missing.status, 404);
      await missing.body?.cancel();
    } finally {
      child.kill("SIGTERM");
      const status = await child.status;
      await lines.cancel();
      assert.equal(status.code, 0);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
