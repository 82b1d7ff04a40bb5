import type { Explanation, PolicyRule } from "./explanation.ts";

/**
 * The outcome of one policy test case.
 *
 * @example
 * ```ts
 * import type { PolicyTestResult } from "@portcullis/portcullis/policy";
 *
 * const failures = (results: readonly PolicyTestResult[]): string[] =>
 *   results.filter((result) => !result.passed).map((result) => result.name);
 * ```
 */
export interface PolicyTestResult {
  /** The case's name, or one made of its request and expectation. */
  readonly name: string;
  /** The case's line in the cases file, when known. */
  readonly line: number | undefined;
  /** The request values the enforcer received, the subject first. */
  readonly request: readonly unknown[];
  /** The decision the case expects. */
  readonly expected: "allow" | "deny";
  /** The decision, or `"error"` when the case could not be decided. */
  readonly actual: "allow" | "deny" | "error";
  /** Whether the decision was the expected one. */
  readonly passed: boolean;
  /** Why the case could not be decided, for `"error"`. */
  readonly error: string | undefined;
  /**
   * Why the request got its decision: for every failed case, and for
   * every case when coverage was asked for.
   */
  readonly explanation: Explanation | undefined;
  /** Time the decision took, in milliseconds. */
  readonly durationMs: number;
}

/**
 * One rule of the policy and how many cases it took part in deciding.
 *
 * @example
 * ```ts
 * import type { RuleCoverage } from "@portcullis/portcullis/policy";
 *
 * const uncovered = (rules: readonly RuleCoverage[]): string[] =>
 *   rules.filter((entry) => entry.hits === 0).map((entry) => entry.rule.text);
 * ```
 */
export interface RuleCoverage {
  /** The rule. */
  readonly rule: PolicyRule;
  /** The rule's line in the policy file, when found. */
  readonly line: number | undefined;
  /**
   * How many cases it took part in deciding: a `p` rule that matched
   * before the decision was final, a `g` rule on the role path of such a
   * rule.
   */
  readonly hits: number;
}

/**
 * Which rules and role links the cases exercised.
 *
 * @example
 * ```ts
 * import type { PolicyCoverage } from "@portcullis/portcullis/policy";
 *
 * const line = (coverage: PolicyCoverage): string =>
 *   `${coverage.covered}/${coverage.total} rules (${coverage.percent.toFixed(1)}%)`;
 * ```
 */
export interface PolicyCoverage {
  /** Every `p` and `g` rule, in the file's order. */
  readonly rules: readonly RuleCoverage[];
  /** How many rules took part in deciding at least one case. */
  readonly covered: number;
  /** How many rules the policy holds. */
  readonly total: number;
  /** `covered / total` as a percentage (100 for an empty policy). */
  readonly percent: number;
}

/**
 * What {@linkcode runPolicyTests} returns.
 *
 * @example
 * ```ts
 * import type { PolicyTestReport } from "@portcullis/portcullis/policy";
 *
 * const ok = (report: PolicyTestReport): boolean => report.failed === 0;
 * ```
 */
export interface PolicyTestReport {
  /** The model file tested. */
  readonly model: string;
  /** The policy file tested. */
  readonly policy: string;
  /** The policy's revision (see `CachedFileEnforcerProvider.revision`). */
  readonly revision: string;
  /** One result per case, in the cases' order. */
  readonly results: readonly PolicyTestResult[];
  /** How many cases got the expected decision. */
  readonly passed: number;
  /** How many did not (errors included). */
  readonly failed: number;
  /** Time the whole run took, in milliseconds. */
  readonly durationMs: number;
  /** Rule coverage, when asked for. */
  readonly coverage: PolicyCoverage | undefined;
}
