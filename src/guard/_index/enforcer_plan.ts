// Whether a casbin enforcer's decisions can come from the index: casbin's
// own decision code, the default matcher's shape, the effect, and which of
// casbin's functions the matcher calls. Reads the enforcer's parsed model.
import {
  DefaultEffector,
  Enforcer as CasbinEnforcer,
  type Model,
  Util,
} from "casbin";
import { type MatcherPlan, planMatcher } from "./matcher_plan.ts";
import { PATTERN_FUNCTIONS } from "./pattern.ts";

/** What the index needs of a casbin enforcer (see IndexableEnforcer). */
interface ModelHolder {
  getModel(): unknown;
}

/** The enforcer's casbin model, or a TypeError for anything else. */
export function modelOf(enforcer: ModelHolder): Model {
  const model = typeof enforcer === "object" && enforcer !== null &&
      typeof enforcer.getModel === "function"
    ? enforcer.getModel() as { model?: unknown } | undefined
    : undefined;
  if (
    typeof model !== "object" || model === null ||
    !(model.model instanceof Map)
  ) {
    throw new TypeError(
      "Cannot index the enforcer: expected a casbin Enforcer",
    );
  }
  return model as Model;
}

/** Fields of casbin's `CoreEnforcer` that decide whether `enforce` runs. */
export interface CasbinInternals {
  enabled?: unknown;
  acceptJsonRequest?: unknown;
  eft?: unknown;
  fm?: { getFunctions?: () => Map<string, unknown> };
}

/** Why `enforce` of this enforcer does not run casbin's decision code. */
function customEnforce(enforcer: CasbinEnforcer): string | undefined {
  const proto = CasbinEnforcer.prototype as unknown as Record<string, unknown>;
  const own = enforcer as unknown as Record<string, unknown>;
  for (const name of ["enforce", "enforceSync", "privateEnforce"]) {
    if (own[name] !== proto[name]) {
      return `the enforcer overrides ${name}()`;
    }
  }
  const internals = enforcer as unknown as CasbinInternals;
  if (internals.enabled !== true) return "enforcement is disabled";
  if (internals.acceptJsonRequest !== false) {
    return "the enforcer parses JSON requests";
  }
  const eft = internals.eft;
  if (
    typeof eft !== "object" || eft === null ||
    (eft as object).constructor !== DefaultEffector
  ) {
    return "the enforcer uses a custom effector";
  }
  return undefined;
}

// casbin's own implementations, by the names its function map gives them.
const BUILTINS: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ["keyMatch", Util.keyMatchFunc],
  ["keyMatch2", Util.keyMatch2Func],
  ["keyMatch3", Util.keyMatch3Func],
  ["keyMatch4", Util.keyMatch4Func],
  ["keyMatch5", Util.keyMatch5Func],
  ["regexMatch", Util.regexMatchFunc],
  ["ipMatch", Util.ipMatchFunc],
  ["globMatch", Util.globMatch],
]);

/**
 * The names casbin puts in a decision's context as functions, and those of
 * them that are casbin's own pattern functions.
 */
function functionsOf(
  enforcer: CasbinEnforcer,
  model: Model,
): { names: Set<string>; patterns: Set<string> } {
  const names = new Set<string>();
  const patterns = new Set<string>();
  const functions = (enforcer as unknown as CasbinInternals).fm
    ?.getFunctions?.();
  functions?.forEach((value, key) => {
    names.add(key);
    if (PATTERN_FUNCTIONS.has(key) && BUILTINS.get(key) === value) {
      patterns.add(key);
    }
  });
  model.model.get("g")?.forEach((_value, key) => names.add(key));
  return { names, patterns };
}

/** What an index of the enforcer's policy is built from. */
export interface IndexPlan {
  readonly plan: Extract<MatcherPlan, { ok: true }>;
  readonly policy: readonly (readonly unknown[])[];
  readonly model: Model;
}

/**
 * Whether the enforcer's decisions can come from an index: its plan and
 * policy, or the reason casbin must decide.
 */
export function planIndex(enforcer: ModelHolder): IndexPlan | string {
  const model = modelOf(enforcer);
  const custom = customEnforce(enforcer as CasbinEnforcer);
  if (custom !== undefined) return custom;
  const functions = functionsOf(enforcer as CasbinEnforcer, model);
  const plan = planMatcher({
    matcher: model.model.get("m")?.get("m")?.value,
    effect: model.model.get("e")?.get("e")?.value,
    requestTokens: model.model.get("r")?.get("r")?.tokens,
    policyTokens: model.model.get("p")?.get("p")?.tokens,
    functionNames: functions.names,
    roleNames: new Set(model.model.get("g")?.keys() ?? []),
    patternFunctions: functions.patterns,
  });
  if (!plan.ok) return plan.reason;
  const policy = model.model.get("p")?.get("p")?.policy ?? [];
  // casbin evaluates the matcher once with empty policy fields when there
  // is no rule: that case is its own.
  if (policy.length === 0) return "the policy is empty";
  return { plan, policy, model };
}
