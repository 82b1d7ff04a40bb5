/**
 * Casbin policies in PostgreSQL, kept consistent across every instance of
 * an application: rules in casbin's `casbin_rule` table, a revision bumped
 * by a trigger and announced with NOTIFY, and an enforcer provider that
 * reloads one consistent snapshot off the request path. PGlite (PostgreSQL
 * in this process) is the embedded default: `pglite:memory` or
 * `pglite:<dir>`. Nothing here is loaded by `@portcullis/portcullis/guard`.
 *
 * @example
 * ```ts
 * import {
 *   exportPolicyCsv,
 *   importPolicyCsv,
 *   PolicyDatabase,
 * } from "@portcullis/portcullis/guard/postgres";
 * import assert from "node:assert/strict";
 *
 * await using database = await PolicyDatabase.open("pglite:memory");
 * await importPolicyCsv(database, "p, viewer, post, read\ng, alice, viewer\n");
 * assert.equal(await exportPolicyCsv(database), "p, viewer, post, read\ng, alice, viewer\n");
 * ```
 *
 * @module
 */
export {
  PolicyDatabase,
  type PolicyDatabaseOptions,
  type PolicyTransaction,
  type PolicyWriteResult,
} from "./policy_database.ts";
export {
  PolicyDatabaseError,
  type PolicyDatabaseErrorCode,
} from "./policy_database_error.ts";
export {
  type PolicyReloadEvent,
  PostgresEnforcerProvider,
  type PostgresEnforcerProviderOptions,
} from "./postgres_enforcer_provider.ts";
export {
  exportPolicyCsv,
  importPolicyCsv,
  type ImportPolicyCsvResult,
} from "./policy_csv.ts";
