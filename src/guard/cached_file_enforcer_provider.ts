import { resolve } from "node:path";
import type { Enforcer } from "./enforcer.ts";
import type { EnforcerProviderOptions } from "./enforcer_provider_options.ts";
import type { EnforcerLoadError } from "./_policy/error.ts";
import { EnforcerLoader } from "./_reload/enforcer_loader.ts";
import {
  PolicyFiles,
  type PolicyFilesSnapshot,
  sameBytes,
} from "./_reload/policy_files.ts";
import { policyRevision } from "./_policy/revision.ts";
import {
  defaultOnError,
  loaderSettingsOf,
  nonNegative,
} from "./_reload/provider_options.ts";
import { type Built, Reloader, type SwapEvent } from "./_reload/reloader.ts";
import { Sleeps } from "./_reload/sleeps.ts";
import { started } from "./_reload/started.ts";

export {
  EnforcerLoadError,
  type EnforcerLoadErrorCode,
  type EnforcerLoadErrorOptions,
} from "./_policy/error.ts";

/**
 * What the `onReload` hook of {@linkcode CachedFileEnforcerProvider}
 * receives after a new enforcer was swapped in.
 *
 * @example
 * ```ts
 * import type { EnforcerReloadEvent } from "@portcullis/portcullis/guard";
 *
 * const onReload = (event: EnforcerReloadEvent): void => {
 *   console.log(`policy reloaded: ${event.rules} rules in ${event.durationMs} ms`);
 * };
 * ```
 */
export interface EnforcerReloadEvent {
  /** Which files changed since the previous enforcer. */
  readonly changed: readonly ("model" | "policy")[];
  /** How many policy rules (`p` and `g` lines) the new enforcer holds. */
  readonly rules: number;
  /** Time from the start of the read to the swap, in milliseconds. */
  readonly durationMs: number;
  /**
   * Where the policy was parsed, validated and indexed: in the worker
   * thread, or on the event loop (see `loadIn`).
   */
  readonly loadedIn: "worker" | "main";
  /** The new policy's revision (see `CachedFileEnforcerProvider.revision`). */
  readonly revision: string;
}

/**
 * Options for {@linkcode CachedFileEnforcerProvider.open}.
 *
 * @typeParam E The enforcer type `getEnforcer()` returns: a casbin
 * `Enforcer`, or what `prepare` turns it into.
 *
 * @example
 * ```ts
 * import type { CachedFileEnforcerProviderOptions } from "@portcullis/portcullis/guard";
 *
 * const options: CachedFileEnforcerProviderOptions = {
 *   modelPath: "./model.conf",
 *   policyPath: "./policy.csv",
 *   onError: (error) => console.warn(`policy not reloaded: ${error.message}`),
 * };
 * ```
 */
export interface CachedFileEnforcerProviderOptions<
  E extends Enforcer = Enforcer,
> extends EnforcerProviderOptions<E> {
  /** Path of the casbin model (`.conf`) file. */
  modelPath: string;
  /** Path of the casbin policy (`.csv`) file. */
  policyPath: string;
  /**
   * Called after each successful reload, once the new enforcer is live.
   * @default {undefined}
   */
  onReload?: (event: EnforcerReloadEvent) => void;
  /**
   * While requests wait for reloads (see `staleWhileReload`), check both
   * files on every `getEnforcer()` call: one `fstat` of each through the
   * handle of the last read (about a microsecond), which sees an edit in
   * place, a rename over the file and a delete. A file system event can
   * arrive after a request sent right after an edit; with this check, a
   * request that starts after an edit completed is decided by the edited
   * policy. Set it to false to rely on the watcher and the periodic check
   * alone (edits then apply within milliseconds instead of from the next
   * request).
   * @default {true}
   */
  checkOnRequest?: boolean;
  /**
   * Watch the directories of both files for changes (`fs.watch`).
   * @default {true}
   */
  watch?: boolean;
  /**
   * Period of the fallback check, in milliseconds: a `stat` of both files,
   * plus a content comparison while a file's modification time is too
   * recent to be trusted. It catches what a watcher can miss (network file
   * systems, symlink swaps, a watcher error). 0 turns it off.
   * @default {1000}
   */
  pollIntervalMs?: number;
  /**
   * Quiet time after a change event before the files are read, so that the
   * several events of one write are handled by one reload.
   * @default {10}
   */
  debounceMs?: number;
}

