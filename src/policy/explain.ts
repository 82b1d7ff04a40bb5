import { Effect, EnforceContext, Util } from "casbin";
import type { Enforcer } from "../guard/enforcer.ts";
import {
  type CasbinParts,
  casbinParts,
  roleManagerOf,
  rulesOf,
} from "./_casbin.ts";
import { MatcherFunctions } from "./_evaluation.ts";
import { callsTo, flatten, type Node, parseMatcher } from "./_matcher_ast.ts";
import { rolePath } from "./_role_path.ts";
import { termReasons, type TermScope } from "./_term_reason.ts";
import type {
  Explanation,
  PolicyRule,
  RoleCheck,
  RuleMatch,
  RuleMiss,
} from "./explanation.ts";

/** How many near misses an explanation lists. */
const NEAREST = 3;
/** Parsed matchers kept per explanation (an `eval()` matcher has one per rule). */
const MAX_PARSED = 1024;

type Parameters = Record<string, unknown>;

/** A rule as a {@linkcode PolicyRule}. */
export function policyRule(
  type: string,
  index: number,
  values: readonly string[],
): PolicyRule {
  return { type, index, values, text: [type, ...values].join(", ") };
}

/** casbin's effect of a matcher result (`privateEnforce`). */
function effectOf(result: unknown): number {
  switch (typeof result) {
    case "boolean":
      return result ? Effect.Allow : Effect.Indeterminate;
    case "number":
      return result === 0 ? Effect.Indeterminate : result;
    case "string":
      return result === "" ? Effect.Indeterminate : Effect.Allow;
    default:
      throw new Error(
        "matcher result should only be of type boolean, number, or string",
      );
  }
}

/** State shared by the steps of one explanation. */
class Explainer {
  readonly functions: MatcherFunctions;
  readonly roleFunctions: ReadonlySet<string>;
  readonly requestTokens: readonly string[];
  readonly #parts: CasbinParts;
  readonly #parsed = new Map<string, Node>();
  readonly #roleRules = new Map<string, PolicyRule[]>();

  constructor(parts: CasbinParts, rTokens: string[]) {
    this.#parts = parts;
    this.functions = new MatcherFunctions(parts);
    this.roleFunctions = new Set(parts.model.model.get("g")?.keys() ?? []);
    this.requestTokens = rTokens;
  }

