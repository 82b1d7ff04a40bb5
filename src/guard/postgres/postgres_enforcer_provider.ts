import type { Enforcer } from "../enforcer.ts";
import type { EnforcerProviderOptions } from "../enforcer_provider_options.ts";
import { EnforcerLoadError } from "../_policy/error.ts";
import { EnforcerLoader } from "../_reload/enforcer_loader.ts";
import {
  defaultOnError,
  loaderSettingsOf,
  nonNegative,
} from "../_reload/provider_options.ts";
import { type Built, Reloader, type SwapEvent } from "../_reload/reloader.ts";
import { Sleeps } from "../_reload/sleeps.ts";
import { started } from "../_reload/started.ts";
import { modelOf, parseModel } from "./_model_text.ts";
import {
  OUTAGE_KEY,
  type RuleTableSnapshot,
  RuleTableSource,
} from "./_rule_table_source.ts";
import {
  internalsOf,
  PolicyDatabase,
  type PolicyDatabaseOptions,
} from "./policy_database.ts";

/**
 * What the `onReload` hook of {@linkcode PostgresEnforcerProvider}
 * receives after a new enforcer was swapped in.
 *
 * @example
 * ```ts
 * import type { PolicyReloadEvent } from "@portcullis/portcullis/guard/postgres";
 *
 * const onReload = (event: PolicyReloadEvent): void => {
 *   console.log(`policy revision ${event.revision}: ${event.rules} rules`);
 * };
 * ```
 */
export interface PolicyReloadEvent {
  /** The policy revision now in force. */
  readonly revision: number;
  /** The revision it replaced. */
  readonly previousRevision: number;
  /** How many rules the new enforcer holds. */
  readonly rules: number;
  /** Time from the start of the read to the swap, in milliseconds. */
  readonly durationMs: number;
  /** Where the policy was parsed, validated and indexed. */
  readonly loadedIn: "worker" | "main";
}

/**
 * Options for {@linkcode PostgresEnforcerProvider.open}.
 *
 * @typeParam E The enforcer type `getEnforcer()` returns.
 *
 * @example
 * ```ts
 * import type { PostgresEnforcerProviderOptions } from "@portcullis/portcullis/guard/postgres";
 *
 * const options: PostgresEnforcerProviderOptions = {
 *   database: "postgres://app@127.0.0.1:5432/app",
 *   modelPath: "./model.conf",
 * };
 * ```
 */
export interface PostgresEnforcerProviderOptions<
  E extends Enforcer = Enforcer,
> extends EnforcerProviderOptions<E> {
  /**
   * The database: an open {@linkcode PolicyDatabase} (shared with writers
   * of this process, and left open on close), or its URL
   * (`postgres://...`, `pglite:memory`, `pglite:<dir>`), opened and
   * closed by the provider.
   */
  database: PolicyDatabase | string;
  /**
   * Options for the database when `database` is a URL.
   * @default {{}}
   */
  databaseOptions?: PolicyDatabaseOptions;
  /**
   * The casbin model text. Give this or `modelPath`.
   * @default {undefined}
   */
  model?: string;
  /**
   * Path of the casbin model (`.conf`) file, read once at open. Give this
   * or `model`.
   * @default {undefined}
   */
  modelPath?: string;
  /**
   * Called after each reload, once the new enforcer is live.
   * @default {undefined}
   */
  onReload?: (event: PolicyReloadEvent) => void;
  /**
   * Period of the revision check that catches notifications lost while a
   * connection was down, in milliseconds. 0 turns it off.
   * @default {2000}
   */
  pollIntervalMs?: number;
  /**
   * First pause before listening again after the connection was lost; it
   * doubles up to `reconnectMaxMs`.
   * @default {100}
   */
  reconnectMinMs?: number;
  /**
   * Longest pause between two attempts to listen again.
   * @default {5000}
   */
  reconnectMaxMs?: number;
}

/**
 * Serves a casbin enforcer built from the rules of a PostgreSQL table (the
 * `casbin_rule` table of casbin's adapters), and keeps every instance of
 * an application on the same policy: a trigger bumps a revision on every
 * change and announces it with NOTIFY; each provider LISTENs, reads the
 * rules and the revision in one transaction, builds the new enforcer off
 * the request path (in a worker thread for large policies) and swaps it in
 * whole. A poll of the revision catches notifications lost while a
 * connection was down; the listener reconnects with backoff.
 *
 * A database that is down never fails a request open and never turns a
 * loaded policy into errors: the last good enforcer stays live, `onError`
 * hears of the outage once, and the provider resynchronizes when the
 * database is back. A malformed row (unknown policy type, wrong number of
 * values, an effect other than allow or deny) is refused like a bad policy
 * line: reported, last good kept.
 *
 * @typeParam E The enforcer type `getEnforcer()` returns.
 *
 * @example Serving rules from PGlite
 * ```ts
 * import {
 *   PolicyDatabase,
 *   PostgresEnforcerProvider,
 * } from "@portcullis/portcullis/guard/postgres";
 * import assert from "node:assert/strict";
 *
 * await using database = await PolicyDatabase.open("pglite:memory");
 * await database.addRules([["p", "viewer", "post", "read"]]);
 * await using provider = await PostgresEnforcerProvider.open({
 *   database,
 *   model: `
 * [request_definition]
 * r = sub, obj, act
 * [policy_definition]
 * p = sub, obj, act
 * [policy_effect]
 * e = some(where (p.eft == allow))
 * [matchers]
 * m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
 * `,
 * });
 * const viewer = { role: "viewer" };
 * assert.equal(await (await provider.getEnforcer()).enforce(viewer, "post", "write"), false);
 *
 * await database.addRules([["p", "viewer", "post", "write"]]);
 * // The next request of this process sees its own write.
 * assert.equal(await (await provider.getEnforcer()).enforce(viewer, "post", "write"), true);
 * ```
 */
