/**
 * Anything that decides a permission request: a casbin `Enforcer`, a
 * client of a remote policy service, or a test double. The guard calls
 * `enforce(user, ...args)` and allows the request only when the result is
 * exactly `true`; `false`, any other value, a rejected promise or a thrown
 * error never lets a request through.
 *
 * @example A casbin enforcer is an Enforcer
 * ```ts
 * import type { Enforcer } from "@portcullis/portcullis/guard";
 * import { newEnforcer, newModelFromString, StringAdapter } from "casbin";
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
 * const enforcer: Enforcer = await newEnforcer(
 *   model,
 *   new StringAdapter("p, viewer, post, read"),
 * );
 * assert.equal(await enforcer.enforce({ role: "viewer" }, "post", "read"), true);
 * ```
 *
 * @example A hand-written enforcer
 * ```ts
 * import type { Enforcer } from "@portcullis/portcullis/guard";
 *
 * const readOnly: Enforcer = {
 *   enforce: (_user: unknown, _object: unknown, action: unknown) =>
 *     action === "read",
 * };
 * ```
 */
export interface Enforcer {
  /**
   * Decides one request. The guard passes the resolved user first, then the
   * route's arguments in order (with every `AccessSubject` resolved).
   *
   * @param rvals The request values: the user, then the route's arguments.
   * @returns `true` to allow; anything else denies.
   */
  enforce(...rvals: unknown[]): boolean | Promise<boolean>;
}

/**
 * Where the guard gets its enforcer on each request: a function, or an
 * object with a `getEnforcer()` method such as `CachedFileEnforcerProvider`.
 * The guard asks again for every request, so a provider can swap in a
 * reloaded enforcer between requests.
 *
 * @example A fixed enforcer
 * ```ts
 * import type { Enforcer, EnforcerProvider } from "@portcullis/portcullis/guard";
 *
 * const enforcer: Enforcer = { enforce: () => false };
 * const asFunction: EnforcerProvider = () => enforcer;
 * const asObject: EnforcerProvider = { getEnforcer: async () => enforcer };
 * ```
 */
export type EnforcerProvider =
  | (() => Enforcer | Promise<Enforcer>)
  | EnforcerSource;

/**
 * The object form of an {@linkcode EnforcerProvider}: anything with a
 * `getEnforcer()` method.
 *
 * @example
 * ```ts
 * import type { Enforcer, EnforcerSource } from "@portcullis/portcullis/guard";
 *
 * class FixedEnforcerSource implements EnforcerSource {
 *   #enforcer: Enforcer = { enforce: () => false };
 *   getEnforcer(): Enforcer {
 *     return this.#enforcer;
 *   }
 * }
 * ```
 */
export interface EnforcerSource {
  /**
   * Returns the enforcer to decide the current request with.
   *
   * @returns The enforcer, or a promise of it.
   */
  getEnforcer(): Enforcer | Promise<Enforcer>;
  /**
   * The revision of the policy the source serves now (a content hash, a
   * database revision), if it knows one. A decision log
   * (`PermissionGuard`'s `onDecision`) reports it with every decision.
   */
  readonly revision?: string | number;
}