  /** The matcher for one rule's parameters (casbin's `eval()` included). */
  matcherFor(matcher: string, parameters: Parameters): Node {
    let text = matcher;
    if (Util.hasEval(matcher)) {
      for (const ruleName of Util.getEvalValue(matcher)) {
        if (!(ruleName in parameters)) {
          throw new Error(`${ruleName} not in ${parameters}`);
        }
        text = Util.replaceEval(
          text,
          ruleName,
          Util.escapeAssertion(String(parameters[ruleName])),
        );
      }
    }
    let node = this.#parsed.get(text);
    if (node === undefined) {
      node = parseMatcher(text);
      if (this.#parsed.size >= MAX_PARSED) this.#parsed.clear();
      this.#parsed.set(text, node);
    }
    return node;
  }

  scope(parameters: Parameters): TermScope {
    return {
      functions: this.functions,
      parameters,
      roleFunctions: this.roleFunctions,
      requestTokens: this.requestTokens,
    };
  }

  /** The role checks that held in `matcher` for these values. */
  async roleChecks(
    matcher: Node,
    parameters: Parameters,
  ): Promise<RoleCheck[]> {
    const checks: RoleCheck[] = [];
    const seen = new Set<string>();
    for (const call of callsTo(matcher, this.roleFunctions)) {
      const outcome = await this.functions.evaluate(call, parameters);
      if (!outcome.ok || outcome.value !== true) continue;
      const args: string[] = [];
      for (const arg of call.arguments as Node[]) {
        const value = await this.functions.evaluate(arg, parameters);
        // casbin's g(): `(arg || '').toString()`
        args.push(value.ok ? String(value.value || "") : "");
      }
      const name = String((call.callee as Node).name);
      const [subject = "", role = "", domain] = args;
      const key = JSON.stringify([name, subject, role, domain]);
      if (seen.has(key)) continue;
      seen.add(key);
      const links = await rolePath(
        roleManagerOf(this.#parts.model, name),
        this.roleRules(name),
        subject,
        role,
        domain,
      );
      checks.push({ function: name, subject, role, domain, links });
    }
    return checks;
  }

  roleRules(key: string): PolicyRule[] {
    let rules = this.#roleRules.get(key);
    if (rules === undefined) {
      rules = rulesOf(this.#parts.model, key).map((values, index) =>
        policyRule(key, index, values)
      );
      this.#roleRules.set(key, rules);
    }
    return rules;
  }
}

/**
 * Explains a decision of a casbin model: evaluates the model's matcher on
 * every rule with casbin's own expression evaluator and function map, feeds
 * the effects to casbin's effector in casbin's order, and reports the
 * decision (the same as casbin's `enforce()`), the allow and deny rules that
 * matched with the role paths that made their role checks hold, the rule
 * that decided, and, for a denial no deny rule made, the allow rules that came nearest with
 * the terms that were false for them ("p, editor, post, write: subject
 * viewer is not editor and has no role link to it").
 *
 * It works for every model casbin decides, whether or not the index
 * answers it: pass a casbin `Enforcer`, or an `IndexedEnforcer` (the
 * default enforcer of `CachedFileEnforcerProvider` for a policy loaded on
 * the event loop), whose casbin enforcer it reads. An `EnforceContext` may
 * come first, as for casbin's `enforce()`. A request casbin would throw on
 * makes it throw the same error.
 *
 * @param enforcer A casbin `Enforcer` or an `IndexedEnforcer`.
 * @param rvals The request values, as for `enforce()`.
 * @returns The explanation.
 * @throws {TypeError} When the enforcer exposes no casbin enforcer.
 *
 * @example Why was the viewer denied?
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
 * [role_definition]
 * g = _, _
 * [policy_effect]
 * e = some(where (p.eft == allow))
 * [matchers]
 * m = g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act
 * `),
 *   new StringAdapter("p, editor, post, write\np, viewer, post, read\ng, alice, editor"),
 * );
 * const denied = await explain(enforcer, "bob", "post", "write");
 * assert.equal(denied.allowed, false);
 * assert.deepEqual(denied.nearest[0]?.reasons, [
 *   "subject bob is not editor and has no role link to it",
 * ]);
 *
 * const allowed = await explain(enforcer, "alice", "post", "write");
 * assert.equal(allowed.deciding?.rule.text, "p, editor, post, write");
 * assert.equal(allowed.deciding?.roles[0]?.links?.[0]?.rule?.text, "g, alice, editor");
 * assert.match(formatExplanation(allowed), /through alice -> editor \(g, alice, editor\)/);
 * ```
 */
export async function explain(
  enforcer: Enforcer,
  ...rvals: unknown[]
): Promise<Explanation> {
  const parts = casbinParts(enforcer);
  let context = new EnforceContext("r", "p", "e", "m");
  if (rvals[0] instanceof EnforceContext) {
    context = rvals[0];
    rvals = rvals.slice(1);
  }
  const model = parts.model.model;
  const matcher = model.get("m")?.get(context.mType)?.value;
  if (!matcher) throw new Error("Unable to find matchers in model");
  const effect = model.get("e")?.get(context.eType)?.value;
  if (!effect) throw new Error("Unable to find policy_effect in model");
  const shown = effect.replace(/\b([rp]\d*)_/g, "$1.");
  const request = rvals.slice();
  if (!parts.enabled) {
    return {
      allowed: true,
      request,
      effect: shown,
      deciding: undefined,
      matched: [],
      nearest: [],
    };
  }
  const pType = context.pType;
  const policy = model.get("p")?.get(pType);
  const rules = policy?.policy ?? [];
  const rTokens = model.get("r")?.get(context.rType)?.tokens ?? [];
  const explainer = new Explainer(parts, rTokens);
  const requestValues: Parameters = {};
  rTokens.forEach((token, j) => {
    let value = rvals[j];
    if (parts.acceptJsonRequest) {
      try {
        value = JSON.parse(value as string);
      } catch {
        // not JSON: the value as it is, as casbin does
      }
    }
    requestValues[token] = value;
  });
  const stream = parts.newEffectStream(effect);
  const matched: RuleMatch[] = [];
  const misses: number[] = [];
  let decidingIndex = -1;
  if (rules.length > 0 && matcher.includes(`${pType}_`)) {
    if (rTokens.length !== rvals.length) {
      throw new Error(
        `invalid request size: expected ${rTokens.length}, got ${rvals.length}, rvals: ${rvals}"`,
      );
    }
    let done = false;
    for (let i = 0; i < rules.length; i++) {
      const parameters = ruleParameters(
        requestValues,
        policy!.tokens,
        rules[i]!,
      );
      let node: Node;
      let ruleEffect: number;
      try {
        node = explainer.matcherFor(matcher, parameters);
        const outcome = await explainer.functions.evaluate(node, parameters);
        if (!outcome.ok) throw outcome.error;
        ruleEffect = effectOf(outcome.value);
      } catch (error) {
        // casbin never evaluates the rules after a final decision
        if (done) continue;
        throw error;
      }
      const eft = parameters[`${pType}_eft`];
      if (eft && ruleEffect === Effect.Allow) {
        ruleEffect = eft === "allow"
          ? Effect.Allow
          : eft === "deny"
          ? Effect.Deny
          : Effect.Indeterminate;
      }
      const counted = !done && ruleEffect !== Effect.Indeterminate;
      if (!done) {
        const [, recorded, finished] = stream.pushEffect(ruleEffect);
        if (recorded) decidingIndex = i;
        done = finished;
      }
      if (ruleEffect === Effect.Allow || ruleEffect === Effect.Deny) {
        matched.push({
          rule: policyRule(pType, i, rules[i]!),
          effect: ruleEffect === Effect.Allow ? "allow" : "deny",
          counted,
          roles: await explainer.roleChecks(node, parameters),
        });
      } else if (!eft || eft === "allow") {
        misses.push(i);
      }
    }
  } else {
    const parameters: Parameters = { ...requestValues };
    for (const token of policy?.tokens ?? []) parameters[token] = "";
    const outcome = await explainer.functions.evaluate(
      explainer.matcherFor(matcher, parameters),
      parameters,
    );
    if (!outcome.ok) throw outcome.error;
    stream.pushEffect(outcome.value ? Effect.Allow : Effect.Indeterminate);
  }
  const allowed = stream.current();
  const deciding = matched.find((match) => match.rule.index === decidingIndex);
  return {
    allowed,
    request,
    effect: shown,
    deciding,
    matched,
    // A deny rule that decided is the reason; allow rules are for the rest.
    nearest: allowed || deciding !== undefined ? [] : await nearestMisses(
      explainer,
      matcher,
      requestValues,
      policy?.tokens ?? [],
      rules,
      misses,
      pType,
    ),
  };
}

function ruleParameters(
  requestValues: Parameters,
  tokens: readonly string[],
  rule: readonly string[],
): Parameters {
  const parameters: Parameters = { ...requestValues };
  tokens.forEach((token, j) => {
    parameters[token] = rule[j];
  });
  return parameters;
}

/**
 * The allow rules that came nearest: fewest false top-level terms first
 * (in casbin's order among equals), leaving out rules for which every term
 * of a matcher with several was false.
 */
async function nearestMisses(
  explainer: Explainer,
  matcher: string,
  requestValues: Parameters,
  tokens: readonly string[],
  rules: readonly string[][],
  misses: readonly number[],
  pType: string,
): Promise<RuleMiss[]> {
  const ranked: { index: number; failed: number }[] = [];
  for (const index of misses) {
    const parameters = ruleParameters(requestValues, tokens, rules[index]!);
    const terms = flatten(explainer.matcherFor(matcher, parameters), "&&");
    let failed = 0;
    for (const term of terms) {
      const outcome = await explainer.functions.evaluate(term, parameters);
      if (!outcome.ok || !outcome.value) failed++;
    }
    if (terms.length > 1 && failed === terms.length) continue;
    ranked.push({ index, failed });
  }
  ranked.sort((a, b) => a.failed - b.failed || a.index - b.index);
  const nearest: RuleMiss[] = [];
  for (const { index } of ranked.slice(0, NEAREST)) {
    const parameters = ruleParameters(requestValues, tokens, rules[index]!);
    const scope = explainer.scope(parameters);
    const reasons: string[] = [];
    for (
      const term of flatten(explainer.matcherFor(matcher, parameters), "&&")
    ) {
      reasons.push(...(await termReasons(term, scope) ?? []));
    }
    if (reasons.length === 0) {
      // Every term held, the whole did not: a result casbin does not count.
      reasons.push("the matcher's result is not a match");
    }
    nearest.push({ rule: policyRule(pType, index, rules[index]!), reasons });
  }
  return nearest;
}
