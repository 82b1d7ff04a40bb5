/**
 * What went wrong with a policy database:
 *
 * - `"CONNECT_FAILED"`: the database could not be reached or opened.
 * - `"SCHEMA_FAILED"`: the rules table, the revision table or the trigger
 *   could not be created, or the table is not a casbin rule table.
 * - `"WRITE_FAILED"`: a write transaction failed and was rolled back.
 * - `"READ_FAILED"`: the rules could not be read.
 *
 * @example
 * ```ts
 * import type { PolicyDatabaseErrorCode } from "@portcullis/portcullis/guard/postgres";
 *
 * const code: PolicyDatabaseErrorCode = "CONNECT_FAILED";
 * ```
 */
export type PolicyDatabaseErrorCode =
  | "CONNECT_FAILED"
  | "SCHEMA_FAILED"
  | "WRITE_FAILED"
  | "READ_FAILED";

/**
 * Raised by {@linkcode PolicyDatabase} when the database cannot be
 * opened, prepared, read or written; `code` says which.
 *
 * @example
 * ```ts
 * import { PolicyDatabaseError } from "@portcullis/portcullis/guard/postgres";
 * import assert from "node:assert/strict";
 *
 * const error = new PolicyDatabaseError(
 *   "CONNECT_FAILED",
 *   "Cannot open policy database: connection refused",
 * );
 * assert.equal(error.name, "PolicyDatabaseError");
 * assert.equal(error.code, "CONNECT_FAILED");
 * ```
 */
export class PolicyDatabaseError extends Error {
  /** Which step failed. */
  readonly code: PolicyDatabaseErrorCode;

  /**
   * Creates a policy database error.
   *
   * @param code Which step failed.
   * @param message A `Cannot <action>: <detail>` message.
   * @param options The underlying cause.
   */
  constructor(
    code: PolicyDatabaseErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "PolicyDatabaseError";
    this.code = code;
  }
}
