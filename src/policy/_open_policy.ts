// Opens a model and policy the way the guard serves them: through
// CachedFileEnforcerProvider (validated the same way, not watched), with its
// default enforcer, the index over casbin, loaded on the event loop so that
// casbin's own enforcer is at hand for explanations.
import type { Enforcer as CasbinEnforcer } from "casbin";
import {
  CachedFileEnforcerProvider,
  type CachedFileEnforcerProviderOptions,
} from "../guard/cached_file_enforcer_provider.ts";
import type { Enforcer } from "../guard/enforcer.ts";
import { indexEnforcer } from "../guard/indexed_enforcer.ts";

/** An opened model and policy; close it when done. */
export interface OpenedPolicy extends AsyncDisposable {
  /** The enforcer the guard would decide with. */
  readonly enforcer: Enforcer;
  /** casbin's enforcer behind it. */
  readonly casbin: CasbinEnforcer;
  readonly revision: string;
}

/** Opens the files; throws `EnforcerLoadError` when they do not load. */
export async function openPolicy(
  modelPath: string,
  policyPath: string,
  functions: CachedFileEnforcerProviderOptions["functions"] | undefined,
): Promise<OpenedPolicy> {
  let casbin: CasbinEnforcer | undefined;
  const provider = await CachedFileEnforcerProvider.open({
    modelPath,
    policyPath,
    watch: false,
    pollIntervalMs: 0,
    ...(functions === undefined ? {} : { functions }),
    prepare: (enforcer) => {
      casbin = enforcer as CasbinEnforcer;
      return indexEnforcer(enforcer);
    },
  });
  try {
    return {
      enforcer: await provider.getEnforcer(),
      casbin: casbin!,
      revision: provider.revision,
      [Symbol.asyncDispose]: () => provider.close(),
    };
  } catch (error) {
    await provider.close();
    throw error;
  }
}
