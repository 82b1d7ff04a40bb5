// Opens a SqlClient from a URL: a PostgreSQL server (`postgres://`,
// `postgresql://`, through the `postgres` package) or PGlite (`pglite:memory`,
// `pglite:<directory>`). Each driver is imported only when its kind of URL is
// opened, so that nobody loads the one they do not use.
import type { SqlClient } from "./_sql.ts";

/** How {@linkcode openSqlClient} connects. */
export interface OpenSqlClientOptions {
  /** What is opened, for messages ("policy database"). */
  readonly label: string;
  /** Pool size for a server. */
  readonly maxConnections: number;
  /** Seconds to wait for a connection to a server. */
  readonly connectTimeoutSeconds: number;
}

/** The same URL with its password hidden, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/^(\w+:\/\/[^:/@]*:)[^@]*@/, "$1***@");
}

/**
 * Opens the database at `url`. Throws `RangeError` for another kind of URL
 * or a bad pool size; the drivers' errors otherwise.
 */
export async function openSqlClient(
  url: string,
  options: OpenSqlClientOptions,
): Promise<SqlClient> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const max = options.maxConnections;
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(
        `Cannot open ${options.label}: maxConnections must be a positive integer, got ${max}`,
      );
    }
    const { connectPostgres } = await import("./_postgres_js_client.ts");
    return await connectPostgres(url, {
      max,
      connectTimeoutSeconds: options.connectTimeoutSeconds,
    });
  }
  if (url.startsWith("pglite:")) {
    const dir = url.slice("pglite:".length);
    const { openPglite } = await import("./_pglite_client.ts");
    return await openPglite(dir === "" || dir === "memory" ? undefined : dir);
  }
  throw new RangeError(
    `Cannot open ${options.label}: expected a postgres://, postgresql:// or pglite: URL, got "${
      redactUrl(url)
    }"`,
  );
}
