import { formatExplanation } from "./format_explanation.ts";
import type {
  PolicyTestReport,
  PolicyTestResult,
} from "./policy_test_report.ts";

// Characters XML 1.0 cannot hold at all (most C0 controls, lone
// surrogates, U+FFFE and U+FFFF): replaced, so that any case name or
// message gives a well-formed file.
const NOT_XML =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as XML character data or an attribute value. */
function escapeXml(text: string): string {
  return text.replace(NOT_XML, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\r/g, "&#13;")
    .replace(/\n/g, "&#10;")
    .replace(/\t/g, "&#9;");
}

/** Character data keeps its line breaks. */
function escapeText(text: string): string {
  return escapeXml(text).replace(/&#10;/g, "\n");
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function testCase(result: PolicyTestResult, classname: string): string {
  const open = `    <testcase name="${escapeXml(result.name)}" classname="${
    escapeXml(classname)
  }" time="${seconds(result.durationMs)}"`;
  if (result.passed) return `${open}/>`;
  const where = result.line === undefined ? "" : ` (line ${result.line})`;
  if (result.actual === "error") {
    return `${open}>\n      <error message="${
      escapeXml(`${result.error ?? "error"}${where}`)
    }" type="Error"/>\n    </testcase>`;
  }
  const detail = result.explanation === undefined
    ? ""
    : escapeText(formatExplanation(result.explanation));
  return `${open}>\n      <failure message="${
    escapeXml(`expected ${result.expected}, got ${result.actual}${where}`)
  }" type="PolicyTestFailure">${detail}</failure>\n    </testcase>`;
}

/**
 * Writes a policy test report as JUnit XML, the format CI systems read
 * test results from: one `testsuite` for the policy, one `testcase` per
 * case, a `failure` (with the explanation of the decision) for a wrong
 * decision and an `error` for a case that could not be decided, and the
 * model, policy, revision and coverage as properties.
 *
 * @param report What {@linkcode runPolicyTests} returned.
 * @returns The XML document.
 *
 * @example
 * ```ts
 * import { toJUnitXml } from "@portcullis/portcullis/policy";
 * import assert from "node:assert/strict";
 *
 * const xml = toJUnitXml({
 *   model: "model.conf",
 *   policy: "policy.csv",
 *   revision: "0f1e",
 *   results: [{
 *     name: "viewers read <posts>",
 *     line: 4,
 *     request: ["viewer", "post", "read"],
 *     expected: "allow",
 *     actual: "allow",
 *     passed: true,
 *     error: undefined,
 *     explanation: undefined,
 *     durationMs: 0.2,
 *   }],
 *   passed: 1,
 *   failed: 0,
 *   durationMs: 12,
 *   coverage: undefined,
 * });
 * assert.match(xml, /<testcase name="viewers read &lt;posts&gt;"/);
 * ```
 */
export function toJUnitXml(report: PolicyTestReport): string {
  const errors = report.results.filter((r) => r.actual === "error").length;
  const failures = report.failed - errors;
  const counts =
    `tests="${report.results.length}" failures="${failures}" errors="${errors}" time="${
      seconds(report.durationMs)
    }"`;
  const properties = [
    ["model", report.model],
    ["policy", report.policy],
    ["revision", report.revision],
    ...(report.coverage === undefined ? [] : [[
      "coverage",
      `${report.coverage.covered}/${report.coverage.total}`,
    ]]),
  ].map(([name, value]) =>
    `      <property name="${name}" value="${escapeXml(value!)}"/>`
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="portcullis policy tests" ${counts}>`,
    `  <testsuite name="${escapeXml(report.policy)}" ${counts}>`,
    "    <properties>",
    ...properties,
    "    </properties>",
    ...report.results.map((result) => testCase(result, "policy")),
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
