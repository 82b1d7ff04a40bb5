import { messageOf, type SqlClient } from "../../_postgres/_sql.ts";
import { openSqlClient, redactUrl } from "../../_postgres/_open.ts";
import {
  ensureSchema,
  type PolicySchema,
  policySchema,
  valueColumns,
} from "./_schema.ts";
import { checkRules, RuleWrites } from "./_rule_writes.ts";
import { PolicyDatabaseError } from "./policy_database_error.ts";

/**
 * Options for {@linkcode PolicyDatabase.open}.
 *
 * @example
 * ```ts
 * import type { PolicyDatabaseOptions } from "@portcullis/portcullis/guard/postgres";
 *
 * const options: PolicyDatabaseOptions = { table: "casbin_rule", maxConnections: 4 };
 * ```
 */
export interface PolicyDatabaseOptions {
  /**
   * The rules table (`name` or `schema.name`). The revision table is
   * `<name>_revision`, the NOTIFY channel `<name>_revision`.
   * @default {"casbin_rule"}
   */
  table?: string;
  /**
   * Create the rules table, the revision table and the trigger when they
   * are missing. Turn it off where the application's database user may not
   * run DDL, and create them from the SQL in the documentation.
   * @default {true}
   */
  createSchema?: boolean;
  /**
   * Connections of the pool for reads and writes (a PostgreSQL server;
   * the listener has one more of its own).
   * @default {4}
   */
  maxConnections?: number;
  /**
   * Seconds to wait for a connection before an attempt fails.
   * @default {10}
   */
  connectTimeoutSeconds?: number;
}

/**
 * A transaction of {@linkcode PolicyDatabase.update}: reads see the rules
 * as the previous writer committed them, and no other writer of a policy
 * database commits before this one ends.
 *
 * @example
 * ```ts ignore
 * await database.update(async (tx) => {
 *   if ((await tx.rules()).some((rule) => rule[1] === "intern")) {
 *     await tx.remove([["p", "intern", "post", "write"]]);
 *   }
 * });
 * ```
 */
export interface PolicyTransaction {
  /** Every rule, in id order: the policy type first, then the values. */
  rules(): Promise<string[][]>;
  /** Adds the rules not present yet; resolves to how many were added. */
  add(rules: readonly (readonly string[])[]): Promise<number>;
  /** Removes every row of these rules; resolves to how many went. */
  remove(rules: readonly (readonly string[])[]): Promise<number>;
  /**
   * Makes the table hold exactly these rules; resolves to whether it
   * changed.
   */
  replace(rules: readonly (readonly string[])[]): Promise<boolean>;
}

/**
 * What a write of {@linkcode PolicyDatabase} resolves to.
 *
 * @example
 * ```ts ignore
 * const { revision, changed } = await database.addRules([["p", "alice", "post", "read"]]);
 * ```
 */
export interface PolicyWriteResult<T = number> {
  /** The policy revision after the commit. */
  readonly revision: number;
  /** What the write returned (rules added or removed, or the callback's result). */
  readonly changed: T;
}

/** Called after a write of this process committed, with its revision. */
type CommitListener = (revision: number) => void;

interface Internals {
  readonly client: SqlClient;
  readonly schema: PolicySchema;
  readonly columns: readonly string[];
  readonly onCommit: Set<CommitListener>;
}

const internals = new WeakMap<PolicyDatabase, Internals>();

/** The connection and schema of a database (for the provider). */
export function internalsOf(database: PolicyDatabase): Internals {
  const found = internals.get(database);
  if (found === undefined) {
    throw new TypeError("Cannot use policy database: not a PolicyDatabase");
  }
  return found;
}

async function connect(
  url: string,
  options: PolicyDatabaseOptions,
): Promise<SqlClient> {
  return await openSqlClient(url, {
    label: "policy database",
    maxConnections: options.maxConnections ?? 4,
    connectTimeoutSeconds: options.connectTimeoutSeconds ?? 10,
  });
}

/**
 * A casbin rule table in PostgreSQL (a server, through the `postgres`
 * package) or in PGlite (PostgreSQL in this process, in memory or in a data
 * directory), with a policy revision that a trigger bumps and announces on
 * every change. Open it once per process; a
 * {@linkcode PostgresEnforcerProvider} serves enforcers from it, and its
 * writes are transactions that never lose a concurrent update.
 *
 * Rules are arrays as a policy line splits: `["p", "alice", "post", "read"]`.
 *
 * @example Writing rules
 * ```ts ignore
 * import { PolicyDatabase } from "@portcullis/portcullis/guard/postgres";
 *
 * await using database = await PolicyDatabase.open("postgres://app@db/app");
 * await database.addRules([["p", "editor", "post", "write"]]);
 * console.log(await database.rules());
 * ```
 */
