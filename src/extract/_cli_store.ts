// What the commands on an organisation store (`publish`, `query`, `diff
// --db`) share: the --db flag and opening the store. The store and its
// database drivers are imported only when one of them runs, so a scan never
// loads them.
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { displayText } from "../boundary/_display_text.ts";
import type { OrgStore } from "../map/store/org_store.ts";
import type { ScanCliIo } from "./scan_cli.ts";

/** The store `--db` opens when it is not given: PGlite in a directory. */
export const DEFAULT_DB = "pglite:.portcullis/org";

/** The usage line of `--db`. */
export const DB_USAGE =
  `  --db <url>               the organisation store: postgres://user@host/db,
                           or pglite:<dir> (default: ${DEFAULT_DB})`;

/**
 * Opens the store at `url` and runs `fn` with it; a store that cannot be
 * opened, or a query that fails, prints the message and exits with 2.
 */
export async function withStore(
  url: string,
  io: ScanCliIo,
  fn: (store: OrgStore) => Promise<number>,
): Promise<number> {
  const { OrgStore, OrgStoreError } = await import("../map/store/mod.ts");
  let store: OrgStore;
  try {
    // PGlite creates its directory, but not the folders above it.
    const dir = url.startsWith("pglite:") ? url.slice(7) : "";
    if (dir !== "" && dir !== "memory" && !dir.includes("://")) {
      await mkdir(dirname(dir), { recursive: true });
    }
    store = await OrgStore.open(url);
  } catch (error) {
    io.stderr(
      `${
        displayText(
          error instanceof Error ? error.message : String(error),
          2000,
        )
      }\n`,
    );
    return 2;
  }
  try {
    return await fn(store);
  } catch (error) {
    if (
      !(error instanceof OrgStoreError || error instanceof RangeError ||
        error instanceof SyntaxError || error instanceof TypeError)
    ) throw error;
    io.stderr(`${displayText(error.message, 2000)}\n`);
    return 2;
  } finally {
    await store.close();
  }
}
