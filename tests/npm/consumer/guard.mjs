// Runs under Node and Bun against the installed `portcullis` package alone
// (no boundary core, no scanner): serves a guarded handler over HTTP with a
// file-backed enforcer through the node adapter, and reloads the policy on
// the event loop and in a worker.
import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import {
  bearerUserProvider,
  CachedFileEnforcerProvider,
  PermissionGuard,
} from "portcullis";
import { serve } from "portcullis/node";
import { policyFiles } from "./_policy_files.mjs";

const runtime = typeof Bun === "undefined" ? `node ${process.version}` : `bun ${Bun.version}`;

const { dir, modelPath, policyPath } = await policyFiles(
  "p, editor, post, read\np, editor, post, write\np, viewer, post, read\n",
);

const provider = await CachedFileEnforcerProvider.open({ modelPath, policyPath });
const guard = new PermissionGuard({
  userProvider: bearerUserProvider,
  enforcerProvider: provider,
});
const handler = guard.requirePermission("post", "write")(() => new Response("created", { status: 201 }));

// The node adapter (Bun implements node:http too).
const server = await serve(handler, { hostname: "127.0.0.1", port: 0 });
const base = `http://127.0.0.1:${server.addr.port}`;

try {
  const call = (token) =>
    fetch(`${base}/posts`, {
      method: "POST",
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  let response = await call("editor");
  assert.equal(response.status, 201);
  assert.equal(await response.text(), "created");
  response = await call("viewer");
  assert.equal(response.status, 403);
  assert.deepEqual(await response.json(), { detail: "Forbidden" });
  response = await call(undefined);
  assert.equal(response.status, 401);
  assert.equal(response.headers.get("www-authenticate"), "Bearer");
  await response.text();

  // The policy is read again after an edit: viewer may now write.
  await writeFile(policyPath, "p, editor, post, write\np, viewer, post, write\n");
  let status = 0;
  for (let i = 0; i < 100 && status !== 201; i++) {
    response = await call("viewer");
    status = response.status;
    await response.text();
    if (status !== 201) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(status, 201, "the edited policy is served");

  // Large policies load in a worker thread (the bundled worker module).
  const reloads = [];
  const inWorker = await CachedFileEnforcerProvider.open({
    modelPath,
    policyPath,
    loadIn: "worker",
    onReload: (event) => reloads.push(event),
  });
  try {
    const viewer = { role: "viewer" };
    assert.equal(await (await inWorker.getEnforcer()).enforce(viewer, "post", "delete"), false);
    await writeFile(policyPath, "p, viewer, post, write\np, viewer, post, delete\n");
    for (let i = 0; i < 200 && reloads.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal(reloads[0]?.loadedIn, "worker", "the worker loaded the policy");
    assert.equal(await (await inWorker.getEnforcer()).enforce(viewer, "post", "delete"), true);
  } finally {
    await inWorker.close();
  }

} finally {
  await server.close();
  await provider.close();
  await rm(dir, { recursive: true, force: true });
}
console.log(`${runtime}: guarded handler on the node adapter, reload on the event loop and in a worker`);
