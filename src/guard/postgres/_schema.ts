// The tables, trigger and channel of a policy database. Rules stay in the
// table every casbin adapter uses (`casbin_rule`: id, ptype, v0..v5); a
// one-row table next to it holds the policy revision, which a statement
// trigger bumps on every change to the rules, in the changing transaction,
// and announces with NOTIFY (delivered on commit, never for a rollback).
import type { SqlClient, SqlSession } from "../../_postgres/_sql.ts";

/** The names of one policy table's objects, quoted for SQL. */
export interface PolicySchema {
  /** The rules table as given (`casbin_rule`, `auth.casbin_rule`). */
  readonly table: string;
  readonly rules: string;
  readonly revision: string;
  readonly bump: string;
  readonly trigger: string;
  /** Unquoted trigger name (for the catalogue lookup). */
  readonly triggerName: string;
  /** The NOTIFY channel (a plain string). */
  readonly channel: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

function quote(name: string): string {
  return `"${name}"`;
}

/**
 * The schema of `table` (`name` or `schema.name`, letters, digits and `_`,
 * at most 40 characters each). Throws `RangeError` for another name.
 */
export function policySchema(table: string): PolicySchema {
  const parts = table.split(".");
  if (parts.length > 2 || !parts.every((part) => NAME.test(part))) {
    throw new RangeError(
      `Cannot use policy table "${table}": expected a name or schema.name of letters, digits and "_" (at most 40 characters each)`,
    );
  }
  const name = parts.at(-1)!;
  const prefix = parts.length === 2 ? `${quote(parts[0]!)}.` : "";
  return {
    table,
    rules: `${prefix}${quote(name)}`,
    revision: `${prefix}${quote(`${name}_revision`)}`,
    bump: `${prefix}${quote(`${name}_bump_revision`)}`,
    trigger: quote(`${name}_revision_bump`),
    triggerName: `${name}_revision_bump`,
    channel: `${table}_revision`.toLowerCase(),
  };
}

/** The statements that create the schema (idempotent). */
export function schemaStatements(schema: PolicySchema): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${schema.rules} (
  id serial PRIMARY KEY,
  ptype varchar(100) NOT NULL,
  v0 varchar(254),
  v1 varchar(254),
  v2 varchar(254),
  v3 varchar(254),
  v4 varchar(254),
  v5 varchar(254)
)`,
    `CREATE TABLE IF NOT EXISTS ${schema.revision} (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  revision bigint NOT NULL
)`,
    `INSERT INTO ${schema.revision} (singleton, revision) VALUES (true, 1)
  ON CONFLICT (singleton) DO NOTHING`,
    `CREATE OR REPLACE FUNCTION ${schema.bump}() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  next bigint;
BEGIN
  UPDATE ${schema.revision} SET revision = revision + 1
    RETURNING revision INTO next;
  PERFORM pg_notify('${schema.channel}', next::text);
  RETURN NULL;
END
$$`,
    `DROP TRIGGER IF EXISTS ${schema.trigger} ON ${schema.rules}`,
    `CREATE TRIGGER ${schema.trigger}
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${schema.rules}
  FOR EACH STATEMENT EXECUTE FUNCTION ${schema.bump}()`,
  ];
}

/** Whether the revision table and the trigger are in place. */
async function installed(
  session: SqlSession,
  schema: PolicySchema,
): Promise<boolean> {
  const rows = await session.query(
    `SELECT to_regclass($1) IS NOT NULL AND EXISTS (
  SELECT 1 FROM pg_trigger
  WHERE tgrelid = to_regclass($2) AND tgname = $3
)`,
    [schema.revision, schema.rules, schema.triggerName],
  );
  return rows[0]?.[0] === true;
}

// An advisory lock key ("portcullis" in ASCII, truncated to 8 bytes), so
// that instances starting together do not create the schema concurrently.
const SCHEMA_LOCK = 0x706f7274637573;

/**
 * Creates the rules table, the revision table and the trigger where they
 * are missing. An existing `casbin_rule` table (from a casbin adapter) is
 * kept as it is.
 */
export async function ensureSchema(
  client: SqlClient,
  schema: PolicySchema,
): Promise<void> {
  if (await installed(client, schema)) return;
  await client.transaction(
    { readOnly: false, isolation: "read committed" },
    async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [SCHEMA_LOCK]);
      if (await installed(tx, schema)) return;
      for (const statement of schemaStatements(schema)) {
        await tx.query(statement);
      }
    },
  );
}

/** The `v` columns of the rules table, in order (`v0`..`v5`, or more). */
export async function valueColumns(
  session: SqlSession,
  schema: PolicySchema,
): Promise<string[]> {
  const rows = await session.query(
    `SELECT attname FROM pg_attribute
WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped`,
    [schema.rules],
  );
  const columns = rows.map((row) => String(row[0]))
    .filter((name) => /^v\d+$/.test(name))
    .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  columns.forEach((name, i) => {
    if (name !== `v${i}`) {
      throw new Error(
        `the table ${schema.table} has column ${name} but no v${i}`,
      );
    }
  });
  if (columns.length === 0 || !rows.some((row) => row[0] === "ptype")) {
    throw new Error(
      `the table ${schema.table} has no ptype and v0.. columns (is it a casbin rule table?)`,
    );
  }
  return columns;
}