export class PolicyDatabase implements AsyncDisposable {
  /** `"postgres"` for a server, `"pglite"` for the embedded database. */
  readonly kind: "postgres" | "pglite";
  /** The rules table. */
  readonly table: string;
  readonly #client: SqlClient;
  readonly #writes: RuleWrites;
  readonly #columns: number;
  readonly #onCommit = new Set<CommitListener>();
  #closed = false;

  private constructor(
    client: SqlClient,
    schema: PolicySchema,
    columns: readonly string[],
  ) {
    this.kind = client.kind;
    this.table = schema.table;
    this.#client = client;
    this.#writes = new RuleWrites(schema, columns);
    this.#columns = columns.length;
    internals.set(this, {
      client,
      schema,
      columns,
      onCommit: this.#onCommit,
    });
  }

  /**
   * Connects (`postgres://user:password@host:port/db`,
   * `postgresql://...`), or opens PGlite (`pglite:memory`, or
   * `pglite:<directory>`), and creates the schema where it is missing.
   *
   * @param url Where the database is.
   * @param options The table and connection settings.
   * @returns The open database.
   * @throws {RangeError} For another kind of URL or a bad table name.
   * @throws {PolicyDatabaseError} If it cannot connect (`CONNECT_FAILED`)
   * or the schema cannot be prepared (`SCHEMA_FAILED`).
   *
   * @example
   * ```ts ignore
   * await using database = await PolicyDatabase.open("pglite:./data/policy");
   * ```
   */
  static async open(
    url: string,
    options: PolicyDatabaseOptions = {},
  ): Promise<PolicyDatabase> {
    const schema = policySchema(options.table ?? "casbin_rule");
    let client: SqlClient;
    try {
      client = await connect(url, options);
      await client.query("SELECT 1");
    } catch (error) {
      if (error instanceof RangeError) throw error;
      throw new PolicyDatabaseError(
        "CONNECT_FAILED",
        `Cannot open policy database "${redactUrl(url)}": ${messageOf(error)}`,
        { cause: error },
      );
    }
    try {
      if (options.createSchema ?? true) await ensureSchema(client, schema);
      const columns = await valueColumns(client, schema);
      return new PolicyDatabase(client, schema, columns);
    } catch (error) {
      await client.close().catch(() => {});
      throw new PolicyDatabaseError(
        "SCHEMA_FAILED",
        `Cannot prepare policy table "${schema.table}": ${messageOf(error)}`,
        { cause: error },
      );
    }
  }

  /**
   * The policy revision: bumped by every statement that changes the rules.
   *
   * @returns The revision committed now.
   *
   * @example
   * ```ts ignore
   * const before = await database.revision();
   * await database.addRules([["p", "bob", "post", "read"]]);
   * assert((await database.revision()) > before);
   * ```
   */
  async revision(): Promise<number> {
    return await this.#read((tx) => this.#writes.revision(tx));
  }

  /**
   * Every rule, in id order.
   *
   * @returns The rules: the policy type first, then the values.
   *
   * @example
   * ```ts ignore
   * for (const rule of await database.rules()) console.log(rule.join(", "));
   * ```
   */
  async rules(): Promise<string[][]> {
    return await this.#read((tx) => this.#writes.rules(tx));
  }

