// The SqlClient over a PostgreSQL server, with the `postgres` package
// (zero dependencies; runs on Deno, Bun and Node). It is imported when a
// database is opened, so that a file-provider user never loads it.
import type postgres from "postgres";
import type {
  ListenHandlers,
  Rows,
  SqlClient,
  SqlListener,
  SqlSession,
  TransactionMode,
} from "./_sql.ts";

type Sql = postgres.Sql;

/** Connection settings of {@linkcode connectPostgres}. */
export interface PostgresClientOptions {
  /** Pool size for reads and writes (the listener has its own). */
  readonly max: number;
  /** Seconds to wait for a connection before the attempt fails. */
  readonly connectTimeoutSeconds: number;
}

// Settings of the `postgres` package for every connection: no notice
// printing, no type catalogue round trip (we read text and integers), and a
// name the server's activity view shows.
function baseOptions(
  options: PostgresClientOptions,
): Record<string, unknown> {
  return {
    onnotice: () => {},
    fetch_types: false,
    connect_timeout: options.connectTimeoutSeconds,
    connection: { application_name: "portcullis" },
  };
}

/** Opens a pool on `url` (`postgres://...`); connects on first use. */
export async function connectPostgres(
  url: string,
  options: PostgresClientOptions,
): Promise<SqlClient> {
  const { default: connect } = await import("postgres");
  const sql = connect(url, {
    ...baseOptions(options),
    max: options.max,
    idle_timeout: 60,
  });
  return new PostgresJsClient(connect, url, options, sql);
}

class PostgresJsClient implements SqlClient {
  readonly kind = "postgres" as const;
  readonly #connect: typeof postgres;
  readonly #url: string;
  readonly #options: PostgresClientOptions;
  readonly #sql: Sql;
  readonly #listeners = new Set<Sql>();

  constructor(
    connect: typeof postgres,
    url: string,
    options: PostgresClientOptions,
    sql: Sql,
  ) {
    this.#connect = connect;
    this.#url = url;
    this.#options = options;
    this.#sql = sql;
  }

  async query(text: string, params: readonly unknown[] = []): Promise<Rows> {
    return [...await this.#sql.unsafe(text, params as never[]).values()];
  }

  async transaction<T>(
    mode: TransactionMode,
    fn: (session: SqlSession) => Promise<T>,
  ): Promise<T> {
    const settings = `isolation level ${mode.isolation}${
      mode.readOnly ? " read only" : ""
    }`;
    return await this.#sql.begin(settings, (tx) =>
      fn({
        query: async (text, params = []) => [
          ...await tx.unsafe(text, params as never[]).values(),
        ],
      })) as T;
  }

  async listen(
    channel: string,
    handlers: ListenHandlers,
  ): Promise<SqlListener> {
    let ended = false;
    let listening = false;
    // A connection of its own, never recycled (LISTEN is session state: a
    // silent reconnect would drop it). `onnotify` is how the package's own
    // `listen()` receives notifications; its `listen()` re-listens once
    // after a drop and gives up silently if the server is still down, so the
    // provider drives reconnection itself.
    const sql = this.#connect(this.#url, {
      ...baseOptions(this.#options),
      max: 1,
      idle_timeout: null,
      max_lifetime: null,
      onnotify: (name: string, payload: string) => {
        if (name === channel && !ended) handlers.onNotify(payload);
      },
      onclose: () => {
        if (ended || !listening) return;
        ended = true;
        this.#listeners.delete(sql);
        void sql.end({ timeout: 0 }).catch(() => {});
        handlers.onLost(new Error("the listening connection closed"));
      },
    } as Record<string, unknown>);
    this.#listeners.add(sql);
    const close = async (): Promise<void> => {
      ended = true;
      this.#listeners.delete(sql);
      await sql.end({ timeout: 0 }).catch(() => {});
    };
    try {
      await sql.unsafe(`LISTEN "${channel.replaceAll('"', '""')}"`);
    } catch (error) {
      await close();
      throw error;
    }
    listening = true;
    return { close };
  }

  async close(): Promise<void> {
    const listeners = [...this.#listeners];
    this.#listeners.clear();
    await Promise.all([
      ...listeners.map((sql) => sql.end({ timeout: 0 }).catch(() => {})),
      this.#sql.end({ timeout: 5 }),
    ]);
  }
}
