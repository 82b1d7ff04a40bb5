// The organisation store's tables, created and changed by numbered
// migrations. The versions applied are rows of `portcullis_map_migrations`;
// opening a store applies the missing ones in one transaction, under an
// advisory lock so that processes opening it together do not race, and
// refuses a database that a newer library migrated further.
import type { SqlClient, SqlSession } from "../../_postgres/_sql.ts";

/** One schema change. */
interface Migration {
  readonly version: number;
  readonly description: string;
  readonly statements: readonly string[];
}

/** Every migration, in version order. */
export const MIGRATIONS: readonly Migration[] = [{
  version: 1,
  description: "repositories, owners and ports",
  statements: [
    `CREATE TABLE portcullis_map_repos (
  repo text PRIMARY KEY,
  commit_sha text,
  metadata jsonb NOT NULL DEFAULT '{}',
  digest text NOT NULL,
  port_count integer NOT NULL,
  owner_count integer NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now()
)`,
    `CREATE TABLE portcullis_map_owners (
  repo text NOT NULL REFERENCES portcullis_map_repos ON DELETE CASCADE,
  owner_id text NOT NULL,
  name text NOT NULL,
  service text NOT NULL,
  PRIMARY KEY (repo, owner_id)
)`,
    // http_method and http_path split an HTTP key ("GET /users/{}") for the
    // ANY-method rule; both are null for other mechanisms.
    `CREATE TABLE portcullis_map_ports (
  repo text NOT NULL,
  owner_id text NOT NULL,
  boundary_id text NOT NULL,
  mechanism text NOT NULL,
  key text NOT NULL,
  role text NOT NULL CHECK (role IN ('server', 'client')),
  http_method text,
  http_path text,
  confidence double precision NOT NULL,
  file_path text,
  line integer,
  col integer,
  requires text,
  FOREIGN KEY (repo, owner_id) REFERENCES portcullis_map_owners ON DELETE CASCADE
)`,
    `CREATE INDEX portcullis_map_ports_boundary
  ON portcullis_map_ports (boundary_id, role)`,
    `CREATE INDEX portcullis_map_ports_http_path
  ON portcullis_map_ports (http_path, role) WHERE http_path IS NOT NULL`,
    `CREATE INDEX portcullis_map_ports_repo
  ON portcullis_map_ports (repo, owner_id)`,
  ],
}];

/** The schema version this library writes. */
export const SCHEMA_VERSION: number = MIGRATIONS.at(-1)!.version;

// An advisory lock key of its own ("pcmap" in ASCII), apart from the
// policy provider's.
const MIGRATION_LOCK = 0x70636d6170;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS portcullis_map_migrations (
  version integer PRIMARY KEY,
  description text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/** The highest version applied, 0 for none. */
async function appliedVersion(session: SqlSession): Promise<number> {
  const exists = await session.query(
    "SELECT to_regclass('portcullis_map_migrations') IS NOT NULL",
  );
  if (exists[0]?.[0] !== true) return 0;
  const rows = await session.query(
    "SELECT coalesce(max(version), 0)::integer FROM portcullis_map_migrations",
  );
  return Number(rows[0]?.[0] ?? 0);
}

/** The database is further than this library: nothing may be written. */
export class SchemaTooNew extends Error {
  constructor(readonly found: number) {
    super(
      `the database has schema version ${found}, this library knows up to ${SCHEMA_VERSION}: upgrade the library`,
    );
    this.name = "SchemaTooNew";
  }
}

/**
 * Applies the migrations the database lacks; resolves to the versions
 * applied now (none when it was up to date).
 */
export async function migrate(client: SqlClient): Promise<number[]> {
  const current = await appliedVersion(client);
  if (current > SCHEMA_VERSION) throw new SchemaTooNew(current);
  if (current === SCHEMA_VERSION) return [];
  return await client.transaction(
    { readOnly: false, isolation: "read committed" },
    async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await tx.query(CREATE_TABLE);
      const now = await appliedVersion(tx);
      if (now > SCHEMA_VERSION) throw new SchemaTooNew(now);
      const applied: number[] = [];
      for (const migration of MIGRATIONS) {
        if (migration.version <= now) continue;
        for (const statement of migration.statements) await tx.query(statement);
        await tx.query(
          "INSERT INTO portcullis_map_migrations (version, description) VALUES ($1, $2)",
          [migration.version, migration.description],
        );
        applied.push(migration.version);
      }
      return applied;
    },
  );
}
