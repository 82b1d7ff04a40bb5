// A provider whose only activity is its worker (no watcher, no timer, no
// server): the process must stay alive while the worker starts and loads,
// and exit on its own once the provider is closed.
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { CachedFileEnforcerProvider } from "portcullis/guard";
import { policyFiles } from "./_policy_files.mjs";

const { dir, modelPath, policyPath } = await policyFiles(
  "p, viewer, post, read\n",
);
try {
  const provider = await CachedFileEnforcerProvider.open({
    modelPath,
    policyPath,
    loadIn: "worker",
    watch: false,
    pollIntervalMs: 0,
  });
  const enforcer = await provider.getEnforcer();
  assert.equal(await enforcer.enforce({ role: "viewer" }, "post", "read"), true);
  assert.equal(await enforcer.enforce({ role: "viewer" }, "post", "write"), false);
  await provider.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
console.log("a provider with only its worker loads, and the process exits");
