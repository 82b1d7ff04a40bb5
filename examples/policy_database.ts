// The reference application's policy in a database: when
// POLICY_DATABASE_URL is set (postgres://..., pglite:<dir>, pglite:memory),
// examples/server.ts serves the rules of its casbin_rule table instead of
// policy.csv, and every instance on that database follows every change.
// An empty table is filled from policy.csv once, so that a new database
// starts with the example policy.
import { readFile } from "node:fs/promises";
import type { EnforcerSource } from "../src/guard/mod.ts";
import {
  importPolicyCsv,
  PolicyDatabase,
  PostgresEnforcerProvider,
} from "../src/guard/postgres/mod.ts";

/** A provider on the database at `url`, and how to close it. */
export interface DatabaseProvider extends EnforcerSource {
  close(): Promise<void>;
}

/**
 * Opens the database, fills an empty rule table from `policyPath`, and
 * serves its rules with the model at `modelPath`.
 */
export async function openDatabaseProvider(
  url: string,
  modelPath: string,
  policyPath: string,
): Promise<DatabaseProvider> {
  const database = await PolicyDatabase.open(url);
  try {
    if ((await database.rules()).length === 0) {
      const { rules } = await importPolicyCsv(
        database,
        await readFile(policyPath, "utf8"),
      );
      // deno-lint-ignore no-console
      console.log(`Policy table was empty: imported ${rules} rules`);
    }
    const provider = await PostgresEnforcerProvider.open({
      database,
      modelPath,
      onReload: (event) =>
        // deno-lint-ignore no-console
        console.log(
          `Policy reloaded: revision ${event.revision}, ${event.rules} rules (loaded ${
            event.loadedIn === "worker"
              ? "in a worker thread"
              : "on the event loop"
          })`,
        ),
      onError: (error) =>
        // deno-lint-ignore no-console
        console.error(
          `Policy not reloaded, still serving the last good one: [${error.code}] ${error.message}`,
        ),
    });
    return {
      getEnforcer: () => provider.getEnforcer(),
      close: async () => {
        await provider.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
