// What the differential tests of the index share: casbin's own decision
// as the reference, and the worker's compiled form of an enforcer's index.
import { Enforcer as CasbinEnforcer } from "casbin";
import { compileEnforcerIndex } from "../../src/guard/_index/mod.ts";
import { CompiledEnforcer } from "../../src/guard/_index/compiled_enforcer.ts";

/** A decision's answer, or its error's message. */
export type Outcome = { value: unknown } | { error: string };

export async function settle(fn: () => unknown): Promise<Outcome> {
  try {
    return { value: await fn() };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** casbin's own enforce(), whatever the enforcer's own property says. */
export const casbinEnforce = CasbinEnforcer.prototype.enforce;
/** casbin's own enforceSync(). */
export const casbinEnforceSync = CasbinEnforcer.prototype.enforceSync;

/**
 * The worker's form of the enforcer's index: compiled, then copied the way
 * a message copies it, with casbin itself (the reference) deciding what it
 * cannot; `undefined` when the model is not indexed.
 */
export function compiledOf(
  casbin: CasbinEnforcer,
): CompiledEnforcer | undefined {
  const flat = compileEnforcerIndex(casbin);
  if (typeof flat === "string") return undefined;
  return new CompiledEnforcer(
    structuredClone(flat),
    () =>
      Promise.resolve({
        getModel: () => casbin.getModel(),
        enforce: (...rvals: unknown[]) => casbinEnforce.apply(casbin, rvals),
        enforceSync: (...rvals: unknown[]) =>
          casbinEnforceSync.apply(casbin, rvals),
      }),
  );
}
