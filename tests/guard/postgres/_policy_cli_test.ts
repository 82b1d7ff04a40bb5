import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runPolicyCli } from "../../../src/guard/postgres/_policy_cli.ts";
import { freshDatabase } from "./_databases.ts";

async function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runPolicyCli(args, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env,
  });
  return { code, stdout, stderr };
}

Deno.test("runPolicyCli() imports a policy file into the table and exports it back", async () => {
  await using test = await freshDatabase("pglite");
  const dir = await mkdtemp(join(tmpdir(), "portcullis-cli-"));
  try {
    const policy = join(dir, "policy.csv");
    await writeFile(policy, "p, admin, post, write\n\ng, alice, admin\n");
    let result = await run(["import", policy], {
      POLICY_DATABASE_URL: test.url,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^Imported 2 rules from .* into casbin_rule/);
    result = await run(["import", policy, "--database", test.url]);
    assert.match(result.stderr, /^Unchanged: 2 rules/);
    result = await run(["export", "--database", test.url]);
    assert.equal(result.stdout, "p, admin, post, write\ng, alice, admin\n");
    await writeFile(policy, "p, viewer, post, read\n");
    result = await run(["import", "--add", policy, "--database", test.url]);
    assert.equal(result.code, 0);
    const out = join(dir, "out.csv");
    result = await run(["export", out, "--database", test.url]);
    assert.match(result.stderr, /^Exported 3 rules/);
    assert.equal(
      await readFile(out, "utf8"),
      "p, admin, post, write\ng, alice, admin\np, viewer, post, read\n",
    );
  } finally {
    await rm(dir, { recursive: true });
  }
});

Deno.test("runPolicyCli() exits 2 on bad arguments and 1 when the import fails", async () => {
  assert.equal((await run(["--help"])).code, 0);
  assert.match((await run(["--help"])).stdout, /^Usage: policy-db/);
  assert.equal((await run(["drop"])).code, 2);
  assert.equal((await run(["import"])).code, 2);
  assert.equal(
    (await run(["export", "--add"], { POLICY_DATABASE_URL: "pglite:x" })).code,
    2,
  );
  assert.equal((await run(["--bogus"])).code, 2);
  const noDatabase = await run(["export"]);
  assert.equal(noDatabase.code, 2);
  assert.match(noDatabase.stderr, /POLICY_DATABASE_URL/);
  const wrongUrl = await run(["export", "--database", "mysql://x"]);
  assert.equal(wrongUrl.code, 1);
  assert.match(wrongUrl.stderr, /^Cannot export policy: /);
  await using test = await freshDatabase("pglite");
  const missing = await run([
    "import",
    "/nonexistent/policy.csv",
    "--database",
    test.url,
  ]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^Cannot import policy: .*no such file/i);
});
