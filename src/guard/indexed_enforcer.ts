import { EnforceContext } from "casbin";
import type { Enforcer as CasbinEnforcer } from "casbin";
import type { Assertion, Model } from "casbin";
import { DecisionCache, type DecisionCacheOptions } from "./decision_cache.ts";
import { yieldToEventLoop } from "./_policy/build.ts";
import type { Enforcer } from "./enforcer.ts";
import { compileIndexSteps } from "./_index/build.ts";
import type { CompiledIndex } from "./_index/compiled_index.ts";
import { CompiledLookup, NO_ANSWER } from "./_index/lookup.ts";
import { type CasbinInternals, modelOf } from "./_index/enforcer_plan.ts";
import {
  type RoleManagerState,
  roleManagerState,
  sameRoleManager,
} from "./_index/role_graph.ts";

/**
 * Options for {@linkcode indexEnforcer} and {@linkcode IndexedEnforcer.from}.
 *
 * @example
 * ```ts
 * import type { IndexedEnforcerOptions } from "@portcullis/portcullis/guard";
 *
 * const options: IndexedEnforcerOptions = {
 *   cache: { maxEntries: 10_000 },
 *   fallback: "enforce",
 * };
 * ```
 */
export interface IndexedEnforcerOptions {
  /**
   * Caches the decisions that go to casbin (the index answers the others
   * without one). `true` uses the defaults of {@linkcode DecisionCacheOptions}.
   * @default {false}
   */
  cache?: boolean | DecisionCacheOptions;
  /**
   * The casbin method that decides what the index cannot: `"enforce"`
   * (asynchronous, supports asynchronous custom functions) or
   * `"enforceSync"` (synchronous, two to three times faster).
   * @default {"enforce"}
   */
  fallback?: "enforce" | "enforceSync";
}

/**
 * What {@linkcode IndexedEnforcer} needs of a casbin `Enforcer` (from
 * `newEnforcer`), written structurally so that any casbin enforcer fits.
 * Only a casbin 5 enforcer works: its model is read to build the index.
 *
 * @example
 * ```ts
 * import { newEnforcer, newModelFromString } from "casbin";
 * import type { IndexableEnforcer } from "@portcullis/portcullis/guard";
 *
 * const enforcer: IndexableEnforcer = await newEnforcer(newModelFromString(`
 * [request_definition]
 * r = sub
 * [policy_definition]
 * p = sub
 * [policy_effect]
 * e = some(where (p.eft == allow))
 * [matchers]
 * m = r.sub == p.sub
 * `));
 * ```
 */
export interface IndexableEnforcer {
  /**
   * Returns casbin's parsed model, with its policy.
   *
   * @returns The model.
   */
  getModel(): unknown;
  /**
   * casbin's asynchronous decision.
   *
   * @param rvals The request values.
   * @returns Whether the request is allowed.
   */
  enforce(...rvals: unknown[]): Promise<boolean>;
  /**
   * casbin's synchronous decision.
   *
   * @param rvals The request values.
   * @returns Whether the request is allowed.
   */
  enforceSync(...rvals: unknown[]): boolean;
}

function parseOptions(
  options: IndexedEnforcerOptions,
): { sync: boolean; cache: DecisionCache | undefined } {
  const fallback = options.fallback ?? "enforce";
  if (fallback !== "enforce" && fallback !== "enforceSync") {
    throw new TypeError(
      `Cannot index the enforcer: unknown fallback "${String(fallback)}"`,
    );
  }
  const cache = options.cache ?? false;
  return {
    sync: fallback === "enforceSync",
    cache: cache === false
      ? undefined
      : new DecisionCache(cache === true ? {} : cache),
  };
}

/** What the index was built from; a change sends decisions to casbin. */
interface Snapshot {
  readonly model: Model;
  readonly effector: unknown;
  readonly assertions: readonly Assertion[];
  readonly policies: readonly (readonly string[][])[];
  readonly lengths: readonly number[];
  /** The role functions' assertions, and their role managers' state. */
  readonly roleManagers: readonly (readonly [Assertion, RoleManagerState])[];
}

function assertionsOf(model: Model): Assertion[] {
  const out: Assertion[] = [];
  for (const section of ["p", "g"]) {
    const assertions = model.model.get(section);
    if (assertions !== undefined) out.push(...assertions.values());
  }
  return out;
}

