import type { User } from "./user.ts";

/**
 * The route of a decision: the request's method and path, and the route
 * pattern when the guard knows it (from an `AccessSubject` with a pattern
 * among the permission's arguments).
 *
 * @example
 * ```ts
 * import type { DecisionRoute } from "@portcullis/portcullis/guard";
 *
 * const route: DecisionRoute = {
 *   method: "DELETE",
 *   path: "/posts/42",
 *   pattern: "/posts/:id",
 * };
 * ```
 */
export interface DecisionRoute {
  /** The request method, such as `"GET"`. */
  readonly method: string;
  /** The request's path, without the query string. */
  readonly path: string;
  /** The route pattern, such as `"/posts/:id"`, when known. */
  readonly pattern: string | undefined;
}

/**
 * What `PermissionGuard`'s `onDecision` hook receives for every permission
 * decision: allowed, denied, or failed (the enforcer threw, and the guard
 * answered 500).
 *
 * The event is built after the decision and handed to the hook, which the
 * guard never awaits. The values a log rarely needs (the id, the route, the
 * subject summary) are computed when first read, and the deciding rule only
 * when `decidingRule()` is called, so a hook pays for what it reads.
 *
 * @typeParam U The user type.
 *
 * @example A JSON decision log line
 * ```ts
 * import type { DecisionEvent } from "@portcullis/portcullis/guard";
 *
 * const log = (event: DecisionEvent): void => {
 *   console.log(JSON.stringify({
 *     id: event.id,
 *     time: new Date(event.time).toISOString(),
 *     route: `${event.route.method} ${event.route.pattern ?? event.route.path}`,
 *     subject: event.subject,
 *     args: event.args,
 *     result: event.result,
 *     revision: event.revision,
 *     latencyMs: event.latencyMs,
 *   }));
 * };
 * ```
 */
export interface DecisionEvent<U = User> {
  /** A unique id for this decision (a random UUID). */
  readonly id: string;
  /** When the decision was made, in milliseconds since the epoch. */
  readonly time: number;
  /** The request's method and path, and the route pattern when known. */
  readonly route: DecisionRoute;
  /**
   * A short summary of the user, fit for a log: a string user as is; for
   * an object, its `id`, `sub`, `role` and `roles` fields that hold strings
   * or numbers (`"sub=alice role=editor"`); never other claims.
   */
  readonly subject: string;
  /** The user the enforcer received. */
  readonly user: U;
  /** The arguments after the user, with every `AccessSubject` resolved. */
  readonly args: readonly unknown[];
  /**
   * `"allow"`, `"deny"`, or `"error"` when the enforcer (or its provider)
   * failed and the guard answered 500.
   */
  readonly result: "allow" | "deny" | "error";
  /**
   * The revision of the policy that decided, when the enforcer provider
   * reports one (`CachedFileEnforcerProvider.revision`: a content hash;
   * `PostgresEnforcerProvider.revision`: the database revision, as text).
   */
  readonly revision: string | undefined;
  /**
   * Time from the start of the guard's check (user, arguments, enforcer)
   * to the decision, in milliseconds.
   */
  readonly latencyMs: number;
  /**
   * The policy rule that decided, as a policy line (`"p, editor, post,
   * write"`), computed on the first call by casbin's `enforceEx` on the
   * enforcer that decided: for an allow, the rule that allowed; for a
   * denial by a deny rule, that rule; `undefined` for a denial because no
   * rule matched, for an error, and for an enforcer that exposes no casbin
   * enforcer (a casbin `Enforcer` and an `IndexedEnforcer` do; the
   * enforcer of a policy loaded in the provider's worker does not).
   *
   * @returns The deciding rule, or `undefined`.
   */
  decidingRule(): Promise<string | undefined>;
}
