// The enforcer CachedFileEnforcerProvider serves for a policy loaded in its
// worker: the compiled index decides; casbin's enforcer, for the requests
// the index cannot decide, is built on the main thread the first time one
// arrives (most applications never send one).
import { EnforceContext } from "casbin";
import { type CompiledIndex, CompiledLookup } from "./mod.ts";
import { NO_ANSWER } from "./mod.ts";
import type { Enforcer } from "../enforcer.ts";
import type { IndexableEnforcer } from "../indexed_enforcer.ts";

/** An enforcer over a compiled index, with casbin built on first need. */
export class CompiledEnforcer implements Enforcer {
  #lookup: CompiledLookup;
  #loadCasbin: () => Promise<IndexableEnforcer>;
  #casbin: Promise<IndexableEnforcer> | undefined;

  constructor(
    index: CompiledIndex,
    loadCasbin: () => Promise<IndexableEnforcer>,
  ) {
    this.#lookup = new CompiledLookup(index);
    this.#loadCasbin = loadCasbin;
  }

  /** Whether the index answers this model's decisions (always). */
  get indexed(): boolean {
    return true;
  }

  /** Whether casbin's enforcer was built (a request needed it). */
  get casbinLoaded(): boolean {
    return this.#casbin !== undefined;
  }

  enforce(...rvals: unknown[]): boolean | Promise<boolean> {
    const index = this.#lookup.index;
    if (
      rvals.length === index.requestSize &&
      !(rvals[0] instanceof EnforceContext)
    ) {
      let decision: number;
      try {
        decision = this.#lookup.lookup(rvals);
      } catch {
        decision = NO_ANSWER; // a getter threw: casbin decides (and throws)
      }
      if (decision !== NO_ANSWER) return decision === 1;
    }
    return this.#casbinEnforce(rvals);
  }

  async #casbinEnforce(rvals: unknown[]): Promise<boolean> {
    let casbin = this.#casbin;
    if (casbin === undefined) {
      casbin = this.#loadCasbin();
      this.#casbin = casbin;
      // A failed build is tried again by the next request that needs it.
      casbin.catch(() => {
        if (this.#casbin === casbin) this.#casbin = undefined;
      });
    }
    return await (await casbin).enforce(...rvals);
  }
}
