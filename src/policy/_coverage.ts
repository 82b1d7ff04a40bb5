// Rule coverage of a policy test run: which `p` rules took part in a
// decision (they matched before it was final) and which `g` rules linked a
// subject to the role of such a rule, with each rule's line in the file.
import { BracketAwareCsvParser, type Model } from "casbin";
import { splitPolicyLine } from "../guard/_policy/build.ts";
import { policyRule } from "./explain.ts";
import type { Explanation } from "./explanation.ts";
import type { PolicyCoverage, RuleCoverage } from "./policy_test_report.ts";

/** A rule's identity: its type and values. */
export function keyOf(type: string, values: readonly string[]): string {
  return [type, ...values].join("\u0000");
}

/** Line numbers of each rule of the policy text, by rule. */
export function lineNumbers(policyText: string): Map<string, number[]> {
  const lines = new Map<string, number[]>();
  const parser = new BracketAwareCsvParser();
  policyText.split("\n").forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    let fields: string[] | null;
    try {
      fields = splitPolicyLine(line, parser);
    } catch {
      return; // the provider refused such a line already
    }
    if (fields === null || fields.length === 0) return;
    const key = keyOf(fields[0]!, fields.slice(1));
    const list = lines.get(key);
    if (list === undefined) lines.set(key, [index + 1]);
    else list.push(index + 1);
  });
  return lines;
}

/** The coverage of the explanations of a run over a model's policy. */
export function policyCoverage(
  model: Model,
  policyText: string,
  explanations: readonly (Explanation | undefined)[],
): PolicyCoverage {
  const hits = new Map<string, number>();
  const hit = (key: string): void =>
    void hits.set(key, (hits.get(key) ?? 0) + 1);
  for (const explanation of explanations) {
    if (explanation === undefined) continue;
    const seen = new Set<string>();
    for (const match of explanation.matched) {
      if (!match.counted) continue;
      seen.add(keyOf(match.rule.type, match.rule.values));
      for (const check of match.roles) {
        for (const link of check.links ?? []) {
          if (link.rule !== undefined) {
            seen.add(keyOf(link.rule.type, link.rule.values));
          }
        }
      }
    }
    for (const key of seen) hit(key);
  }
  const lines = lineNumbers(policyText);
  const rules: RuleCoverage[] = [];
  for (const section of ["p", "g"]) {
    for (const [type, assertion] of model.model.get(section) ?? []) {
      assertion.policy.forEach((values, index) => {
        const key = keyOf(type, values);
        rules.push({
          rule: policyRule(type, index, values),
          line: lines.get(key)?.shift(),
          hits: hits.get(key) ?? 0,
        });
      });
    }
  }
  rules.sort((a, b) =>
    (a.line ?? Infinity) - (b.line ?? Infinity) ||
    a.rule.type.localeCompare(b.rule.type) || a.rule.index - b.rule.index
  );
  const covered = rules.filter((entry) => entry.hits > 0).length;
  const total = rules.length;
  return {
    rules,
    covered,
    total,
    percent: total === 0 ? 100 : (covered / total) * 100,
  };
}