function takeSnapshot(model: Model, enforcer: unknown): Snapshot {
  const assertions = assertionsOf(model);
  return {
    model,
    effector: (enforcer as CasbinInternals).eft,
    assertions,
    policies: assertions.map((assertion) => assertion.policy),
    lengths: assertions.map((assertion) => assertion.policy.length),
    roleManagers: [...model.model.get("g")?.values() ?? []].map(
      (assertion) => [assertion, roleManagerState(assertion)] as const,
    ),
  };
}

// The longest stretch of indexing before it yields to the event loop, in
// ms.
const SLICE_MS = 4;

/**
 * A casbin enforcer with an index of its policy, which answers with the
 * same decisions as casbin's `enforce` without evaluating the matcher
 * against every rule. It answers models whose matcher is a conjunction
 * (`&&`) of:
 *
 * - equalities between a request value (or an attribute such as
 *   `r.sub.role`) and a policy field;
 * - role checks `g(r.sub, p.sub)` and `g(r.sub, p.sub, r.dom)` (any role
 *   function, each at most once), read from casbin's DefaultRoleManager,
 *   up to its `maxHierarchyLevel`;
 * - casbin's pattern functions of a request value and a policy field:
 *   `keyMatch`, `keyMatch2` to `keyMatch5`, `regexMatch`, `globMatch`,
 *   `ipMatch`;
 *
 * with the effects allow-override, deny-override, allow-and-deny,
 * `priority(p.eft) || deny` and `subjectPriority(p.eft) || deny`. Rules
 * are found by hash lookups of the compared values (and of the roles the
 * request's subject holds), then by the literal start of their path
 * patterns, and the few candidates are tested with casbin's functions.
 * Everything else goes to casbin, and `reason` says why: other matchers
 * (`||`, `!=`, constants, custom functions, `eval()`), role managers with
 * patterns or domain hierarchies, a pattern casbin would throw on, request
 * values that `==` would convert (numbers, objects), paths casbin would
 * throw on, an `EnforceContext`, an empty policy.
 *
 * The index is built once, from the enforcer's parsed model and policy: use
 * one per enforcer, built when the enforcer is, and treat the enforcer as
 * read-only afterwards. Rules added or removed later through casbin's
 * management API are noticed, and so are role managers rebuilt or given
 * matching functions (every decision then goes to casbin, without the
 * cache); rules edited in place (`updatePolicy`) are not.
 *
 * @example Index a casbin enforcer
 * ```ts
 * import { newEnforcer, newModelFromString, StringAdapter } from "casbin";
 * import { IndexedEnforcer } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * const model = newModelFromString(`
 * [request_definition]
 * r = sub, obj, act
 * [policy_definition]
 * p = sub, obj, act
 * [policy_effect]
 * e = some(where (p.eft == allow))
 * [matchers]
 * m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
 * `);
 * const casbin = await newEnforcer(
 *   model,
 *   new StringAdapter("p, editor, post, write\np, viewer, post, read"),
 * );
 * const enforcer = IndexedEnforcer.from(casbin, { cache: true });
 * assert.equal(enforcer.indexed, true);
 * assert.equal(await enforcer.enforce({ role: "editor" }, "post", "write"), true);
 * assert.equal(await enforcer.enforce({ role: "viewer" }, "post", "write"), false);
 * ```
 */
export class IndexedEnforcer implements Enforcer {
  #casbin: CasbinEnforcer;
  #lookup: CompiledLookup | undefined;
  #reason: string | undefined;
  #snapshot: Snapshot;
  #changed = false;
  #cache: DecisionCache | undefined;
  #sync: boolean;

