/**
 * The resolved user of a request, as a user provider returns it and as the
 * enforcer receives it as the casbin subject (`r.sub`). Models match on its
 * attributes, most often `r.sub.role`.
 *
 * @example A user from the bearer provider
 * ```ts
 * import type { User } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * const user: User = { role: "editor" };
 * assert.equal(user.role, "editor");
 * ```
 */
export interface User {
  /** The role the policy matches with `r.sub.role`. */
  role?: string;
  /** Any other attribute, such as claims from a token. */
  [attribute: string]: unknown;
}