  /**
   * Runs `fn` in a write transaction and commits it. Writers run one at a
   * time: `fn` sees every rule committed before it, so a read-modify-write
   * never loses a concurrent update. A rejection rolls everything back.
   * Once it resolves, the {@linkcode PostgresEnforcerProvider}s of this
   * process answer the next request with this revision or a newer one.
   * Inside `fn`, read and write through `tx` only: PGlite has one session,
   * so a query on the database itself would wait for this transaction.
   *
   * @typeParam T What `fn` resolves to.
   * @param fn The changes, given the transaction.
   * @returns The revision after the commit and what `fn` resolved to.
   * @throws {PolicyDatabaseError} (`WRITE_FAILED`) If the transaction
   * failed; the error of `fn` itself is rethrown as it is.
   *
   * @example
   * ```ts ignore
   * await database.update(async (tx) => {
   *   await tx.remove([["p", "alice", "post", "write"]]);
   *   await tx.add([["p", "alice", "post", "read"]]);
   * });
   * ```
   */
  async update<T>(
    fn: (tx: PolicyTransaction) => Promise<T>,
  ): Promise<PolicyWriteResult<T>> {
    this.#open("update");
    const writes = this.#writes;
    const columns = this.#columns;
    let failedInCallback = false;
    let result: { revision: number; changed: T };
    try {
      result = await this.#client.transaction(
        { readOnly: false, isolation: "read committed" },
        async (session) => {
          await writes.lock(session);
          const tx: PolicyTransaction = {
            rules: () => writes.rules(session),
            add: (rules) => writes.add(session, checkRules(rules, columns)),
            remove: (rules) =>
              writes.remove(session, checkRules(rules, columns)),
            replace: (rules) =>
              writes.replace(session, checkRules(rules, columns)),
          };
          let changed: T;
          try {
            changed = await fn(tx);
          } catch (error) {
            failedInCallback = !isDatabaseError(error);
            throw error;
          }
          return { revision: await writes.revision(session), changed };
        },
      );
    } catch (error) {
      if (failedInCallback) throw error;
      throw new PolicyDatabaseError(
        "WRITE_FAILED",
        `Cannot write policy table "${this.table}": ${messageOf(error)}`,
        { cause: error },
      );
    }
    for (const listener of this.#onCommit) listener(result.revision);
    return result;
  }

  /**
   * Adds rules that are not in the table yet, in one transaction.
   *
   * @param rules The rules: the policy type first, then the values.
   * @returns The revision after the commit and how many rules were added.
   *
   * @example
   * ```ts ignore
   * await database.addRules([["p", "editor", "post", "write"], ["g", "alice", "editor"]]);
   * ```
   */
  addRules(rules: readonly (readonly string[])[]): Promise<PolicyWriteResult> {
    return this.update((tx) => tx.add(rules));
  }

  /**
   * Removes every row of these rules, in one transaction.
   *
   * @param rules The rules: the policy type first, then the values.
   * @returns The revision after the commit and how many rows went.
   *
   * @example
   * ```ts ignore
   * await database.removeRules([["g", "alice", "editor"]]);
   * ```
   */
  removeRules(
    rules: readonly (readonly string[])[],
  ): Promise<PolicyWriteResult> {
    return this.update((tx) => tx.remove(rules));
  }

  /**
   * Makes the table hold exactly these rules, in one transaction (nothing
   * is written when it holds them already).
   *
   * @param rules The whole policy: the policy type first, then the values.
   * @returns The revision after the commit and whether anything changed.
   *
   * @example
   * ```ts ignore
   * await database.replaceRules([["p", "admin", "post", "write"]]);
   * ```
   */
  replaceRules(
    rules: readonly (readonly string[])[],
  ): Promise<PolicyWriteResult<boolean>> {
    return this.update((tx) => tx.replace(rules));
  }

  /**
   * Closes the connections (or PGlite). Providers on this database must
   * be closed first. Calling it again does nothing.
   *
   * @returns A promise that settles once everything closed.
   *
   * @example
   * ```ts ignore
   * await database.close();
   * ```
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#onCommit.clear();
    await this.#client.close();
  }

  /**
   * Same as {@linkcode PolicyDatabase.close}, for `await using`.
   *
   * @returns A promise that settles once everything closed.
   *
   * @example
   * ```ts ignore
   * await using database = await PolicyDatabase.open("pglite:memory");
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #open(action: string): void {
    if (this.#closed) {
      throw new Error(`Cannot ${action} policy database: it is closed`);
    }
  }

  async #read<T>(
    fn: (tx: Parameters<RuleWrites["rules"]>[0]) => Promise<T>,
  ): Promise<T> {
    this.#open("read");
    try {
      return await this.#client.transaction(
        { readOnly: true, isolation: "repeatable read" },
        fn,
      );
    } catch (error) {
      throw new PolicyDatabaseError(
        "READ_FAILED",
        `Cannot read policy table "${this.table}": ${messageOf(error)}`,
        { cause: error },
      );
    }
  }
}

/** Whether an error came from the database rather than from user code. */
function isDatabaseError(error: unknown): boolean {
  return typeof error === "object" && error !== null &&
    ("severity" in error || "sqlState" in error ||
      (error as { name?: unknown }).name === "PostgresError");
}
