// The SqlClient over PGlite, PostgreSQL compiled to WebAssembly and run in
// this process: in memory or in a data directory. It is imported when a
// `pglite:` database is opened, so that nobody else loads it.
import type { PGlite } from "@electric-sql/pglite";
import type { Rows, SqlClient, SqlSession } from "./_sql.ts";

function session(db: Pick<PGlite, "query">): SqlSession {
  return {
    query: async (text, params = []) =>
      (await db.query<unknown[]>(text, params as unknown[], {
        rowMode: "array",
      })).rows as Rows,
  };
}

/**
 * Opens PGlite on `dataDir` (created if missing), or in memory when it is
 * undefined.
 */
export async function openPglite(
  dataDir: string | undefined,
): Promise<SqlClient> {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(dataDir);
  return {
    kind: "pglite",
    ...session(db),
    transaction: (mode, fn) =>
      db.transaction(async (tx) => {
        await tx.query(
          `SET TRANSACTION ISOLATION LEVEL ${mode.isolation.toUpperCase()}${
            mode.readOnly ? ", READ ONLY" : ""
          }`,
        );
        return await fn(session(tx));
      }),
    listen: async (channel, handlers) => {
      // One in-process session: the listener is never lost.
      const unlisten = await db.listen(channel, handlers.onNotify);
      return {
        close: async () => {
          if (!db.closed) await unlisten();
        },
      };
    },
    close: async () => {
      if (!db.closed) await db.close();
    },
  };
}