export class PostgresEnforcerProvider<E extends Enforcer = Enforcer>
  implements AsyncDisposable {
  readonly #options: PostgresEnforcerProviderOptions<E>;
  readonly #onError: (error: EnforcerLoadError) => void;
  readonly #sleeps = new Sleeps();
  #database: PolicyDatabase | undefined;
  #ownsDatabase = false;
  #loader: EnforcerLoader<E> | undefined;
  #source: RuleTableSource | undefined;
  /** Whether the change feed is down (its outage reported). */
  #feedDown = false;
  #reloader: Reloader<RuleTableSnapshot, E> | undefined;
  #unsubscribe: (() => void) | undefined;
  #changedWhileStarting = false;
  // A write of this process is waiting for its reload.
  #awaitingOwnWrite = false;
  #closed = false;

  private constructor(options: PostgresEnforcerProviderOptions<E>) {
    this.#options = options;
    this.#onError = options.onError ?? defaultOnError;
  }

  /**
   * Opens the database (when given a URL), reads the model, loads and
   * validates the rules, and starts listening for changes.
   *
   * @typeParam E The enforcer type `getEnforcer()` returns.
   * @param options The database, the model and hooks.
   * @returns The provider, serving the enforcer of the current revision.
   * @throws {EnforcerLoadError} If the model or a row is invalid, or the
   * rules cannot be read.
   * @throws {PolicyDatabaseError} If the database cannot be opened.
   *
   * @example
   * ```ts ignore
   * const provider = await PostgresEnforcerProvider.open({
   *   database: process.env.POLICY_DATABASE_URL!,
   *   modelPath: "./model.conf",
   * });
   * ```
   */
  static async open<E extends Enforcer = Enforcer>(
    options: PostgresEnforcerProviderOptions<E>,
  ): Promise<PostgresEnforcerProvider<E>> {
    const provider = new PostgresEnforcerProvider<E>(options);
    return await started(provider, () => provider.#start());
  }

  /**
   * The database the rules come from (for writes: `addRules()`,
   * `update()`...).
   *
   * @example
   * ```ts ignore
   * await provider.database.addRules([["p", "editor", "post", "write"]]);
   * ```
   */
  get database(): PolicyDatabase {
    return this.#database!;
  }

  /**
   * The policy revision of the live enforcer.
   *
   * @example
   * ```ts ignore
   * console.log(`serving policy revision ${provider.revision}`);
   * ```
   */
  get revision(): number {
    return this.#reloader?.loaded.revision ?? 0;
  }

  /**
   * Returns the enforcer for the current request: the live one, or, when
   * a change was announced (or written by this process) and its reload has
   * not ended, a promise of the enforcer once it has.
   *
   * @returns The live enforcer, or a promise of it.
   * @throws {Error} If the provider was closed.
   *
   * @example
   * ```ts ignore
   * const enforcer = await provider.getEnforcer();
   * ```
   */
  getEnforcer(): E | Promise<E> {
    if (this.#closed) {
      throw new Error("Cannot get enforcer: the provider is closed");
    }
    const reloader = this.#reloader!;
    const stale = this.#options.staleWhileReload ??
      reloader.loadedIn === "worker";
    if (stale && !this.#awaitingOwnWrite) return reloader.current;
    return reloader.waitForCurrent();
  }

  /**
   * Stops listening and polling, waits for a reload in progress, and closes
   * the database if the provider opened it. Calling it again does nothing.
   *
   * @returns A promise that settles once everything stopped.
   *
   * @example
   * ```ts ignore
   * await provider.close();
   * ```
   */
  async close(): Promise<void> {
    if (this.#closed) return await this.#reloader?.done;
    this.#closed = true;
    this.#sleeps.wakeAll();
    this.#unsubscribe?.();
    this.#source?.stop();
    this.#loader?.close();
    await this.#reloader?.done;
    await this.#source?.close();
    this.#reloader?.releaseAll();
    if (this.#ownsDatabase) await this.#database?.close();
  }

  /**
   * Same as {@linkcode PostgresEnforcerProvider.close}, for `await using`.
   *
   * @returns A promise that settles once everything stopped.
   *
   * @example
   * ```ts ignore
   * await using provider = await PostgresEnforcerProvider.open({ database, model });
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #start(): Promise<void> {
    const options = this.#options;
    const pollIntervalMs = nonNegative(
      "pollIntervalMs",
      options.pollIntervalMs ?? 2000,
    );
    const reconnectMinMs = nonNegative(
      "reconnectMinMs",
      options.reconnectMinMs ?? 100,
    );
    const reconnectMaxMs = Math.max(
      reconnectMinMs,
      nonNegative("reconnectMaxMs", options.reconnectMaxMs ?? 5000),
    );
    const settings = loaderSettingsOf(options);
    const { text: modelText, path: modelPath } = await modelOf(options);
    const model = parseModel(modelText, modelPath);
    if (typeof options.database === "string") {
      this.#database = await PolicyDatabase.open(
        options.database,
        options.databaseOptions,
      );
      this.#ownsDatabase = true;
    } else if (options.database instanceof PolicyDatabase) {
      this.#database = options.database;
    } else {
      throw new TypeError(
        "Cannot open enforcer provider: database must be a PolicyDatabase or a URL",
      );
    }
    const { client, schema, columns, onCommit } = internalsOf(this.#database);
    const isClosed = (): boolean => this.#closed;
    const sleep = (ms: number): Promise<void> => this.#sleeps.sleep(ms);
    this.#loader = new EnforcerLoader<E>({
      ...settings,
      modelPath,
      policyPath: schema.table,
      isClosed,
    });
    const source = this.#source = new RuleTableSource({
      client,
      schema,
      columns,
      model,
      onChange: () => this.#changed(),
      // One outage is one report, whether the change feed or a read meets
      // it first: the feed's report goes through the reloader's memory of
      // reported failures, and reads that fail while the feed is down are
      // part of the outage already reported.
      onError: (error) => {
        this.#feedDown = true;
        if (this.#reloader?.claimFailure(error) ?? true) this.#report(error);
      },
      onRecovered: () => {
        this.#feedDown = false;
        this.#reloader?.clearFailure(OUTAGE_KEY);
      },
      isClosed,
      sleep,
      pollIntervalMs,
      reconnectMinMs,
      reconnectMaxMs,
    });
    const ownWrite = (revision: number): void => {
      if (this.#closed) return;
      if (this.#reloader === undefined) {
        this.#changedWhileStarting = this.#awaitingOwnWrite = true;
      } else if (source.written(revision)) this.#awaitingOwnWrite = true;
    };
    onCommit.add(ownWrite);
    this.#unsubscribe = () => onCommit.delete(ownWrite);
    // Listen before the first read, so that no change after it is missed.
    await source.start();
    const modelBytes = new TextEncoder().encode(modelText);
    const build = (snapshot: RuleTableSnapshot): Promise<Built<E>> =>
      this.#build(modelBytes, snapshot);
    const snapshot = await source.read();
    const built = await build(snapshot);
    this.#reloader = new Reloader<RuleTableSnapshot, E>(
      {
        source,
        build,
        debounceMs: 0,
        onSwap: (event) => this.#swapped(event),
        onError: (error) => {
          if (error.code === "READ_FAILED" && this.#feedDown) return;
          this.#report(error);
        },
        isClosed,
        sleep,
        onIdle: () => {
          if (!this.#reloader?.pending) this.#awaitingOwnWrite = false;
        },
      },
      snapshot,
      built,
    );
    if (this.#changedWhileStarting) this.#reloader.changed();
  }

  async #build(
    modelBytes: Uint8Array,
    snapshot: RuleTableSnapshot,
  ): Promise<Built<E>> {
    try {
      return await this.#loader!.load(modelBytes, snapshot.bytes);
    } catch (error) {
      // Point a refused line at its row.
      if (error instanceof EnforcerLoadError && error.line !== undefined) {
        const id = snapshot.ids[error.line - 1];
        throw new EnforcerLoadError(
          error.code,
          error.message.replace(/\bline \d+/, `row id ${id}`),
          { path: error.path, line: id, cause: error },
        );
      }
      throw error;
    }
  }

  #changed(): void {
    if (this.#closed) return;
    if (this.#reloader === undefined) this.#changedWhileStarting = true;
    else this.#reloader.changed();
  }

  #swapped(event: SwapEvent<RuleTableSnapshot>): void {
    this.#options.onReload?.({
      revision: event.snapshot.revision,
      previousRevision: event.previous.revision,
      rules: event.rules,
      durationMs: event.durationMs,
      loadedIn: event.loadedIn,
    });
  }

  #report(error: EnforcerLoadError): void {
    try {
      this.#onError(error);
    } catch {
      // A failing hook must not stop the provider.
    }
  }
}
