/**
 * One policy rule (a `p` or a `g` line), as casbin holds it.
 *
 * @example
 * ```ts
 * import type { PolicyRule } from "@portcullis/portcullis/policy";
 *
 * const rule: PolicyRule = {
 *   type: "p",
 *   index: 0,
 *   values: ["editor", "post", "write"],
 *   text: "p, editor, post, write",
 * };
 * ```
 */
export interface PolicyRule {
  /** The policy type: `p`, `p2`, `g`, `g2`... */
  readonly type: string;
  /**
   * The rule's position among the rules of its type, in casbin's order
   * (the file's order, or by priority for a priority model).
   */
  readonly index: number;
  /** The rule's values after the type. */
  readonly values: readonly string[];
  /** The rule as a policy line: `"p, editor, post, write"`. */
  readonly text: string;
}

/**
 * One step of a role path: `from` holds role `to` through a `g` rule.
 *
 * @example
 * ```ts
 * import type { RoleLink } from "@portcullis/portcullis/policy";
 *
 * const link: RoleLink = {
 *   from: "alice",
 *   to: "data2_admin",
 *   domain: undefined,
 *   rule: { type: "g", index: 0, values: ["alice", "data2_admin"], text: "g, alice, data2_admin" },
 * };
 * ```
 */
export interface RoleLink {
  /** The name that holds the role. */
  readonly from: string;
  /** The role it holds. */
  readonly to: string;
  /** The domain of the link, for a role definition with domains. */
  readonly domain: string | undefined;
  /**
   * The `g` rule that makes the link, or `undefined` when casbin's role
   * manager links the two through a pattern no single rule spells out.
   */
  readonly rule: PolicyRule | undefined;
}

/**
 * A role check of the matcher that held for a rule
 * (`g(r.sub, p.sub)`), and the role path that made it hold.
 *
 * @example
 * ```ts
 * import type { RoleCheck } from "@portcullis/portcullis/policy";
 *
 * const check: RoleCheck = {
 *   function: "g",
 *   subject: "alice",
 *   role: "alice",
 *   domain: undefined,
 *   links: [],
 * };
 * ```
 */
export interface RoleCheck {
  /** The role function: `g`, `g2`... */
  readonly function: string;
  /** The name whose roles were checked. */
  readonly subject: string;
  /** The role it had to hold. */
  readonly role: string;
  /** The domain of the check, for a role definition with domains. */
  readonly domain: string | undefined;
  /**
   * The role path from `subject` to `role` (empty when they are the same
   * name), or `undefined` when casbin's role manager answered yes but the
   * path could not be retraced.
   */
  readonly links: readonly RoleLink[] | undefined;
}

/**
 * A rule whose matcher held for the request.
 *
 * @example
 * ```ts
 * import type { RuleMatch } from "@portcullis/portcullis/policy";
 *
 * const match: RuleMatch = {
 *   rule: { type: "p", index: 0, values: ["editor", "post", "write"], text: "p, editor, post, write" },
 *   effect: "allow",
 *   counted: true,
 *   roles: [],
 * };
 * ```
 */
export interface RuleMatch {
  /** The rule that matched. */
  readonly rule: PolicyRule;
  /** What the rule says when it matches. */
  readonly effect: "allow" | "deny";
  /**
   * Whether casbin's effect took the rule into account: it matched before
   * the decision was final. A rule that matched after (a second allow rule
   * under allow-override, a lower-priority rule) changed nothing.
   */
  readonly counted: boolean;
  /** The role checks that held for this rule, with their role paths. */
  readonly roles: readonly RoleCheck[];
}

/**
 * A rule that did not match, and why: one reason per term of the matcher
 * that was false for it.
 *
 * @example
 * ```ts
 * import type { RuleMiss } from "@portcullis/portcullis/policy";
 *
 * const miss: RuleMiss = {
 *   rule: { type: "p", index: 2, values: ["editor", "post", "write"], text: "p, editor, post, write" },
 *   reasons: ["subject viewer is not editor and has no role link to it"],
 * };
 * ```
 */
export interface RuleMiss {
  /** The rule that did not match. */
  readonly rule: PolicyRule;
  /** One readable sentence per term that was false. */
  readonly reasons: readonly string[];
}

/**
 * Why a request was allowed or denied: what {@linkcode explain} returns.
 *
 * @example
 * ```ts
 * import type { Explanation } from "@portcullis/portcullis/policy";
 *
 * const deniedBecause = (explanation: Explanation): string[] =>
 *   explanation.nearest.map((miss) => `${miss.rule.text}: ${miss.reasons.join("; ")}`);
 * ```
 */
export interface Explanation {
  /** The decision, as casbin's `enforce()` makes it. */
  readonly allowed: boolean;
  /** The request values, the subject first. */
  readonly request: readonly unknown[];
  /** The model's policy effect, as written: `some(where (p.eft == allow))`. */
  readonly effect: string;
  /**
   * The rule casbin names for the decision (as `enforceEx` does): the
   * allow rule that allowed, or the deny rule that denied; `undefined` for
   * a denial because no rule matched.
   */
  readonly deciding: RuleMatch | undefined;
  /** Every allow and deny rule whose matcher held, in casbin's order. */
  readonly matched: readonly RuleMatch[];
  /**
   * For a denial that no deny rule made, the allow rules that came nearest
   * to matching (fewest false terms first, at most three); empty otherwise.
   */
  readonly nearest: readonly RuleMiss[];
}
