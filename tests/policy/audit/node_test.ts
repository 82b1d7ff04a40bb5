// The audit under Node itself, the API and the `portcullis audit` command,
// bundled (Node 20 runs no TypeScript). The bundles go under the
// repository's node_modules/, where the scanner's parser and grammar
// packages resolve as they do for an installed package.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCommand } from "../../fixtures/run_command.ts";
import { bundleForNode } from "../../e2e/_server.ts";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const APP = join(REPO, "tests/fixtures/extract/guarded_app");

function bundle(dir: string, entry: string, name: string): Promise<string> {
  // web-tree-sitter finds its WASM runtime next to its own module
  return bundleForNode(
    dir,
    fileURLToPath(new URL(entry, import.meta.url)),
    name,
    ["web-tree-sitter"],
  );
}

Deno.test("auditApp(), toAuditSarif() and portcullis audit work under Node", async () => {
  const cache = join(REPO, "node_modules", ".cache");
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(join(cache, "portcullis-node-audit-"));
  try {
    const api = await runCommand("node", [
      await bundle(dir, "./_node_audit.ts", "audit.mjs"),
      APP,
    ]);
    assert.equal(api.code, 0, api.stderr);
    assert.equal(
      api.stdout,
      "routes 17, findings dynamic-route,dead-route,unguarded-route,unguarded-route,auth-only-route,dead-route,dead-route,unguarded-route,auth-only-route,dead-rule,dead-rule,unreachable-role\n" +
        "sarif results 12\n",
    );
    const cli = await bundle(
      dir,
      "../../../src/cli/portcullis.ts",
      "portcullis.mjs",
    );
    const audited = await runCommand("node", [
      cli,
      "audit",
      APP,
      "--model",
      join(APP, "model.conf"),
      "--policy",
      join(APP, "policy.csv"),
    ]);
    assert.equal(audited.code, 1, audited.stderr);
    assert.match(audited.stdout, /^9 warnings, 3 notes$/m);
    const examples = join(REPO, "examples");
    const clean = await runCommand("node", [
      cli,
      "audit",
      examples,
      "--model",
      join(examples, "model.conf"),
      "--policy",
      join(examples, "policy.csv"),
      "--format",
      "sarif",
    ]);
    assert.equal(clean.code, 0, clean.stderr);
    assert.equal(JSON.parse(clean.stdout).runs[0].results.length, 3);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
