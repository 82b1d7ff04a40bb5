import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parsePolicyTests } from "../../src/policy/parse_policy_tests.ts";
import { readPolicyTests } from "../../src/policy/read_policy_tests.ts";

const HEAD = "model: m.conf\npolicy: p.csv\ncases:\n";

function refused(text: string, message: RegExp): void {
  assert.throws(() => parsePolicyTests(text, { source: "cases.yaml" }), {
    name: "PolicyTestError",
    code: "CASES_INVALID",
    message,
  });
}

Deno.test("parsePolicyTests() reads YAML cases with positional and named arguments", () => {
  const suite = parsePolicyTests(`${HEAD}  - name: one
    subject: viewer
    args: [post, read]
    expect: allow
  - subject: { role: viewer }
    args: { obj: post, act: write }
    expect: deny
  - { subject: root, expect: allow }
`);
  assert.equal(suite.model, "m.conf");
  assert.deepEqual(suite.cases, [
    {
      name: "one",
      subject: "viewer",
      args: ["post", "read"],
      expect: "allow",
      line: 4,
    },
    {
      name: undefined,
      subject: { role: "viewer" },
      args: { obj: "post", act: "write" },
      expect: "deny",
      line: 8,
    },
    { name: undefined, subject: "root", args: [], expect: "allow", line: 11 },
  ]);
});

Deno.test("parsePolicyTests() reads JSON too", () => {
  const suite = parsePolicyTests(JSON.stringify({
    model: "m.conf",
    policy: "p.csv",
    cases: [{ subject: "a", args: ["b", "c"], expect: "deny" }],
  }));
  assert.equal(suite.cases[0]?.expect, "deny");
});

Deno.test("parsePolicyTests() refuses what would silently skip a check", () => {
  refused(
    `${HEAD}  - { subject: a, args: [b], expected: allow }\n`,
    /case 1 \(line 4\): unknown key "expected"/,
  );
  refused(
    `${HEAD}  - { subject: a, args: [b], expect: alow }\n`,
    /"expect" must be "allow" or "deny", got "alow"/,
  );
  refused(`${HEAD}  - { subject: a, args: [b], expect: true }\n`, /got true/);
  refused(
    `${HEAD}  - { args: [b], expect: allow }\n`,
    /"subject" must be a string or a mapping/,
  );
  refused(
    `${HEAD}  - { subject: a, args: b, expect: allow }\n`,
    /"args" must be a list/,
  );
  refused(`${HEAD}  []\n`, /"cases" must be a non-empty list/);
  refused(
    "model: m.conf\ncases:\n  - {}\n",
    /"policy" must be the path of the policy file/,
  );
  refused(`${HEAD}  - x\nextra: 1\n`, /unknown key "extra"/);
  refused("- just a list\n", /expected a mapping with model, policy and cases/);
});

Deno.test("parsePolicyTests() names the line of a YAML syntax error", () => {
  refused(
    `${HEAD}  - { subject: a, args: [b, expect: allow }\n`,
    /^Cannot read cases\.yaml: line \d+: /,
  );
});

Deno.test("parsePolicyTests() refuses an alias bomb instead of expanding it", () => {
  const lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]'];
  for (let i = 1; i < 12; i++) {
    lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(", ")}]`);
  }
  refused(
    `${lines.join("\n")}\n${HEAD}  - { subject: *a11, expect: allow }\n`,
    /alias/i,
  );
});

Deno.test("readPolicyTests() resolves the files against the cases file and refuses a missing one", async () => {
  const dir = await mkdtemp(join(tmpdir(), "portcullis-cases-"));
  try {
    await writeFile(
      join(dir, "cases.yml"),
      `${HEAD}  - { subject: a, expect: allow }\n`,
    );
    const suite = await readPolicyTests(join(dir, "cases.yml"));
    assert.equal(suite.model, join(dir, "m.conf"));
    assert.equal(suite.policy, join(dir, "p.csv"));
    await assert.rejects(readPolicyTests(join(dir, "missing.yaml")), {
      name: "PolicyTestError",
      code: "CASES_UNREADABLE",
    });
    await assert.rejects(readPolicyTests(dir), { code: "CASES_UNREADABLE" });
  } finally {
    await rm(dir, { recursive: true });
  }
});
