import {
  DefaultEffector,
  DefaultRoleManager,
  EnforceContext,
  Enforcer as CasbinEnforcer,
} from "casbin";
import type { Assertion, Model } from "casbin";
import { DecisionCache, type DecisionCacheOptions } from "./decision_cache.ts";
import { yieldToEventLoop } from "./_policy_build.ts";
import type { Enforcer } from "./enforcer.ts";
import {
  type EffectKind,
  type MatcherPlan,
  type MatcherTerm,
  planMatcher,
} from "./_matcher_plan.ts";

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

function modelOf(enforcer: IndexableEnforcer): Model {
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

// Decisions a leaf of the index stands for: some matching rule allows,
// some matching rule denies.
export const ALLOWS = 1;
export const DENIES = 2;

/** The hash index of a policy: one nested map level per matcher term. */
export interface Index {
  readonly terms: readonly MatcherTerm[];
  readonly effect: EffectKind;
  readonly requestSize: number;
  /** Nested maps, one level per term; the last level holds ALLOWS|DENIES. */
  readonly root: Map<string, unknown>;
  /** Per term: the `g` assertion of a role term, else `undefined`. */
  readonly roles: readonly (Assertion | undefined)[] | undefined;
}

/** Fields of casbin's `CoreEnforcer` that decide whether `enforce` runs. */
interface CasbinInternals {
  enabled?: unknown;
  acceptJsonRequest?: unknown;
  eft?: unknown;
  fm?: { getFunctions?: () => Map<string, unknown> };
}

/** What the index was built from; a change sends decisions to casbin. */
interface Snapshot {
  readonly model: Model;
  readonly effector: unknown;
  readonly assertions: readonly Assertion[];
  readonly policies: readonly (readonly string[][])[];
  readonly lengths: readonly number[];
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
  };
}

/** Whether `enforce` of this enforcer runs casbin's own decision code. */
function usesDefaultEnforce(enforcer: CasbinEnforcer): string | undefined {
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

function functionNames(enforcer: CasbinEnforcer, model: Model): Set<string> {
  const names = new Set<string>();
  const functions = (enforcer as unknown as CasbinInternals).fm
    ?.getFunctions?.();
  functions?.forEach((_value, key) => names.add(key));
  model.model.get("g")?.forEach((_value, key) => names.add(key));
  return names;
}

/** What a matching rule contributes: ALLOWS, DENIES or nothing (0). */
export function effectOf(
  rule: readonly unknown[],
  eftIndex: number,
): number {
  // casbin: a matching rule allows, unless its eft field is set to
  // anything but "allow" ("deny" denies, other values count for nothing).
  const eft = eftIndex < 0 ? undefined : rule[eftIndex];
  if (!eft || eft === "allow") return ALLOWS;
  return eft === "deny" ? DENIES : 0;
}

// Rules indexed between two clock reads in indexEnforcer(), and the longest
// stretch of indexing before it yields to the event loop, in ms.
const CHUNK = 256;
const SLICE_MS = 4;

/** Builds the index, pausing (yield) after every CHUNK rules. */
function* buildIndex(
  plan: Extract<MatcherPlan, { ok: true }>,
  policy: readonly (readonly unknown[])[],
  model: Model,
): Generator<void, Index | string> {
  const root = new Map<string, unknown>();
  const last = plan.terms.length - 1;
  for (let i = 0; i < policy.length; i++) {
    if (i !== 0 && i % CHUNK === 0) yield;
    const rule = policy[i]!;
    let node = root;
    for (let t = 0; t < last; t++) {
      const cell = rule[plan.terms[t]!.policyIndex];
      if (typeof cell !== "string") {
        return `policy rule ${
          i + 1
        } has no string in a field the matcher compares`;
      }
      let next = node.get(cell) as Map<string, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        node.set(cell, next);
      }
      node = next;
    }
    const cell = rule[plan.terms[last]!.policyIndex];
    if (typeof cell !== "string") {
      return `policy rule ${
        i + 1
      } has no string in a field the matcher compares`;
    }
    node.set(
      cell,
      ((node.get(cell) as number | undefined) ?? 0) |
        effectOf(rule, plan.eftIndex),
    );
  }
  const hasRoles = plan.terms.some((term) => term.role !== undefined);
  return {
    terms: plan.terms,
    effect: plan.effect,
    requestSize: plan.requestSize,
    root,
    roles: hasRoles
      ? plan.terms.map((term) =>
        term.role === undefined
          ? undefined
          : model.model.get("g")?.get(term.role)
      )
      : undefined,
  };
}

// casbin's DefaultRoleManager keeps links without a domain under this name.
const DEFAULT_DOMAIN = "casbin::default";

/** A node of casbin's DefaultRoleManager: a name and its direct roles. */
export interface RoleNode {
  name: unknown;
  roles: RoleNode[];
}

interface RoleManagerInternals {
  hasPattern?: unknown;
  hasDomainPattern?: unknown;
  hasDomainHierarchy?: unknown;
  maxHierarchyLevel?: unknown;
  allDomains?: unknown;
  hasLink?: unknown;
  syncedHasLink?: unknown;
}

