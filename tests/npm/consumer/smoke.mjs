// Runs under Node and Bun against the installed npm package: serves a
// guarded handler over HTTP with a file-backed enforcer, and uses the
// boundary core and the extractor's WASM grammars.
import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import {
  bearerUserProvider,
  CachedFileEnforcerProvider,
  PermissionGuard,
} from "portcullis/guard";
import { httpBoundaryKey, makeBoundaryId } from "portcullis/boundary";
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

// A minimal node:http adapter (Bun implements node:http too).
const server = createServer(async (req, res) => {
  const request = new Request(`http://localhost${req.url}`, {
    method: req.method,
    headers: req.headers,
  });
  const response = await handler(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(await response.text());
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${server.address().port}`;

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

  // Boundary core.
  assert.equal(httpBoundaryKey("get", "/users/:id/"), "GET /users/{}");
  assert.match(makeBoundaryId("http", "GET /users/{}"), /^[0-9a-f]{16}$/);

  // Extractors: the grammars load from the installed package.
  const extract = await import("portcullis/extract");
  const result = await extract.javascriptExtractor.extract([
    { path: "server.ts", text: 'import express from "express";\nconst app = express();\napp.get("/users/:id", (req, res) => res.end());\n' },
  ]);
  assert.deepEqual(result.ports.map((port) => port.ref.key), ["GET /users/{}"]);
} finally {
  server.close();
  await provider.close();
  await rm(dir, { recursive: true, force: true });
}
console.log(`${runtime}: guarded handler, reload (event loop and worker), boundary core and extractors work`);
