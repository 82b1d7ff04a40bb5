// The SqlClient over PGlite, PostgreSQL compiled to WebAssembly and run in
// this process: in memory or in a data directory. It is imported when a
// `pglite:` database is opened, so that nobody else loads it.
import type { PGlite } from "@electric-sql/pglite";
import type {
  ListenHandlers,
  Rows,
  SqlClient,
  SqlListener,
  SqlSession,
  TransactionMode,
} from "./_sql.ts";

/**
 * Opens PGlite on `dataDir` (created if missing), or in memory when it is
 * undefined.
 */
export async function openPglite(
  dataDir: string | undefined,
): Promise<SqlClient> {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(dataDir);
  return new PgliteClient(db);
}

function session(db: Pick<PGlite, "query">): SqlSession {
  return {
    query: async (text, params = []) =>
      (await db.query<unknown[]>(text, params as unknown[], {
        rowMode: "array",
      })).rows as Rows,
  };
}

class PgliteClient implements SqlClient {
  readonly kind = "pglite" as const;
  readonly #db: PGlite;
  readonly #session: SqlSession;

  constructor(db: PGlite) {
    this.#db = db;
    this.#session = session(db);
  }

  query(text: string, params: readonly unknown[] = []): Promise<Rows> {
    return this.#session.query(text, params);
  }

  async transaction<T>(
    mode: TransactionMode,
    fn: (session: SqlSession) => Promise<T>,
  ): Promise<T> {
    return await this.#db.transaction(async (tx) => {
      await tx.query(
        `SET TRANSACTION ISOLATION LEVEL ${mode.isolation.toUpperCase()}${
          mode.readOnly ? ", READ ONLY" : ""
        }`,
      );
      return await fn(session(tx));
    });
  }

  async listen(
    channel: string,
    handlers: ListenHandlers,
  ): Promise<SqlListener> {
    // One in-process session: the listener is never lost.
    const unlisten = await this.#db.listen(channel, handlers.onNotify);
    return {
      close: async () => {
        if (!this.#db.closed) await unlisten();
      },
    };
  }

  async close(): Promise<void> {
    if (!this.#db.closed) await this.#db.close();
  }
}