/**
 * The role graph behind `g(name, x)` with casbin's DefaultRoleManager and no
 * domain: each name's node and the most links followed. `null` when the
 * role function has no role manager (`g()` then compares the two names);
 * `undefined` when the role manager is another one, or uses patterns or
 * domains: casbin decides.
 */
export function plainRoleGraph(
  assertion: Assertion | undefined,
): { roles: Map<unknown, RoleNode>; maxLevel: number } | null | undefined {
  if (assertion === undefined) return undefined;
  const rm = assertion.rm as unknown as RoleManagerInternals | undefined;
  if (rm === undefined || rm === null) return null;
  const proto = DefaultRoleManager.prototype as unknown as RoleManagerInternals;
  if (
    (rm as object).constructor !== DefaultRoleManager ||
    rm.hasLink !== proto.hasLink || rm.syncedHasLink !== proto.syncedHasLink ||
    rm.hasPattern !== false || rm.hasDomainPattern !== false ||
    rm.hasDomainHierarchy !== false ||
    typeof rm.maxHierarchyLevel !== "number" ||
    !(rm.allDomains instanceof Map)
  ) {
    return undefined;
  }
  const roles = rm.allDomains.get(DEFAULT_DOMAIN) as unknown;
  if (!(roles instanceof Map)) return undefined;
  return { roles, maxLevel: rm.maxHierarchyLevel };
}

/**
 * The names `g(name, x)` is true for, with casbin's DefaultRoleManager:
 * `name` itself and every role reachable from it in at most
 * `maxHierarchyLevel` links. `undefined` when casbin must decide (see
 * {@linkcode plainRoleGraph}).
 */
function reachableRoles(
  assertion: Assertion | undefined,
  name: string,
): unknown[] | undefined {
  const graph = plainRoleGraph(assertion);
  // Without a role manager, casbin's g() compares the two names.
  if (graph === null) return [name];
  if (graph === undefined) return undefined;
  const out: unknown[] = [name];
  const start = graph.roles.get(name);
  if (start === undefined) return out;
  const seen = new Set<unknown>(out);
  let frontier: RoleNode[] = [start];
  for (
    let depth = 0;
    depth < graph.maxLevel && frontier.length !== 0;
    depth++
  ) {
    const next: RoleNode[] = [];
    for (const role of frontier) {
      for (const parent of role.roles) {
        if (!seen.has(parent.name)) {
          seen.add(parent.name);
          out.push(parent.name);
          next.push(parent);
        }
      }
    }
    frontier = next;
  }
  return out;
}

/**
 * The lookup for matchers with role terms: a role term matches the policy
 * values reachable from the request value, so a level of the index may be
 * visited for several keys.
 */
function lookupWithRoles(
  index: Index,
  roles: readonly (Assertion | undefined)[],
  rvals: readonly unknown[],
): number {
  const terms = index.terms;
  // Per term: the keys to visit (empty: no rule can match).
  const keys: unknown[][] = [];
  for (let t = 0; t < terms.length; t++) {
    const term = terms[t]!;
    let value = rvals[term.requestIndex];
    const path = term.path;
    for (let k = 0; k < path.length; k++) {
      if (value === null || value === undefined) return NO_ANSWER;
      value = (value as Record<string | number, unknown>)[path[k]!];
    }
    if (term.role !== undefined) {
      // casbin's g() reads `(value || "").toString()`: strings only here.
      if (typeof value !== "string") return NO_ANSWER;
      const names = reachableRoles(roles[t], value);
      if (names === undefined) return NO_ANSWER;
      keys.push(names);
    } else if (typeof value === "string") {
      keys.push([value]);
    } else if (value === null || value === undefined || term.strict) {
      keys.push([]);
    } else {
      return NO_ANSWER;
    }
  }
  return visit(index.root, keys, 0);
}

function visit(
  node: Map<unknown, unknown>,
  keys: readonly (readonly unknown[])[],
  level: number,
): number {
  let mask = 0;
  const last = level === keys.length - 1;
  for (const key of keys[level]!) {
    const next = node.get(key);
    if (next === undefined) continue;
    mask |= last
      ? next as number
      : visit(next as Map<unknown, unknown>, keys, level + 1);
  }
  return mask;
}

// Outcomes of the index for one request.
export const NO_ANSWER = -1;

/**
 * Looks a request up in the index: the ALLOWS|DENIES mask of the rules that
 * match it, or NO_ANSWER when casbin must decide (a value the index cannot
 * compare, or a path casbin may throw on).
 */
function lookup(index: Index, rvals: readonly unknown[]): number {
  const terms = index.terms;
  let node: Map<string, unknown> | undefined = index.root;
  let mask = 0;
  for (let t = 0; t < terms.length; t++) {
    const term = terms[t]!;
    let value = rvals[term.requestIndex];
    const path = term.path;
    for (let k = 0; k < path.length; k++) {
      // casbin throws on a member of null or undefined, if it gets there.
      if (value === null || value === undefined) return NO_ANSWER;
      value = (value as Record<string | number, unknown>)[path[k]!];
    }
    if (typeof value === "string") {
      if (node !== undefined) {
        const next: unknown = node.get(value);
        if (t === terms.length - 1) {
          mask = (next as number | undefined) ?? 0;
        } else {
          node = next as Map<string, unknown> | undefined;
        }
      }
    } else if (value === null || value === undefined || term.strict) {
      // Equal to no policy string: no rule matches. Later paths are still
      // resolved, so that one that may throw in casbin goes to casbin.
      node = undefined;
      mask = 0;
    } else {
      // `==` converts numbers, booleans and objects: casbin decides.
      return NO_ANSWER;
    }
  }
  return node === undefined ? 0 : mask;
}

