// The rule table as a reload source: a snapshot is the revision and every
// rule read in one repeatable-read transaction (so it is always a committed
// state), read in pages with the event loop free between them. Changes are
// signalled by NOTIFY on a listening connection, by a poll of the revision
// (which catches notifications lost while the connection was down), right
// after a reconnect, and by this process's own writes.
import type { Model } from "casbin";
import { EnforcerLoadError } from "../_policy/error.ts";
import { yieldToEventLoop } from "../_policy/build.ts";
import { sameBytes } from "../_reload/policy_files.ts";
import type { ReloadSource } from "../_reload/reloader.ts";
import { PolicyRowRenderer } from "./_policy_rows.ts";
import type { PolicySchema } from "./_schema.ts";
import {
  messageOf,
  type SqlClient,
  type SqlListener,
} from "../../_postgres/_sql.ts";

/** One committed state of the rule table. */
export interface RuleTableSnapshot {
  /** The policy revision the rules were read at. */
  readonly revision: number;
  /** The rules as policy text (UTF-8). */
  readonly bytes: Uint8Array;
  /** The row id of each line of `bytes` (line n is `ids[n - 1]`). */
  readonly ids: readonly number[];
}

/** Rows per page of a snapshot read. */
const PAGE_ROWS = 5000;

/** Options for {@linkcode RuleTableSource}. */
export interface RuleTableSourceOptions {
  readonly client: SqlClient;
  readonly schema: PolicySchema;
  readonly columns: readonly string[];
  readonly model: Model;
  /** Signals a change (to the reloader). */
  readonly onChange: () => void;
  /** Reports a lost or failed listening connection, once per outage. */
  /** Reports an outage of the change feed (once per outage). */
  readonly onError: (error: EnforcerLoadError) => void;
  /** The change feed listens again after an outage. */
  readonly onRecovered: () => void;
  readonly isClosed: () => boolean;
  readonly sleep: (ms: number) => Promise<void>;
  /** Period of the revision poll; 0 turns it off. */
  readonly pollIntervalMs: number;
  /** First and longest pause between reconnection attempts. */
  readonly reconnectMinMs: number;
  readonly reconnectMaxMs: number;
}

/** The revision as a number (PostgreSQL's bigint comes as a string). */
export function revisionOf(value: unknown): number {
  const revision = Number(value);
  if (!Number.isSafeInteger(revision)) {
    throw new Error(`the policy revision "${String(value)}" is not an integer`);
  }
  return revision;
}

/** The rule table of a database provider. */
/** The failure key of every read or listen failure: one outage. */
export const OUTAGE_KEY = "READ_FAILED";

export class RuleTableSource implements ReloadSource<RuleTableSnapshot> {
  readonly consistent = true;
  readonly #options: RuleTableSourceOptions;
  readonly #select: string;
  // The newest revision a read has seen (valid or not): changes up to it
  // are handled by that read's round.
  #seenRevision = -1;
  #listener: SqlListener | undefined;
  #listening: Promise<void> | undefined;
  #outageReported = false;
  #pollTimer: ReturnType<typeof setInterval> | undefined;
  #polling: Promise<void> | undefined;

