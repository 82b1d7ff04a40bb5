// The revision a CachedFileEnforcerProvider reports: a content hash of the
// model and the policy, changed by every edit that is swapped in.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CachedFileEnforcerProvider } from "../../../src/guard/cached_file_enforcer_provider.ts";
import type { EnforcerReloadEvent } from "../../../src/guard/cached_file_enforcer_provider.ts";
import { policyRevision } from "../../../src/guard/_policy/revision.ts";
import { MODEL, POLICY } from "../../fixtures/guard/casbin.ts";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

Deno.test("policyRevision() hashes the pair, not the concatenation", async () => {
  const revision = await policyRevision(bytes("ab"), bytes("c"));
  assert.match(revision, /^[0-9a-f]{64}$/);
  assert.equal(revision, await policyRevision(bytes("ab"), bytes("c")));
  assert.notEqual(revision, await policyRevision(bytes("a"), bytes("bc")));
  assert.notEqual(revision, await policyRevision(bytes("c"), bytes("ab")));
});

Deno.test("CachedFileEnforcerProvider.revision names the live files and follows reloads", async () => {
  const dir = await mkdtemp(join(tmpdir(), "portcullis-revision-"));
  const modelPath = join(dir, "model.conf");
  const policyPath = join(dir, "policy.csv");
  await writeFile(modelPath, MODEL);
  await writeFile(policyPath, POLICY);
  try {
    const reloads: EnforcerReloadEvent[] = [];
    let reloaded = Promise.withResolvers<void>();
    await using provider = await CachedFileEnforcerProvider.open({
      modelPath,
      policyPath,
      onReload: (event) => {
        reloads.push(event);
        reloaded.resolve();
      },
    });
    const first = provider.revision;
    assert.equal(first, await policyRevision(bytes(MODEL), bytes(POLICY)));

    await writeFile(policyPath, `${POLICY}p, guest, post, read\n`);
    await reloaded.promise;
    await provider.getEnforcer();
    assert.notEqual(provider.revision, first);
    assert.equal(reloads[0]?.revision, provider.revision);

    reloaded = Promise.withResolvers<void>();
    await writeFile(policyPath, POLICY);
    await reloaded.promise;
    assert.equal(
      provider.revision,
      first,
      "the same content, the same revision",
    );

    await using worker = await CachedFileEnforcerProvider.open({
      modelPath,
      policyPath,
      loadIn: "worker",
      watch: false,
      pollIntervalMs: 0,
    });
    assert.equal(worker.revision, first, "wherever the policy was loaded");
  } finally {
    await rm(dir, { recursive: true });
  }
});