/** The decision of an effect, given the ALLOWS|DENIES mask of matching rules. */
export function decide(effect: EffectKind, mask: number): boolean {
  switch (effect) {
    case "allow":
      return (mask & ALLOWS) !== 0;
    case "deny":
      return (mask & DENIES) === 0;
    case "allowAndDeny":
      return (mask & DENIES) === 0 && (mask & ALLOWS) !== 0;
  }
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
export function planIndex(enforcer: IndexableEnforcer): IndexPlan | string {
  const model = modelOf(enforcer);
  const unsupported = usesDefaultEnforce(enforcer as CasbinEnforcer);
  if (unsupported !== undefined) return unsupported;
  const plan = planMatcher({
    matcher: model.model.get("m")?.get("m")?.value,
    effect: model.model.get("e")?.get("e")?.value,
    requestTokens: model.model.get("r")?.get("r")?.tokens,
    policyTokens: model.model.get("p")?.get("p")?.tokens,
    functionNames: functionNames(enforcer as CasbinEnforcer, model),
    roleNames: new Set(model.model.get("g")?.keys() ?? []),
  });
  if (!plan.ok) return plan.reason;
  const policy = model.model.get("p")?.get("p")?.policy ?? [];
  // casbin evaluates the matcher once with empty policy fields when there
  // is no rule: that case is its own.
  if (policy.length === 0) return "the policy is empty";
  return { plan, policy, model };
}

function* indexSteps(
  enforcer: CasbinEnforcer,
): Generator<void, Index | string> {
  const planned = planIndex(enforcer);
  if (typeof planned === "string") return planned;
  return yield* buildIndex(planned.plan, planned.policy, planned.model);
}

/**
 * A casbin enforcer with a hash index of its policy. When the model's
 * matcher is a conjunction of equalities between request values (including
 * attributes such as `r.sub.role`) and policy fields, and of role checks
 * `g(r.sub, p.sub)` (each role function at most once, without a domain),
 * with one of casbin's three usual effects (allow-override, deny-override,
 * allow-and-deny), a decision is a few map lookups whatever the size of the
 * policy (a role check adds one lookup per role the subject holds), and
 * gives the same answer as casbin's `enforce`. Everything else goes to
 * casbin: other matchers and effects (`keyMatch`, `priority`, `g()` with a
 * domain...), role managers with patterns or domains, request values that
 * `==` would convert (numbers, objects), paths casbin would throw on, an
 * `EnforceContext`, an empty policy.
 *
 * The index is built once, from the enforcer's parsed model and policy: use
 * one per enforcer, built when the enforcer is, and treat the enforcer as
 * read-only afterwards. Rules added or removed later through casbin's
 * management API are noticed (every decision then goes to casbin, without
 * the cache); rules edited in place (`updatePolicy`) are not.
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
  #index: Index | undefined;
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
    let built: Index | string;
    if (prebuilt !== undefined && prebuilt.snapshot.model === model) {
      this.#snapshot = prebuilt.snapshot;
      built = prebuilt.built;
    } else {
      this.#snapshot = takeSnapshot(model, enforcer);
      const steps = indexSteps(this.#casbin);
      let step = steps.next();
      while (step.done !== true) step = steps.next();
      built = step.value;
    }
    if (typeof built === "string") {
      this.#reason = built;
    } else {
      this.#index = built;
    }
  }

  // Hands an index built by build() to the constructor (set and read in
  // the same synchronous run).
  static #prebuilt: { snapshot: Snapshot; built: Index | string } | undefined;

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
    const steps = indexSteps(enforcer as CasbinEnforcer);
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
   * m = keyMatch(r.obj, p.obj) && r.sub == p.sub && r.act == p.act
   * `),
   *   new StringAdapter("p, alice, /posts/*, read"),
   * );
   * const enforcer = IndexedEnforcer.from(casbin);
   * assert.equal(enforcer.indexed, false); // keyMatch: casbin decides
   * assert.equal(await enforcer.enforce("alice", "/posts/1", "read"), true);
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
    return this.#index !== undefined && !this.#changed;
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
      const index = this.#index;
      if (
        index !== undefined && rvals.length === index.requestSize &&
        !(rvals[0] instanceof EnforceContext)
      ) {
        let mask: number;
        try {
          mask = index.roles === undefined
            ? lookup(index, rvals)
            : lookupWithRoles(index, index.roles, rvals);
        } catch {
          mask = NO_ANSWER; // a getter threw: casbin decides (and throws)
        }
        if (mask !== NO_ANSWER) return decide(index.effect, mask);
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
