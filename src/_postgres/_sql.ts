// What the database code (the policy provider, the map store) needs from a
// PostgreSQL client, so that the same schema, queries and notification path
// run over a server (the `postgres` package) and over PGlite.

/** Rows as arrays of column values, in the order of the select list. */
export type Rows = unknown[][];

/** Runs statements in one session (a transaction, or the pool). */
export interface SqlSession {
  /** Runs one statement with `$1`-style parameters. */
  query(text: string, params?: readonly unknown[]): Promise<Rows>;
}

/** How a transaction runs. */
export interface TransactionMode {
  /** A read-only transaction. */
  readonly readOnly: boolean;
  /** `repeatable read` for one snapshot across statements. */
  readonly isolation: "read committed" | "repeatable read";
}

/** A live `LISTEN` on one channel. */
export interface SqlListener {
  /** Stops listening and closes the listening connection. */
  close(): Promise<void>;
}

/** Handlers of a {@linkcode SqlClient.listen} session. */
export interface ListenHandlers {
  /** A notification on the channel, with its payload. */
  readonly onNotify: (payload: string) => void;
  /**
   * The listening connection ended (the server went away or restarted):
   * notifications sent from now on are lost until `listen()` succeeds again.
   */
  readonly onLost: (error: unknown) => void;
}

/** A PostgreSQL client, as the provider uses it. */
export interface SqlClient extends SqlSession {
  /** `"postgres"` for a server, `"pglite"` for the embedded database. */
  readonly kind: "postgres" | "pglite";
  /** Runs `fn` in a transaction; commits when it resolves. */
  transaction<T>(
    mode: TransactionMode,
    fn: (session: SqlSession) => Promise<T>,
  ): Promise<T>;
  /**
   * Starts listening on `channel` on a connection of its own; resolves
   * once `LISTEN` is in force. Rejects when the database cannot be reached.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<SqlListener>;
  /** Closes every connection (or the embedded database, if owned). */
  close(): Promise<void>;
}

/** A message for an unknown thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