  /**
   * Indexes an enforcer. Prefer {@linkcode IndexedEnforcer.from}.
   *
   * @param enforcer A casbin enforcer with its model and policy loaded.
   * @param options The cache and the fallback method.
   */
  constructor(
    enforcer: IndexableEnforcer,
    options: IndexedEnforcerOptions = {},
  ) {
    const model = modelOf(enforcer);
    const { sync, cache } = parseOptions(options);
    this.#casbin = enforcer as CasbinEnforcer;
    this.#sync = sync;
    this.#cache = cache;
    const prebuilt = IndexedEnforcer.#prebuilt;
    IndexedEnforcer.#prebuilt = undefined;
    let built: CompiledIndex | string;
    if (prebuilt !== undefined && prebuilt.snapshot.model === model) {
      this.#snapshot = prebuilt.snapshot;
      built = prebuilt.built;
    } else {
      this.#snapshot = takeSnapshot(model, enforcer);
      const steps = compileIndexSteps(this.#casbin);
      let step = steps.next();
      while (step.done !== true) step = steps.next();
      built = step.value;
    }
    if (typeof built === "string") {
      this.#reason = built;
    } else {
      this.#lookup = new CompiledLookup(built);
    }
  }

  // Hands an index built by build() to the constructor (set and read in
  // the same synchronous run).
  static #prebuilt:
    | { snapshot: Snapshot; built: CompiledIndex | string }
    | undefined;

  /**
   * Indexes an enforcer like {@linkcode IndexedEnforcer.from}, yielding to
   * the event loop after every 4 ms of work, so that requests keep being
   * served while a large policy is indexed. Changes made to the enforcer meanwhile
   * are noticed like later ones.
   *
   * @param enforcer A casbin enforcer with its model and policy loaded.
   * @param options The cache and the fallback method.
   * @returns The indexed enforcer.
   *
   * @example
   * ```ts
   * import { newEnforcer, newModelFromString, StringAdapter } from "casbin";
   * import { IndexedEnforcer } from "@portcullis/portcullis/guard";
   * import assert from "node:assert/strict";
   *
   * const casbin = await newEnforcer(
   *   newModelFromString(`
   * [request_definition]
   * r = sub, obj, act
   * [policy_definition]
   * p = sub, obj, act
   * [policy_effect]
   * e = some(where (p.eft == allow))
   * [matchers]
   * m = r.sub == p.sub && r.obj == p.obj && r.act == p.act
   * `),
   *   new StringAdapter("p, alice, post, read"),
   * );
   * const enforcer = await IndexedEnforcer.build(casbin);
   * assert.equal(enforcer.enforce("alice", "post", "read"), true);
   * ```
   */
  static async build(
    enforcer: IndexableEnforcer,
    options: IndexedEnforcerOptions = {},
  ): Promise<IndexedEnforcer> {
    const model = modelOf(enforcer);
    parseOptions(options);
    const snapshot = takeSnapshot(model, enforcer);
    const steps = compileIndexSteps(enforcer);
    let sliceStart = performance.now();
    let step = steps.next();
    while (step.done !== true) {
      if (performance.now() - sliceStart >= SLICE_MS) {
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
      step = steps.next();
    }
    IndexedEnforcer.#prebuilt = { snapshot, built: step.value };
    try {
      return new IndexedEnforcer(enforcer, options);
    } finally {
      IndexedEnforcer.#prebuilt = undefined;
    }
  }

  /**
   * Indexes a casbin enforcer, synchronously: the event loop waits while
   * the index is built (about 1 µs per rule). For large policies, prefer
   * {@linkcode IndexedEnforcer.build} or {@linkcode indexEnforcer}.
   *
   * @param enforcer A casbin enforcer with its model and policy loaded.
   * @param options The cache and the fallback method.
   * @returns The indexed enforcer.
   *
   * @example
   * ```ts
   * import { newEnforcer, newModelFromString, StringAdapter } from "casbin";
   * import { IndexedEnforcer } from "@portcullis/portcullis/guard";
   * import assert from "node:assert/strict";
   *
   * const casbin = await newEnforcer(
   *   newModelFromString(`
   * [request_definition]
   * r = sub, obj, act
   * [policy_definition]
   * p = sub, obj, act
   * [policy_effect]
   * e = some(where (p.eft == allow))
   * [matchers]
   * m = keyMatch2(r.obj, p.obj) && r.sub == p.sub && regexMatch(r.act, p.act)
   * `),
   *   new StringAdapter("p, alice, /posts/:id, (read)|(list)"),
   * );
   * const enforcer = IndexedEnforcer.from(casbin);
   * assert.equal(enforcer.indexed, true);
   * assert.equal(enforcer.enforce("alice", "/posts/1", "read"), true);
   * assert.equal(enforcer.enforce("alice", "/posts/1/x", "read"), false);
   * ```
   */
  static from(
    enforcer: IndexableEnforcer,
    options: IndexedEnforcerOptions = {},
  ): IndexedEnforcer {
    return new IndexedEnforcer(enforcer, options);
  }

  /** Whether the index answers this model's decisions (else casbin does). */
  get indexed(): boolean {
    return this.#lookup !== undefined && !this.#changed;
  }

  /** Why the index does not answer, or `undefined` when it does. */
  get reason(): string | undefined {
    if (this.#changed) return "the policy changed after indexing";
    return this.#reason;
  }

  /** The casbin enforcer that decides what the index cannot. */
  get casbin(): IndexableEnforcer {
    return this.#casbin;
  }

  /** The number of decisions in the cache (0 without a cache). */
  get cacheSize(): number {
    return this.#cache?.size ?? 0;
  }

  /**
   * Decides a request, with the same answer as casbin's `enforce` (and the
   * same error when casbin throws). Returns a boolean when the index or the
   * cache answers, and a promise when casbin's `enforce` does.
   *
   * @param rvals The request values, as for casbin's `enforce`.
   * @returns Whether the request is allowed.
   */
  enforce(...rvals: unknown[]): boolean | Promise<boolean> {
    if (this.#unchanged()) {
      const lookup = this.#lookup;
      if (
        lookup !== undefined && rvals.length === lookup.index.requestSize &&
        !(rvals[0] instanceof EnforceContext)
      ) {
        let decision: number;
        try {
          decision = lookup.lookup(rvals);
        } catch {
          decision = NO_ANSWER; // a getter threw: casbin decides (and throws)
        }
        if (decision !== NO_ANSWER) return decision === 1;
      }
      const cache = this.#cache;
      if (cache !== undefined) {
        const key = cache.keyOf(rvals);
        if (key !== undefined) {
          const hit = cache.get(key);
          if (hit !== undefined) return hit;
          return this.#decideAndStore(cache, key, rvals);
        }
      }
    }
    return this.#sync
      ? this.#casbin.enforceSync(...rvals)
      : this.#casbin.enforce(...rvals);
  }

  #decideAndStore(
    cache: DecisionCache,
    key: string,
    rvals: unknown[],
  ): boolean | Promise<boolean> {
    if (this.#sync) {
      const decision = this.#casbin.enforceSync(...rvals);
      if (typeof decision === "boolean") cache.set(key, decision);
      return decision;
    }
    return this.#casbin.enforce(...rvals).then((decision) => {
      // The policy may have changed while casbin was deciding.
      if (typeof decision === "boolean" && this.#unchanged()) {
        cache.set(key, decision);
      }
      return decision;
    });
  }

