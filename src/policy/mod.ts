/**
 * Policy tooling for casbin models and policies: test cases with the
 * guard's own decision path (`runPolicyTests`, `portcullis policy test`),
 * rule coverage, JUnit XML for CI, and `explain()`, which says why a
 * request is allowed or denied: the rules that matched, the role links
 * they went through, and for a denial the nearest rules and what was false
 * for them. `auditApp()` (`portcullis audit`) joins an application's routes
 * with its policy: unguarded and dead routes, dead rules, roles that reach
 * nothing, with text, JSON and SARIF reports.
 *
 * @example
 * ```ts
 * import { explain, formatExplanation } from "@portcullis/portcullis/policy";
 * import { newEnforcer, newModelFromString, StringAdapter } from "casbin";
 * import assert from "node:assert/strict";
 *
 * const enforcer = await newEnforcer(
 *   newModelFromString(`
 * [request_definition]
 * r = sub, obj, act
 * [policy_definition]
 * p = sub, obj, act
 * [policy_effect]
 * e = some(where (p.eft == allow))
 * [matchers]
 * m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
 * `),
 *   new StringAdapter("p, editor, post, write\np, viewer, post, read"),
 * );
 * const explanation = await explain(enforcer, { role: "viewer" }, "post", "write");
 * assert.equal(explanation.allowed, false);
 * assert.match(formatExplanation(explanation), /p, editor, post, write: subject role viewer is not editor/);
 * ```
 *
 * @module
 */
export { auditApp, type AuditAppOptions } from "./audit/audit_app.ts";
export type {
  AuditArgument,
  AuditFinding,
  AuditFindingKind,
  AuditReport,
  AuditRole,
  AuditRoute,
  AuditRule,
} from "./audit/audit_report.ts";
export { formatAuditReport } from "./audit/format_audit_report.ts";
export {
  toAuditSarif,
  type ToAuditSarifOptions,
} from "./audit/to_audit_sarif.ts";
export { explain } from "./explain.ts";
export type {
  Explanation,
  PolicyRule,
  RoleCheck,
  RoleLink,
  RuleMatch,
  RuleMiss,
} from "./explanation.ts";
export { formatExplanation } from "./format_explanation.ts";
export {
  parsePolicyTests,
  type ParsePolicyTestsOptions,
  type PolicyTestCase,
  type PolicyTestSuite,
} from "./parse_policy_tests.ts";
export { readPolicyTests } from "./read_policy_tests.ts";
export {
  runPolicyTests,
  type RunPolicyTestsOptions,
} from "./run_policy_tests.ts";
export type {
  PolicyCoverage,
  PolicyTestReport,
  PolicyTestResult,
  RuleCoverage,
} from "./policy_test_report.ts";
export {
  formatPolicyTestReport,
  type FormatPolicyTestReportOptions,
} from "./format_policy_test_report.ts";
export { toJUnitXml } from "./to_junit_xml.ts";
export {
  PolicyTestError,
  type PolicyTestErrorCode,
} from "./policy_test_error.ts";
