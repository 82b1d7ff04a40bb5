import { showValue } from "./_term_reason.ts";
import type { Explanation, RoleCheck, RuleMatch } from "./explanation.ts";

/** " through alice -> data2_admin (g, alice, data2_admin)" for a role check. */
function through(check: RoleCheck): string {
  if (check.subject === check.role) return "";
  const domain = check.domain === undefined ? "" : ` in ${check.domain}`;
  if (check.links === undefined) {
    return ` through a role link from ${check.subject} to ${check.role}${domain}`;
  }
  const names = [check.subject, ...check.links.map((link) => link.to)];
  const rules = check.links.map((link) => link.rule?.text ?? "a pattern");
  return ` through ${names.join(" -> ")}${domain} (${rules.join("; ")})`;
}

function describeMatch(match: RuleMatch): string {
  return `${match.rule.text}${match.roles.map(through).join("")}`;
}

/**
 * Formats an explanation as a few readable lines: the decision and the
 * request, the rule that decided with its role path, the other rules that
 * matched, and, for a denial, the nearest rules with what was false for
 * them.
 *
 * @param explanation What {@linkcode explain} returned.
 * @returns The text, without a trailing newline.
 *
 * @example
 * ```ts
 * import { formatExplanation } from "@portcullis/portcullis/policy";
 * import assert from "node:assert/strict";
 *
 * const text = formatExplanation({
 *   allowed: false,
 *   request: [{ role: "viewer" }, "post", "write"],
 *   effect: "some(where (p.eft == allow))",
 *   deciding: undefined,
 *   matched: [],
 *   nearest: [{
 *     rule: { type: "p", index: 0, values: ["editor", "post", "write"], text: "p, editor, post, write" },
 *     reasons: ["subject role viewer is not editor"],
 *   }],
 * });
 * assert.equal(text, [
 *   'deny: {"role":"viewer"}, post, write',
 *   "  effect: some(where (p.eft == allow))",
 *   "  no rule allowed it",
 *   "  nearest rules:",
 *   "    p, editor, post, write: subject role viewer is not editor",
 * ].join("\n"));
 * ```
 */
export function formatExplanation(explanation: Explanation): string {
  const { allowed, deciding, matched, nearest } = explanation;
  const lines = [
    `${allowed ? "allow" : "deny"}: ${
      explanation.request.map(showValue).join(", ")
    }`,
    `  effect: ${explanation.effect}`,
  ];
  if (deciding !== undefined) {
    lines.push(`  decided by: ${describeMatch(deciding)}`);
  } else if (allowed) {
    lines.push("  no rule denied it");
  } else {
    lines.push("  no rule allowed it");
  }
  const others = matched.filter((match) => match !== deciding);
  if (others.length > 0) {
    lines.push(deciding === undefined ? "  matched:" : "  also matched:");
    for (const match of others) {
      lines.push(
        `    ${match.effect} ${describeMatch(match)}${
          match.counted ? "" : " (after the decision was made)"
        }`,
      );
    }
  }
  if (nearest.length > 0) {
    lines.push("  nearest rules:");
    for (const miss of nearest) {
      lines.push(`    ${miss.rule.text}: ${miss.reasons.join("; ")}`);
    }
  }
  return lines.join("\n");
}
