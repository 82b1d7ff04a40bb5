import { formatExplanation } from "./format_explanation.ts";
import type { PolicyTestReport } from "./policy_test_report.ts";

/**
 * Options for {@linkcode formatPolicyTestReport}.
 *
 * @example
 * ```ts
 * import type { FormatPolicyTestReportOptions } from "@portcullis/portcullis/policy";
 *
 * const options: FormatPolicyTestReportOptions = { verbose: true };
 * ```
 */
export interface FormatPolicyTestReportOptions {
  /**
   * List every case, not only the failed ones.
   * @default {false}
   */
  verbose?: boolean;
}

function indent(text: string, by: string): string {
  return text.split("\n").map((line) => `${by}${line}`).join("\n");
}

/**
 * Formats a policy test report for a terminal: each failed case with what
 * it expected and got and the explanation of the decision, a count line
 * (`12 passed, 1 failed`), and with coverage the rules that decided
 * nothing, by line of the policy file.
 *
 * @param report What {@linkcode runPolicyTests} returned.
 * @param options Whether to list the passed cases too.
 * @returns The text, ending with a newline.
 *
 * @example
 * ```ts
 * import { formatPolicyTestReport } from "@portcullis/portcullis/policy";
 * import assert from "node:assert/strict";
 *
 * const text = formatPolicyTestReport({
 *   model: "model.conf",
 *   policy: "policy.csv",
 *   revision: "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
 *   results: [],
 *   passed: 0,
 *   failed: 0,
 *   durationMs: 3,
 *   coverage: undefined,
 * });
 * assert.match(text, /^0 passed, 0 failed/m);
 * ```
 */
export function formatPolicyTestReport(
  report: PolicyTestReport,
  options: FormatPolicyTestReportOptions = {},
): string {
  const lines = [
    `policy ${report.policy} (revision ${
      report.revision.slice(0, 12)
    }), model ${report.model}`,
  ];
  for (const result of report.results) {
    const where = result.line === undefined ? "" : ` (line ${result.line})`;
    if (result.passed) {
      if (options.verbose === true) lines.push(`  ok    ${result.name}`);
      continue;
    }
    lines.push(
      `  FAIL  ${result.name}${where}: expected ${result.expected}, got ${result.actual}${
        result.error === undefined ? "" : ` (${result.error})`
      }`,
    );
    if (result.explanation !== undefined) {
      lines.push(indent(formatExplanation(result.explanation), "        "));
    }
  }
  lines.push(
    `${report.passed} passed, ${report.failed} failed (${
      Math.round(report.durationMs)
    } ms)`,
  );
  const coverage = report.coverage;
  if (coverage !== undefined) {
    lines.push(
      `coverage: ${coverage.covered} of ${coverage.total} rules took part in a decision (${
        coverage.percent.toFixed(1)
      }%)`,
    );
    const unused = coverage.rules.filter((entry) => entry.hits === 0);
    if (unused.length > 0) {
      lines.push("  never decided anything:");
      for (const entry of unused) {
        const at = entry.line === undefined ? "" : `line ${entry.line}: `;
        lines.push(`    ${at}${entry.rule.text}`);
      }
    }
  }
  return `${lines.join("\n")}\n`;
}