  /** Whether the enforcer still holds the model and rules indexed. */
  #unchanged(): boolean {
    if (this.#changed) return false;
    const snapshot = this.#snapshot;
    const internals = this.#casbin as unknown as CasbinInternals;
    let same = this.#casbin.getModel() === snapshot.model &&
      internals.enabled === true && internals.acceptJsonRequest === false &&
      internals.eft === snapshot.effector;
    for (let i = 0; same && i < snapshot.assertions.length; i++) {
      const policy = snapshot.assertions[i]!.policy;
      same = policy === snapshot.policies[i] &&
        policy.length === snapshot.lengths[i];
    }
    const roleManagers = snapshot.roleManagers;
    for (let i = 0; same && i < roleManagers.length; i++) {
      same = sameRoleManager(roleManagers[i]![0], roleManagers[i]![1]);
    }
    if (!same) {
      this.#changed = true;
      this.#cache?.clear();
    }
    return same;
  }
}

/**
 * Indexes a casbin enforcer without blocking the event loop: the same as
 * {@linkcode IndexedEnforcer.build}, as a function that fits the `prepare`
 * hook of `CachedFileEnforcerProvider`
 * (`prepare: (casbin) => indexEnforcer(casbin, { cache: true })`), so that
 * each reloaded enforcer gets its own index and its own, empty, cache.
 *
 * @param enforcer A casbin enforcer with its model and policy loaded.
 * @param options The cache and the fallback method.
 * @returns The indexed enforcer.
 *
 * @example
 * ```ts
 * import { newEnforcer, newModelFromString, StringAdapter } from "casbin";
 * import { indexEnforcer } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * const casbin = await newEnforcer(
 *   newModelFromString(`
 * [request_definition]
 * r = sub, obj, act
 * [policy_definition]
 * p = sub, obj, act, eft
 * [policy_effect]
 * e = some(where (p.eft == allow)) && !some(where (p.eft == deny))
 * [matchers]
 * m = r.sub == p.sub && r.obj == p.obj && r.act == p.act
 * `),
 *   new StringAdapter("p, bob, post, read, allow\np, bob, post, read, deny"),
 * );
 * const enforcer = await indexEnforcer(casbin);
 * assert.equal(enforcer.enforce("bob", "post", "read"), false);
 * ```
 */
export function indexEnforcer(
  enforcer: IndexableEnforcer,
  options: IndexedEnforcerOptions = {},
): Promise<IndexedEnforcer> {
  return IndexedEnforcer.build(enforcer, options);
}
