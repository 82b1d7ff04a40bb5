import assert from "node:assert/strict";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import type {
  PolicyTestReport,
  PolicyTestResult,
} from "../../src/policy/policy_test_report.ts";
import { toJUnitXml } from "../../src/policy/to_junit_xml.ts";
import { runPolicyTests } from "../../src/policy/run_policy_tests.ts";
import { examplePath } from "../fixtures/casbin_examples.ts";

function result(overrides: Partial<PolicyTestResult>): PolicyTestResult {
  return {
    name: "case",
    line: undefined,
    request: [],
    expected: "allow",
    actual: "allow",
    passed: true,
    error: undefined,
    explanation: undefined,
    durationMs: 1,
    ...overrides,
  };
}

function parse(xml: string): Record<string, unknown> {
  const valid = XMLValidator.validate(xml);
  assert.equal(valid, true, JSON.stringify(valid));
  return new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" })
    .parse(xml);
}

Deno.test("toJUnitXml() writes well-formed JUnit with a failure per wrong decision", async () => {
  const report = await runPolicyTests({
    model: examplePath("rbac_model.conf"),
    policy: examplePath("rbac_policy.csv"),
    cases: [
      {
        name: "alice reads data1",
        subject: "alice",
        args: ["data1", "read"],
        expect: "allow",
      },
      {
        name: "bob reads data2",
        subject: "bob",
        args: ["data2", "read"],
        expect: "allow",
        line: 7,
      },
      { name: "too short", subject: "bob", args: ["data2"], expect: "deny" },
    ],
  }, { coverage: true });
  const xml = toJUnitXml(report);
  const doc = parse(xml) as {
    testsuites: {
      tests: string;
      failures: string;
      errors: string;
      testsuite: {
        properties: { property: { name: string; value: string }[] };
        testcase: {
          name: string;
          failure?: { message: string; "#text": string };
          error?: { message: string };
        }[];
      };
    };
  };
  assert.deepEqual(
    [doc.testsuites.tests, doc.testsuites.failures, doc.testsuites.errors],
    ["3", "1", "1"],
  );
  const cases = doc.testsuites.testsuite.testcase;
  assert.deepEqual(cases.map((c) => c.name), [
    "alice reads data1",
    "bob reads data2",
    "too short",
  ]);
  assert.equal(cases[0]?.failure, undefined);
  assert.equal(cases[1]?.failure?.message, "expected allow, got deny (line 7)");
  assert.match(
    cases[1]!.failure!["#text"],
    /p, bob, data2, write: act read is not write/,
  );
  assert.match(cases[2]!.error!.message, /invalid request size/);
  assert.deepEqual(
    doc.testsuites.testsuite.properties.property.map((p) => p.name),
    ["model", "policy", "revision", "coverage"],
  );
});

Deno.test("toJUnitXml() stays well-formed whatever the names and messages hold", () => {
  const nasty = [
    "quotes \" and ' and <tags> & ]]> <!-- -->",
    "controls \u0000\u0001\u0008\u000b\u001f and \t\r\n breaks",
    "lone surrogates \ud800 \udfff, a pair \ud83d\ude00, \ufffe\uffff",
  ];
  const report: PolicyTestReport = {
    model: nasty[0]!,
    policy: nasty[1]!,
    revision: nasty[2]!,
    results: nasty.flatMap((name) => [
      result({ name }),
      result({ name, actual: "deny", passed: false }),
      result({ name, actual: "error", passed: false, error: name }),
    ]),
    passed: 3,
    failed: 6,
    durationMs: 5,
    coverage: undefined,
  };
  const doc = parse(toJUnitXml(report)) as {
    testsuites: { testsuite: { testcase: { name: string }[] } };
  };
  const names = doc.testsuites.testsuite.testcase.map((c) => c.name);
  assert.equal(names.length, 9);
  assert.equal(names[0], nasty[0]);
  assert.ok(names[6]!.includes("\ud83d\ude00"));
  assert.ok(!names[6]!.includes("\ud800"));
});
