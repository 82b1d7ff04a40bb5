// The policy tooling, the decision log and the `portcullis` program under
// Node itself (bundled: Node 20 runs no TypeScript).
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { bundleForNode } from "../e2e/_server.ts";
import { type CommandResult, runCommand } from "../fixtures/run_command.ts";
import { CASBIN_EXAMPLES_DIR } from "../fixtures/casbin_examples.ts";

const FIXTURES = fileURLToPath(
  new URL("../fixtures/policy_tests/", import.meta.url),
);
const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));

function node(script: string, args: string[]): Promise<CommandResult> {
  return runCommand("node", [script, ...args]);
}

Deno.test("explain(), runPolicyTests() and onDecision work under Node", async () => {
  const dir = await Deno.makeTempDir({ prefix: "portcullis-node-policy-" });
  try {
    const script = await bundleForNode(
      dir,
      fileURLToPath(new URL("_node_checks.ts", import.meta.url)),
      "checks.mjs",
    );
    const { code, stdout, stderr } = await node(script, [
      CASBIN_EXAMPLES_DIR,
      FIXTURES,
    ]);
    assert.equal(code, 0, stderr);
    assert.match(
      stdout,
      /^explain rbac_model\.conf: \d+ decisions as casbin$/m,
    );
    assert.match(
      stdout,
      /^policy test keymatch\.yaml: 11 passed, full coverage$/m,
    );
    assert.match(stdout, /^onDecision: 3 events, 3 spans$/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the portcullis program runs under Node", async () => {
  const dir = await Deno.makeTempDir({ prefix: "portcullis-node-cli-" });
  try {
    const cli = await bundleForNode(
      dir,
      fileURLToPath(new URL("../../src/cli/portcullis.ts", import.meta.url)),
      "portcullis.mjs",
    );
    const help = await node(cli, ["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /policy test <cases\.yaml>/);

    const junit = join(dir, "junit.xml");
    const tested = await node(cli, [
      "policy",
      "test",
      join(EXAMPLES, "policy_tests.yaml"),
      "--min-coverage",
      "50",
      "--junit",
      junit,
    ]);
    assert.equal(tested.code, 0, tested.stderr);
    assert.match(tested.stdout, /^5 passed, 0 failed/m);
    assert.match(
      await Deno.readTextFile(junit),
      /<testsuites name="portcullis policy tests" tests="5" failures="0"/,
    );

    const below = await node(cli, [
      "policy",
      "test",
      join(EXAMPLES, "policy_tests.yaml"),
      "--min-coverage",
      "80",
    ]);
    assert.equal(below.code, 1);
    assert.match(below.stderr, /coverage 60\.0% is below --min-coverage 80%/);

    const explained = await node(cli, [
      "policy",
      "explain",
      "--model",
      join(EXAMPLES, "model.conf"),
      "--policy",
      join(EXAMPLES, "policy.csv"),
      "viewer",
      "post",
      "write",
    ]);
    assert.equal(explained.code, 0, explained.stderr);
    assert.match(explained.stdout, /^deny: \{"role":"viewer"\}, post, write$/m);
    assert.match(
      explained.stdout,
      /p, editor, post, write: subject role viewer is not editor/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
