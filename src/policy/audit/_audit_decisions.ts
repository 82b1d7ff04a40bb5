// Who can call each route, decided as the guard decides: for every role
// the policy names and every literal permission a route requires, the
// guard's enforcer (the index over casbin) answers, and explain() names
// the rules that matched. Dynamic routes are not decided; a rule they may
// use is one that matches their request when the request-time arguments
// take one of the rule's own values.
import type { Model } from "casbin";
import { keyOf } from "../_coverage.ts";
import type { OpenedPolicy } from "../_open_policy.ts";
import { subjectValue } from "../_subject.ts";
import { explain } from "../explain.ts";
import type { AuditArgument } from "./audit_report.ts";
import type { FoundRoute } from "./_audit_routes.ts";

/** Dynamic arguments of one requirement substituted, at most. */
const MAX_DYNAMIC_POSITIONS = 3;
/** Enforcer errors noted in a report, at most. */
const MAX_ERROR_NOTES = 10;

/** What the decisions of an audit gave. */
export interface Decisions {
  /** Static permission route id -> the roles allowed, sorted. */
  readonly allowed: Map<string, string[]>;
  /** Rule key -> ids of the static routes whose request it matched. */
  readonly ruleRoutes: Map<string, Set<string>>;
  /** Rule key -> ids of the dynamic routes that may use it. */
  readonly ruleDynamic: Map<string, Set<string>>;
  /** Whether every decision was made within the budget. */
  complete: boolean;
  readonly notes: string[];
}

/** The roles a model's policy names: `p` subjects and both sides of `g` links. */
export function policyRoles(model: Model): string[] {
  const roles = new Set<string>();
  for (const [, assertion] of model.model.get("p") ?? []) {
    for (const rule of assertion.policy) {
      if (rule[0] !== undefined && rule[0] !== "") roles.add(rule[0]);
    }
  }
  for (const rule of model.model.get("g")?.get("g")?.policy ?? []) {
    for (const name of rule.slice(0, 2)) if (name !== "") roles.add(name);
  }
  return [...roles].sort();
}

function add(map: Map<string, Set<string>>, key: string, id: string): void {
  let set = map.get(key);
  if (set === undefined) map.set(key, set = new Set());
  set.add(id);
}

/** Every way to fill `positions` of `args` with `values` (cartesian). */
function* filled(
  args: readonly AuditArgument[],
  positions: readonly number[],
  values: readonly string[],
): Generator<string[]> {
  const total = values.length ** positions.length;
  for (let n = 0; n < total; n++) {
    const out = args.map((a) => typeof a === "string" ? a : "");
    let rest = n;
    for (const position of positions) {
      out[position] = values[rest % values.length]!;
      rest = Math.floor(rest / values.length);
    }
    yield out;
  }
}

/** Decides every route for every role, within `maxDecisions` explanations. */
export async function decideRoutes(
  opened: OpenedPolicy,
  routes: readonly FoundRoute[],
  roles: readonly string[],
  maxDecisions: number,
): Promise<Decisions> {
  const model = opened.casbin.getModel();
  const decisions: Decisions = {
    allowed: new Map(),
    ruleRoutes: new Map(),
    ruleDynamic: new Map(),
    complete: true,
    notes: [],
  };
  let budget = maxDecisions;
  let errors = 0;
  const spend = (): boolean => {
    if (budget > 0) {
      budget--;
      return true;
    }
    if (decisions.complete) {
      decisions.complete = false;
      decisions.notes.push(
        `the decision budget of ${maxDecisions} explanations ran out: later routes and rules were not decided`,
      );
    }
    return false;
  };
  const subjects = new Map(roles.map((r) => [r, subjectValue(model, r)]));
  // one pass per distinct literal requirement
  const byRequirement = new Map<
    string,
    { allowed: Set<string>; rules: Set<string>; decided: boolean }
  >();
  const requirementOf = async (args: readonly string[]) => {
    const key = JSON.stringify(args);
    const known = byRequirement.get(key);
    if (known) return known;
    const found = {
      allowed: new Set<string>(),
      rules: new Set<string>(),
      decided: true,
    };
    byRequirement.set(key, found);
    for (const [role, subject] of subjects) {
      if (!spend()) {
        found.decided = false;
        break;
      }
      let allowed = false;
      try {
        allowed = (await opened.enforcer.enforce(subject, ...args)) === true;
      } catch (error) {
        // a few examples; the decision is a denial, as the guard's
        if (++errors <= MAX_ERROR_NOTES) {
          decisions.notes.push(
            `the enforcer threw for ${role}, ${args.join(", ")}: ${
              error instanceof Error ? error.message : String(error)
            }`,
          );
        }
      }
      if (allowed) found.allowed.add(role);
      try {
        const explanation = await explain(opened.enforcer, subject, ...args);
        for (const match of explanation.matched) {
          found.rules.add(keyOf(match.rule.type, match.rule.values));
        }
      } catch {
        // the enforcer's own error is noted above
      }
    }
    return found;
  };

  for (const route of routes) {
    if (route.guard !== "permission" || route.dynamic) continue;
    let allowed: Set<string> | undefined;
    let decided = true;
    for (const args of route.permissions as readonly string[][]) {
      const found = await requirementOf(args);
      decided &&= found.decided;
      for (const rule of found.rules) add(decisions.ruleRoutes, rule, route.id);
      allowed = allowed === undefined
        ? new Set(found.allowed)
        : new Set([...allowed].filter((r) => found.allowed.has(r)));
    }
    if (decided) decisions.allowed.set(route.id, [...(allowed ?? [])].sort());
  }

  // rules a dynamic route may use, among those no static route uses
  const pRules: Array<{ key: string; values: string[] }> = [];
  for (const [type, assertion] of model.model.get("p") ?? []) {
    for (const values of assertion.policy) {
      const key = keyOf(type, values);
      if (!decisions.ruleRoutes.has(key)) pRules.push({ key, values });
    }
  }
  for (const route of routes) {
    if (route.guard !== "permission" || !route.dynamic) continue;
    for (const args of route.permissions) {
      const positions = args.flatMap((a, i) =>
        typeof a === "string" ? [] : [i]
      );
      if (positions.length === 0 || positions.length > MAX_DYNAMIC_POSITIONS) {
        continue;
      }
      for (const rule of pRules) {
        if (decisions.ruleDynamic.get(rule.key)?.has(route.id)) continue;
        const subject = subjectValue(model, rule.values[0] ?? "");
        const values = [...new Set(rule.values)];
        for (const request of filled(args, positions, values)) {
          if (!spend()) break;
          try {
            const explanation = await explain(
              opened.enforcer,
              subject,
              ...request,
            );
            if (
              explanation.matched.some((m) =>
                keyOf(m.rule.type, m.rule.values) === rule.key
              )
            ) {
              add(decisions.ruleDynamic, rule.key, route.id);
              break;
            }
          } catch {
            // a request the matcher cannot evaluate uses no rule
          }
        }
      }
    }
  }
  return decisions;
}
