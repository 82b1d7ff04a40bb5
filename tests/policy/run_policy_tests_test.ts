import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { formatPolicyTestReport } from "../../src/policy/format_policy_test_report.ts";
import {
  parsePolicyTests,
  type PolicyTestSuite,
} from "../../src/policy/parse_policy_tests.ts";
import { readPolicyTests } from "../../src/policy/read_policy_tests.ts";
import { runPolicyTests } from "../../src/policy/run_policy_tests.ts";
import { examplePath } from "../fixtures/casbin_examples.ts";
import { keyMatchCustom } from "../fixtures/casbin_example_requests.ts";

const FIXTURES = new URL("../fixtures/policy_tests/", import.meta.url);

/** A suite of tests/fixtures/policy_tests/ over casbin's example files. */
async function stockSuite(name: string): Promise<PolicyTestSuite> {
  const text = await readFile(new URL(name, FIXTURES), "utf8");
  const suite = parsePolicyTests(text, { source: name });
  return {
    ...suite,
    model: examplePath(suite.model),
    policy: examplePath(suite.policy),
  };
}

const STOCK: readonly { file: string; cases: number; rules: number }[] = [
  { file: "rbac.yaml", cases: 8, rules: 5 },
  { file: "rbac_with_deny.yaml", cases: 6, rules: 6 },
  { file: "rbac_with_domains.yaml", cases: 7, rules: 6 },
  { file: "keymatch.yaml", cases: 11, rules: 5 },
];

for (const { file, cases, rules } of STOCK) {
  Deno.test(`runPolicyTests() passes the cases of ${file} and exercises every rule`, async () => {
    const report = await runPolicyTests(await stockSuite(file), {
      coverage: true,
    });
    assert.equal(report.failed, 0, formatPolicyTestReport(report));
    assert.equal(report.passed, cases);
    assert.equal(report.coverage?.total, rules);
    assert.equal(
      report.coverage?.covered,
      rules,
      formatPolicyTestReport(report),
    );
    assert.match(report.revision, /^[0-9a-f]{64}$/);
  });
}

Deno.test("runPolicyTests() fails a wrong expectation and explains the decision", async () => {
  const suite = await stockSuite("rbac.yaml");
  const report = await runPolicyTests({
    ...suite,
    cases: [
      {
        name: "bob reads data2",
        subject: "bob",
        args: ["data2", "read"],
        expect: "allow",
        line: 3,
      },
      {
        name: "alice writes data2",
        subject: "alice",
        args: ["data2", "write"],
        expect: "deny",
      },
    ],
  });
  assert.equal(report.failed, 2);
  const [bob, alice] = report.results;
  assert.equal(bob?.actual, "deny");
  assert.deepEqual(
    bob?.explanation?.nearest.map((miss) =>
      `${miss.rule.text}: ${miss.reasons.join("; ")}`
    ),
    [
      "p, bob, data2, write: act read is not write",
      "p, data2_admin, data2, read: subject bob is not data2_admin and has no role link to it",
      "p, alice, data1, read: subject bob is not alice and has no role link to it; obj data2 is not data1",
    ],
  );
  assert.equal(alice?.actual, "allow");
  assert.equal(
    alice?.explanation?.deciding?.rule.text,
    "p, data2_admin, data2, write",
  );
  const text = formatPolicyTestReport(report);
  assert.match(
    text,
    /FAIL {2}bob reads data2 \(line 3\): expected allow, got deny\n/,
  );
  assert.match(
    text,
    /decided by: p, data2_admin, data2, write through alice -> data2_admin \(g, alice, data2_admin\)/,
  );
  assert.match(text, /^0 passed, 2 failed/m);
});

Deno.test("runPolicyTests() reports the reference policy's rules no case decided, by line", async () => {
  const path = fileURLToPath(
    new URL("../../examples/policy_tests.yaml", import.meta.url),
  );
  const report = await runPolicyTests(await readPolicyTests(path), {
    coverage: true,
  });
  assert.equal(report.failed, 0, formatPolicyTestReport(report));
  assert.deepEqual(
    report.coverage?.rules.filter((entry) => entry.hits === 0)
      .map((entry) => [entry.line, entry.rule.text]),
    [[1, "p, admin, post, read"], [3, "p, editor, post, read"]],
  );
  assert.equal(report.coverage?.percent, 60);
  assert.match(
    formatPolicyTestReport(report),
    /coverage: 3 of 5 rules took part in a decision \(60\.0%\)\n {2}never decided anything:\n {4}line 1: p, admin, post, read\n {4}line 3: p, editor, post, read\n/,
  );
});

Deno.test("runPolicyTests() reports a case it cannot build as an error and runs the others", async () => {
  const suite = await stockSuite("rbac_with_domains.yaml");
  const report = await runPolicyTests({
    ...suite,
    cases: [
      {
        subject: "alice",
        args: { dom: "domain1", object: "data1", act: "read" },
        expect: "allow",
      },
      { subject: "alice", args: ["domain1", "data1"], expect: "deny" },
      { subject: "alice", args: ["domain1", "data1", "read"], expect: "allow" },
    ],
  });
  assert.deepEqual(report.results.map((r) => r.actual), [
    "error",
    "error",
    "allow",
  ]);
  assert.match(
    report.results[0]!.error!,
    /"object" is not a request value of the model \(dom, obj, act\)/,
  );
  assert.match(report.results[1]!.error!, /invalid request size/);
  assert.equal(report.failed, 2);
});

Deno.test("runPolicyTests() maps a string subject as the model reads r.sub", async () => {
  const path = fileURLToPath(
    new URL("../../examples/policy_tests.yaml", import.meta.url),
  );
  const suite = await readPolicyTests(path);
  const report = await runPolicyTests({
    ...suite,
    cases: [{ subject: "editor", args: ["post", "write"], expect: "allow" }],
  });
  assert.deepEqual(report.results[0]?.request, [
    { role: "editor" },
    "post",
    "write",
  ]);
  const rbac = await runPolicyTests({
    ...await stockSuite("rbac.yaml"),
    cases: [{ subject: "alice", args: ["data1", "read"], expect: "allow" }],
  });
  assert.deepEqual(rbac.results[0]?.request, ["alice", "data1", "read"]);
});

Deno.test("runPolicyTests() passes custom matcher functions to the provider", async () => {
  const report = await runPolicyTests({
    model: examplePath("keymatch_custom_model.conf"),
    policy: examplePath("keymatch2_policy.csv"),
    cases: [
      { subject: "alice", args: ["/alice_data/1", "GET"], expect: "allow" },
      {
        subject: "alice",
        args: ["/alice_data/private", "GET"],
        expect: "deny",
      },
    ],
  }, { functions: { keyMatchCustom } });
  assert.equal(report.failed, 0, formatPolicyTestReport(report));
});

Deno.test("runPolicyTests() refuses a policy the guard would refuse", async () => {
  await assert.rejects(
    runPolicyTests({
      model: examplePath("priority_model.conf"),
      policy: examplePath("priority_indeterminate_policy.csv"),
      cases: [{ subject: "alice", args: ["data1", "read"], expect: "deny" }],
    }),
    { name: "EnforcerLoadError", code: "POLICY_INVALID" },
  );
});