  constructor(options: RuleTableSourceOptions) {
    this.#options = options;
    const { schema, columns } = options;
    this.#select = `SELECT id, ptype, ${
      columns.join(", ")
    } FROM ${schema.rules}`;
  }

  /** The newest revision a read has seen. */
  get seenRevision(): number {
    return this.#seenRevision;
  }

  /**
   * Reads one consistent snapshot. A read that fails for a reason other than
   * a refused row is tried once more: after an outage, a pooled connection
   * that the server closed meanwhile fails its first query with the old
   * termination, although the database is back (the read is read-only).
   */
  async read(): Promise<RuleTableSnapshot> {
    try {
      return await this.#readOnce();
    } catch (error) {
      if (error instanceof EnforcerLoadError && error.code !== "READ_FAILED") {
        throw error;
      }
      if (this.#options.isClosed()) throw error;
      return await this.#readOnce();
    }
  }

  async #readOnce(): Promise<RuleTableSnapshot> {
    const { client, schema, model } = this.#options;
    let revision: number | undefined;
    try {
      const snapshot = await client.transaction(
        { readOnly: true, isolation: "repeatable read" },
        async (tx) => {
          const [row] = await tx.query(
            `SELECT revision FROM ${schema.revision}`,
          );
          revision = revisionOf(row?.[0]);
          const renderer = new PolicyRowRenderer(model, schema.table);
          let after: unknown = undefined;
          for (;;) {
            const rows = after === undefined
              ? await tx.query(`${this.#select} ORDER BY id LIMIT ${PAGE_ROWS}`)
              : await tx.query(
                `${this.#select} WHERE id > $1 ORDER BY id LIMIT ${PAGE_ROWS}`,
                [after],
              );
            renderer.add(rows);
            if (rows.length < PAGE_ROWS) break;
            after = rows[rows.length - 1]![0];
            // Let requests run between pages (a page takes milliseconds).
            await yieldToEventLoop();
          }
          return { revision, ...renderer.finish() };
        },
      );
      this.#seen(snapshot.revision);
      return snapshot;
    } catch (error) {
      if (error instanceof EnforcerLoadError) {
        // A refused row: this revision is handled (reported, last good
        // kept) until the table changes again.
        if (revision !== undefined) this.#seen(revision);
        throw error;
      }
      throw new EnforcerLoadError(
        "READ_FAILED",
        `Cannot read policy from table "${schema.table}": ${messageOf(error)}`,
        { path: schema.table, cause: error },
      );
    }
  }

  #seen(revision: number): void {
    this.#seenRevision = Math.max(this.#seenRevision, revision);
  }

  sameContent(a: RuleTableSnapshot, b: RuleTableSnapshot): boolean {
    return sameBytes(a.bytes, b.bytes);
  }

  failureKey(error: EnforcerLoadError): string {
    // One outage is one failure; each refused row is its own.
    return error.code === "READ_FAILED" ? OUTAGE_KEY : error.message;
  }

  /**
   * Nothing to look for: notifications arrive as events, and this
   * process's writes signal themselves (see `written()`).
   */
  detect(): void {}

  /**
   * A write of this process committed at `revision`: signals a change
   * unless a read has seen it already. Returns whether it did.
   */
  written(revision: number): boolean {
    if (revision <= this.#seenRevision) return false;
    this.#options.onChange();
    return true;
  }

  /**
   * Starts listening (retrying until it works) and polling; resolves once
   * the first attempt to listen succeeded or failed.
   */
  start(): Promise<void> {
    let attempted = (): void => {};
    const first = new Promise<void>((resolve) => attempted = resolve);
    this.#listening = this.#listen(() => attempted());
    const { pollIntervalMs } = this.#options;
    if (pollIntervalMs > 0) {
      this.#pollTimer = setInterval(() => this.poll(), pollIntervalMs);
    }
    return first;
  }

  /** Compares the database's revision with the newest one read. */
  poll(): void {
    if (this.#options.isClosed() || this.#polling !== undefined) return;
    this.#polling = this.#check().finally(() => this.#polling = undefined);
  }

  async close(): Promise<void> {
    if (this.#pollTimer !== undefined) clearInterval(this.#pollTimer);
    this.#pollTimer = undefined;
    await this.#listening;
    await this.#polling;
    await this.#listener?.close();
    this.#listener = undefined;
  }

  async #check(): Promise<void> {
    const { client, schema, onChange, isClosed } = this.#options;
    let revision: number;
    try {
      const [row] = await client.query(
        `SELECT revision FROM ${schema.revision}`,
      );
      revision = revisionOf(row?.[0]);
    } catch {
      // The database is unreachable: the listener reports it and reconnects.
      return;
    }
    if (!isClosed() && revision !== this.#seenRevision) onChange();
  }

  #notified(payload: string): void {
    const revision = Number(payload);
    if (!Number.isSafeInteger(revision) || revision > this.#seenRevision) {
      this.#options.onChange();
    }
  }

  /** Listens until closed: on a lost connection, reconnects with backoff. */
  async #listen(attempted: () => void): Promise<void> {
    const { client, schema, isClosed, sleep } = this.#options;
    const { reconnectMinMs, reconnectMaxMs } = this.#options;
    let delay = reconnectMinMs;
    while (!isClosed()) {
      let onLost = (_error: unknown): void => {};
      const lost = new Promise<unknown>((resolve) => onLost = resolve);
      try {
        this.#listener = await client.listen(schema.channel, {
          onNotify: (payload) => this.#notified(payload),
          onLost: (error) => onLost(error),
        });
      } catch (error) {
        attempted();
        this.#outage(error);
        await sleep(jitter(delay));
        delay = Math.min(delay * 2, reconnectMaxMs);
        continue;
      }
      attempted();
      if (isClosed()) break;
      delay = reconnectMinMs;
      if (this.#outageReported) {
        this.#outageReported = false;
        this.#options.onRecovered();
      }
      // Changes committed while nobody listened: compare revisions now
      // (before the first read there is nothing to compare with).
      if (this.#seenRevision !== -1) await this.#check();
      const ended = await Promise.race([
        lost.then((error) => ({ error })),
        this.#closing.then(() => undefined),
      ]);
      if (ended === undefined) break;
      this.#listener = undefined;
      this.#outage(ended.error);
    }
    attempted();
  }

  #stop = (): void => {};
  readonly #closing = new Promise<void>((resolve) => this.#stop = resolve);

  /** Wakes the listening loop so that `close()` does not wait for it. */
  stop(): void {
    this.#stop();
  }

  #outage(error: unknown): void {
    if (this.#outageReported || this.#options.isClosed()) return;
    this.#outageReported = true;
    const { schema } = this.#options;
    this.#options.onError(
      new EnforcerLoadError(
        "READ_FAILED",
        `Cannot listen for policy changes on table "${schema.table}": ${
          messageOf(error)
        } (retrying; the last good policy stays in force)`,
        { path: schema.table, cause: error },
      ),
    );
  }
}

/** `ms` give or take a fifth, so that instances do not retry in step. */
function jitter(ms: number): number {
  return ms * (0.8 + Math.random() * 0.4);
}