/**
 * Serves a casbin enforcer built from a model file and a policy file, and
 * rebuilds it when either file changes, without a restart and without a
 * file read per request.
 *
 * - Change detection: `fs.watch` on both files' directories (in-place
 *   writes, atomic renames, delete then recreate), plus a throttled
 *   `stat` check that compares content while a file's timestamp is too
 *   recent to be trusted (same-size edits within one timestamp tick), plus,
 *   while requests wait for reloads, an `fstat` of both files per request
 *   (about a microsecond) so that an edit is seen by the next request even
 *   before its event arrives.
 * - Freshness: for a policy loaded on the event loop, a request that
 *   arrives after a change was detected waits for that reload, so it sees
 *   the new policy; for a large policy, loaded in a worker thread, requests
 *   keep the last good enforcer until the new one is ready (see
 *   `staleWhileReload` and `loadIn`).
 * - Safety: a reload builds a new enforcer (casbin's `loadPolicy()` on a
 *   live enforcer empties it first) and validates it (model syntax, the
 *   field count of every policy line, quotes, decisions on requests built
 *   from the rules) before swapping the reference, and never swaps in a
 *   build whose inputs a newer change replaced. A reload that fails keeps the
 *   last good enforcer and is reported once to `onError`. Requests in
 *   flight finish on the enforcer they started with. One reload at a time;
 *   large policies are parsed and indexed in a worker thread (or, where
 *   there is none, in slices of a few milliseconds) so requests keep
 *   flowing meanwhile.
 *
 * Close it (`await using`, `close()`) to stop its watchers and timers.
 *
 * @typeParam E The enforcer type `getEnforcer()` returns.
 *
 * @example Serving and reloading a policy
 * ```ts
 * import { CachedFileEnforcerProvider } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 * import { mkdtemp, rm, writeFile } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const dir = await mkdtemp(join(tmpdir(), "portcullis-"));
 * const modelPath = join(dir, "model.conf");
 * const policyPath = join(dir, "policy.csv");
 * await writeFile(modelPath, `
 * [request_definition]
 * r = sub, obj, act
 * [policy_definition]
 * p = sub, obj, act
 * [policy_effect]
 * e = some(where (p.eft == allow))
 * [matchers]
 * m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
 * `);
 * await writeFile(policyPath, "p, viewer, post, read\n");
 *
 * {
 *   const reloaded = Promise.withResolvers<void>();
 *   await using provider = await CachedFileEnforcerProvider.open({
 *     modelPath,
 *     policyPath,
 *     onReload: () => reloaded.resolve(),
 *   });
 *   const viewer = { role: "viewer" };
 *   let enforcer = await provider.getEnforcer();
 *   assert.equal(await enforcer.enforce(viewer, "post", "write"), false);
 *
 *   await writeFile(policyPath, "p, viewer, post, read\np, viewer, post, write\n");
 *   await reloaded.promise;
 *   enforcer = await provider.getEnforcer();
 *   assert.equal(await enforcer.enforce(viewer, "post", "write"), true);
 * }
 * await rm(dir, { recursive: true });
 * ```
 */
