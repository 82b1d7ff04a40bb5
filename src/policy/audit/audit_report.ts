import type { PolicyRule } from "../explanation.ts";

/**
 * One argument of a route's `guard.requirePermission(...)`: the literal
 * string, or `{ dynamic }` with the source text of a value read from the
 * request at run time (an `AccessSubject`), which the audit never guesses.
 *
 * @example
 * ```ts
 * import type { AuditArgument } from "@portcullis/portcullis/policy";
 *
 * const args: AuditArgument[] = [{ dynamic: 'AccessSubject.param("/docs/:id", "id")' }, "read"];
 * ```
 */
export type AuditArgument = string | { readonly dynamic: string };

/**
 * A server route the audit found in the application, with its guard and
 * who the policy lets call it.
 *
 * @example
 * ```ts
 * import type { AuditRoute } from "@portcullis/portcullis/policy";
 *
 * const describe = (route: AuditRoute): string =>
 *   `${route.method} ${route.path}: ${route.allowed?.join(", ") ?? route.guard}`;
 * ```
 */
export interface AuditRoute {
  /** `<METHOD> <path> (<file>:<line>)`, unique in a report. */
  readonly id: string;
  /** Upper-case method, `ANY` for every method. */
  readonly method: string;
  /** The path as the application writes it (`/posts/:id`). */
  readonly path: string;
  /** The file that declares it, relative to the application directory. */
  readonly file: string;
  /** Line of the declaration (1-based). */
  readonly line: number;
  /** Column of the declaration (1-based). */
  readonly col: number;
  /** The router or server (`hono`, `express`, `bun`, `urlpattern`, `node`...). */
  readonly framework: string;
  /**
   * `permission`: a `requirePermission(...)` guards it; `auth`: only
   * `authRequired()` (any signed-in user); `none`: no guard seen.
   */
  readonly guard: "permission" | "auth" | "none";
  /** The arguments of each `requirePermission(...)` in front of it. */
  readonly permissions: readonly (readonly AuditArgument[])[];
  /** Whether an argument is read from the request (then not evaluated). */
  readonly dynamic: boolean;
  /**
   * The roles the policy allows every permission of the route for; empty
   * for a route no role can call; `undefined` when the route is not
   * permission-guarded or is dynamic.
   */
  readonly allowed: readonly string[] | undefined;
}

/**
 * A `p` rule of the policy and the routes whose decisions it took part in.
 *
 * @example
 * ```ts
 * import type { AuditRule } from "@portcullis/portcullis/policy";
 *
 * const dead = (rules: readonly AuditRule[]): string[] =>
 *   rules.filter((r) => r.routes.length === 0 && r.dynamicRoutes.length === 0)
 *     .map((r) => r.rule.text);
 * ```
 */
export interface AuditRule {
  /** The rule. */
  readonly rule: PolicyRule;
  /** Its line in the policy file, when found. */
  readonly line: number | undefined;
  /** Ids of the routes whose request it matched, for some role. */
  readonly routes: readonly string[];
  /**
   * Ids of dynamic routes that may use it: it matches their request when
   * their request-time arguments take one of the rule's own values.
   */
  readonly dynamicRoutes: readonly string[];
}

/**
 * A role (a subject the policy names) and the routes it can call.
 *
 * @example
 * ```ts
 * import type { AuditRole } from "@portcullis/portcullis/policy";
 *
 * const line = (role: AuditRole): string => `${role.name}: ${role.routes.length} routes`;
 * ```
 */
export interface AuditRole {
  /** The role's name as the policy writes it. */
  readonly name: string;
  /** Ids of the permission-guarded (not dynamic) routes it may call. */
  readonly routes: readonly string[];
}

/**
 * What a finding is about:
 *
 * - `unguarded-route`: a route with no guard at all.
 * - `dead-route`: a permission-guarded route no role is allowed.
 * - `dead-rule`: a `p` rule no route's request matches.
 * - `unreachable-role`: a role that can call no permission-guarded route.
 * - `dynamic-route`: a route whose permission depends on the request,
 *   reported and not evaluated.
 * - `auth-only-route`: a route any signed-in user can call.
 *
 * @example
 * ```ts
 * import type { AuditFindingKind } from "@portcullis/portcullis/policy";
 *
 * const failing: AuditFindingKind[] = ["unguarded-route", "dead-route"];
 * ```
 */
export type AuditFindingKind =
  | "unguarded-route"
  | "dead-route"
  | "dead-rule"
  | "unreachable-role"
  | "dynamic-route"
  | "auth-only-route";

/**
 * One finding of an audit, at a place in the application or the policy.
 *
 * @example
 * ```ts
 * import type { AuditFinding } from "@portcullis/portcullis/policy";
 *
 * const where = (f: AuditFinding): string => `${f.file}:${f.line ?? 1} ${f.message}`;
 * ```
 */
export interface AuditFinding {
  /** What it is about. */
  readonly kind: AuditFindingKind;
  /** `warning` for problems, `note` for what is only worth knowing. */
  readonly level: "warning" | "note";
  /** One sentence. */
  readonly message: string;
  /**
   * Where: a route's file, relative to the application directory, or
   * the policy file as given.
   */
  readonly file: string;
  /** Line, when known. */
  readonly line: number | undefined;
  /** Column, when known. */
  readonly col: number | undefined;
  /** The route's id, for route findings. */
  readonly route: string | undefined;
  /** The rule's text, for `dead-rule`. */
  readonly rule: string | undefined;
  /** The role, for `unreachable-role`. */
  readonly role: string | undefined;
}

/**
 * The result of {@linkcode auditApp}: the application's routes joined with
 * the policy.
 *
 * @example
 * ```ts
 * import type { AuditReport } from "@portcullis/portcullis/policy";
 *
 * const warnings = (report: AuditReport): number =>
 *   report.findings.filter((f) => f.level === "warning").length;
 * ```
 */
export interface AuditReport {
  /** The application directory, as given. */
  readonly appDir: string;
  /** The model file, as given. */
  readonly modelPath: string;
  /** The policy file, as given. */
  readonly policyPath: string;
  /** The policy's revision (a hash of the files' content). */
  readonly revision: string;
  /** Every server route found, in file and line order. */
  readonly routes: readonly AuditRoute[];
  /** Every role the policy names (and those given), by name. */
  readonly roles: readonly AuditRole[];
  /** Every `p` rule, in file order. */
  readonly rules: readonly AuditRule[];
  /** The findings: routes first, then rules, then roles. */
  readonly findings: readonly AuditFinding[];
  /**
   * `false` when the scan was partial (a file could not be read or
   * parsed, a budget was hit) or the decision budget ran out: then a
   * route or rule may be missing and `notes` says why.
   */
  readonly complete: boolean;
  /** Why the report may be incomplete. */
  readonly notes: readonly string[];
}
