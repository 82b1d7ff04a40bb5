/**
 * What went wrong with an organisation store:
 *
 * - `"CONNECT_FAILED"`: the database could not be reached or opened.
 * - `"SCHEMA_FAILED"`: the tables could not be created or migrated.
 * - `"SCHEMA_TOO_NEW"`: the database was migrated by a newer version of this
 *   library (a version this one does not know); nothing is written.
 * - `"PUBLISH_FAILED"`: a publish transaction failed and was rolled back.
 * - `"QUERY_FAILED"`: a query failed.
 * - `"NOT_PUBLISHED"`: the repository a query names was never published.
 *
 * @example
 * ```ts
 * import type { OrgStoreErrorCode } from "@portcullis/portcullis/map/store";
 *
 * const code: OrgStoreErrorCode = "NOT_PUBLISHED";
 * ```
 */
export type OrgStoreErrorCode =
  | "CONNECT_FAILED"
  | "SCHEMA_FAILED"
  | "SCHEMA_TOO_NEW"
  | "PUBLISH_FAILED"
  | "QUERY_FAILED"
  | "NOT_PUBLISHED";

/**
 * Raised by {@linkcode OrgStore} when the database cannot be opened,
 * migrated, written or read; `code` says which.
 *
 * @example
 * ```ts
 * import { OrgStoreError } from "@portcullis/portcullis/map/store";
 * import assert from "node:assert/strict";
 *
 * const error = new OrgStoreError("NOT_PUBLISHED", 'Cannot diff "web": it was never published');
 * assert.equal(error.name, "OrgStoreError");
 * assert.equal(error.code, "NOT_PUBLISHED");
 * ```
 */
export class OrgStoreError extends Error {
  /** Which step failed. */
  readonly code: OrgStoreErrorCode;

  /**
   * Creates an organisation store error.
   *
   * @param code Which step failed.
   * @param message A `Cannot <action>: <detail>` message.
   * @param options The underlying cause.
   */
  constructor(
    code: OrgStoreErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "OrgStoreError";
    this.code = code;
  }
}