export class CachedFileEnforcerProvider<E extends Enforcer = Enforcer>
  implements AsyncDisposable {
  readonly #modelPath: string;
  readonly #policyPath: string;
  readonly #onReload: ((event: EnforcerReloadEvent) => void) | undefined;
  readonly #onError: (error: EnforcerLoadError) => void;
  readonly #staleWhileReload: boolean | undefined;
  readonly #checkOnRequest: boolean;
  readonly #watch: boolean;
  readonly #pollIntervalMs: number;
  readonly #debounceMs: number;
  readonly #sleeps = new Sleeps();
  readonly #loader: EnforcerLoader<E>;
  readonly #files: PolicyFiles;
  #reloader: Reloader<PolicyFilesSnapshot, E> | undefined;
  // The revision of each enforcer built, read for the live one.
  readonly #revisions = new WeakMap<E, string>();
  // A change signalled before the first enforcer was built.
  #changedWhileStarting = false;
  #closed = false;

  /**
   * Use {@linkcode CachedFileEnforcerProvider.open}, which loads and
   * validates both files before it resolves.
   *
   * @param options The files and hooks.
   */
  private constructor(options: CachedFileEnforcerProviderOptions<E>) {
    this.#modelPath = resolve(options.modelPath);
    this.#policyPath = resolve(options.policyPath);
    const settings = loaderSettingsOf(options);
    this.#onReload = options.onReload;
    this.#onError = options.onError ?? defaultOnError;
    this.#staleWhileReload = options.staleWhileReload;
    this.#checkOnRequest = options.checkOnRequest ?? true;
    this.#watch = options.watch ?? true;
    this.#pollIntervalMs = nonNegative(
      "pollIntervalMs",
      options.pollIntervalMs ?? 1000,
    );
    this.#debounceMs = nonNegative("debounceMs", options.debounceMs ?? 10);
    const isClosed = (): boolean => this.#closed;
    const sleep = (ms: number): Promise<void> => this.#sleeps.sleep(ms);
    this.#loader = new EnforcerLoader<E>({
      ...settings,
      modelPath: this.#modelPath,
      policyPath: this.#policyPath,
      isClosed,
    });
    this.#files = new PolicyFiles({
      modelPath: this.#modelPath,
      policyPath: this.#policyPath,
      retryMs: this.#debounceMs,
      onChange: () => this.#changed(),
      isReloading: () => this.#reloader?.running ?? true,
      isClosed,
      sleep,
    });
  }

  /**
   * Loads and validates the model and the policy, then starts watching
   * both files.
   *
   * @typeParam E The enforcer type `getEnforcer()` returns.
   * @param options The files and hooks.
   * @returns The provider, serving the enforcer built from the files.
   * @throws {EnforcerLoadError} If a file is missing, unreadable or
   * invalid, or `prepare` fails.
   *
   * @example A missing file is a clear error
   * ```ts
   * import {
   *   CachedFileEnforcerProvider,
   *   EnforcerLoadError,
   * } from "@portcullis/portcullis/guard";
   * import assert from "node:assert/strict";
   *
   * await assert.rejects(
   *   CachedFileEnforcerProvider.open({
   *     modelPath: "/nonexistent/model.conf",
   *     policyPath: "/nonexistent/policy.csv",
   *   }),
   *   (error) =>
   *     error instanceof EnforcerLoadError && error.code === "NOT_FOUND",
   * );
   * ```
   */
  static async open<E extends Enforcer = Enforcer>(
    options: CachedFileEnforcerProviderOptions<E>,
  ): Promise<CachedFileEnforcerProvider<E>> {
    const provider = new CachedFileEnforcerProvider<E>(options);
    return await started(provider, () => provider.#start());
  }

  /**
   * Returns the enforcer for the current request. When a change to either
   * file was detected and not yet handled, the returned promise settles
   * once the reload finished (with the new enforcer, or with the last good
   * one if the new files are invalid); otherwise the cached enforcer is
   * returned at once. With `checkOnRequest` (the default) and requests
   * that wait for reloads, it first checks both files' metadata (an fstat
   * of each), so an edit that completed before the request is seen even
   * when its file system event has not arrived yet.
   *
   * @returns The live enforcer, or a promise of it.
   * @throws {Error} If the provider was closed.
   *
   * @example
   * ```ts ignore
   * const enforcer = await provider.getEnforcer();
   * const allowed = await enforcer.enforce({ role: "viewer" }, "post", "read");
   * ```
   */
  getEnforcer(): E | Promise<E> {
    if (this.#closed) {
      throw new Error("Cannot get enforcer: the provider is closed");
    }
    const reloader = this.#reloader!;
    if (this.#staleWhileReload ?? reloader.loadedIn === "worker") {
      return reloader.current;
    }
    if (this.#checkOnRequest) this.#files.detectForRequest();
    return reloader.waitForCurrent();
  }

  /**
   * The revision of the live policy: the SHA-256 (64 hex digits) of the
   * model file's SHA-256 followed by the policy file's, so it changes with
   * every edit that is swapped in and names the same files the same way in
   * every process. A decision log (`PermissionGuard`'s `onDecision`)
   * reports it with every decision.
   *
   * @returns The live policy's revision.
   *
   * @example
   * ```ts ignore
   * console.log(`serving policy ${provider.revision.slice(0, 12)}`);
   * ```
   */
  get revision(): string {
    const reloader = this.#reloader;
    return reloader === undefined
      ? ""
      : this.#revisions.get(reloader.current) ?? "";
  }

  /**
   * Stops the watchers and timers and waits for a reload in progress to
   * stop. `getEnforcer()` throws afterwards; enforcers already handed out
   * keep working. Calling it again does nothing.
   *
   * @returns A promise that settles once everything stopped.
   *
   * @example
   * ```ts ignore
   * const provider = await CachedFileEnforcerProvider.open({ modelPath, policyPath });
   * Deno.addSignalListener("SIGTERM", () => provider.close());
   * ```
   */
  async close(): Promise<void> {
    if (this.#closed) return await this.#reloader?.done;
    this.#closed = true;
    // End the sleeps, so that a reload waiting in one sees the provider is
    // closed.
    this.#sleeps.wakeAll();
    this.#loader.close();
    await this.#reloader?.done;
    await this.#files.close();
    this.#reloader?.releaseAll();
  }

  /**
   * Same as {@linkcode CachedFileEnforcerProvider.close}, for `await using`.
   *
   * @returns A promise that settles once everything stopped.
   *
   * @example
   * ```ts ignore
   * await using provider = await CachedFileEnforcerProvider.open({ modelPath, policyPath });
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #start(): Promise<void> {
    // Watch first, so that no change between the read and the watch is lost.
    if (this.#watch) this.#files.startWatching();
    const snapshot = await this.#files.read();
    const built = await this.#build(snapshot);
    this.#reloader = new Reloader<PolicyFilesSnapshot, E>(
      {
        source: this.#files,
        build: (next) => this.#build(next),
        debounceMs: this.#debounceMs,
        onSwap: (event) => this.#swapped(event),
        onError: (error) => this.#onError(error),
        isClosed: () => this.#closed,
        sleep: (ms) => this.#sleeps.sleep(ms),
        onIdle: () => this.#files.pollIfSkipped(),
      },
      snapshot,
      built,
    );
    if (this.#pollIntervalMs > 0) {
      this.#files.startPolling(this.#pollIntervalMs);
    }
    // Changes seen while starting were covered by the read above only if
    // they happened before it; check once more.
    if (this.#changedWhileStarting) this.#reloader.changed();
  }

  async #build(snapshot: PolicyFilesSnapshot): Promise<Built<E>> {
    const { model, policy } = snapshot;
    const [built, revision] = await Promise.all([
      this.#loader.load(model.bytes, policy.bytes),
      policyRevision(model.bytes, policy.bytes),
    ]);
    this.#revisions.set(built.enforcer, revision);
    return built;
  }

  #changed(): void {
    if (this.#closed) return;
    if (this.#reloader === undefined) this.#changedWhileStarting = true;
    else this.#reloader.changed();
  }

  #swapped(event: SwapEvent<PolicyFilesSnapshot>): void {
    const changed: ("model" | "policy")[] = [];
    if (!sameBytes(event.snapshot.model.bytes, event.previous.model.bytes)) {
      changed.push("model");
    }
    if (!sameBytes(event.snapshot.policy.bytes, event.previous.policy.bytes)) {
      changed.push("policy");
    }
    this.#onReload?.({
      changed,
      rules: event.rules,
      durationMs: event.durationMs,
      loadedIn: event.loadedIn,
      revision: this.revision,
    });
  }
}
