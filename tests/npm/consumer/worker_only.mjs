// A provider whose only activity is its worker (no watcher, no timer, no
// server): the process must stay alive while the worker starts and loads,
// and exit on its own once the provider is closed.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CachedFileEnforcerProvider } from "portcullis/guard";

const dir = await mkdtemp(join(tmpdir(), "portcullis-worker-only-"));
const modelPath = join(dir, "model.conf");
const policyPath = join(dir, "policy.csv");
await writeFile(
  modelPath,
  `[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
`,
);
await writeFile(policyPath, "p, viewer, post, read\n");
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
