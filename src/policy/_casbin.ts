// What the policy tools read of a casbin enforcer: its model, its functions,
// its effector and its role managers, as casbin's own `enforce()` reads
// them (casbin 5.51, pinned in deno.json).
import type { Enforcer as CasbinEnforcer, Model, RoleManager } from "casbin";

/** A casbin effector stream: one effect in, the running decision out. */
export interface EffectStream {
  current(): boolean;
  pushEffect(effect: number): [boolean, boolean, boolean];
}

/** The parts of a casbin enforcer an explanation needs. */
export interface CasbinParts {
  readonly enforcer: CasbinEnforcer;
  readonly model: Model;
  /** The matcher functions: casbin's built-ins and the custom ones. */
  readonly functions: ReadonlyMap<string, (...args: unknown[]) => unknown>;
  readonly newEffectStream: (expression: string) => EffectStream;
  readonly enabled: boolean;
  readonly acceptJsonRequest: boolean;
}

interface CasbinInternals {
  fm?: { getFunctions(): Map<string, (...args: unknown[]) => unknown> };
  eft?: { newStream(expression: string): EffectStream };
  enabled?: boolean;
  acceptJsonRequest?: boolean;
}

function isCasbin(value: unknown): value is CasbinEnforcer {
  return typeof (value as { getModel?: unknown } | null)?.getModel ===
      "function" &&
    typeof (value as CasbinInternals).fm?.getFunctions === "function" &&
    typeof (value as CasbinInternals).eft?.newStream === "function";
}

/**
 * The casbin enforcer of `enforcer`: itself, or the one an
 * `IndexedEnforcer` decides with (`.casbin`).
 */
export function casbinParts(enforcer: unknown): CasbinParts {
  let casbin: unknown = enforcer;
  if (!isCasbin(casbin)) {
    try {
      casbin = (enforcer as { casbin?: unknown } | null)?.casbin;
    } catch {
      casbin = undefined;
    }
  }
  if (!isCasbin(casbin)) {
    throw new TypeError(
      'Cannot explain: the enforcer is neither a casbin Enforcer nor an IndexedEnforcer (open a CachedFileEnforcerProvider with loadIn: "main" or a prepare hook to get one)',
    );
  }
  const internals = casbin as unknown as CasbinInternals;
  return {
    enforcer: casbin,
    model: casbin.getModel(),
    functions: internals.fm!.getFunctions(),
    newEffectStream: (expression) => internals.eft!.newStream(expression),
    enabled: internals.enabled !== false,
    acceptJsonRequest: internals.acceptJsonRequest === true,
  };
}

/** The role manager of a role definition (`g`, `g2`...), if any. */
export function roleManagerOf(
  model: Model,
  key: string,
): RoleManager | undefined {
  return model.model.get("g")?.get(key)?.rm;
}

/** The rules of one policy type, in casbin's order. */
export function rulesOf(model: Model, key: string): readonly string[][] {
  return model.model.get(key.slice(0, 1))?.get(key)?.policy ?? [];
}
