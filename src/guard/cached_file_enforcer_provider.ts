import type { Enforcer as CasbinEnforcer, MatchingFunction } from "casbin";
import { type FSWatcher, watch } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { Buffer } from "node:buffer";
import { basename, dirname, resolve } from "node:path";
import type { Enforcer } from "./enforcer.ts";
import { type IndexableEnforcer, indexEnforcer } from "./indexed_enforcer.ts";
import {
  BuildCancelledError,
  buildEnforcer,
  decodeFile,
  probeModel,
} from "./_policy_build.ts";
import { EnforcerLoadError } from "./_policy_error.ts";
import { CompiledEnforcer } from "./_compiled_enforcer.ts";
import { loadErrorFrom, sampleOf } from "./_policy_compile.ts";
import { PolicyWorker } from "./_policy_worker_client.ts";

export {
  EnforcerLoadError,
  type EnforcerLoadErrorCode,
  type EnforcerLoadErrorOptions,
} from "./_policy_error.ts";

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
> {
  /** Path of the casbin model (`.conf`) file. */
  modelPath: string;
  /** Path of the casbin policy (`.csv`) file. */
  policyPath: string;
  /**
   * Called with every new casbin enforcer after it was built and validated,
   * and before it is swapped in; returns the enforcer `getEnforcer()` will
   * hand out, for example `indexEnforcer`'s fast decision path over the
   * casbin one. The argument is a casbin `Enforcer` (typed by what
   * `indexEnforcer` reads; cast it to casbin's `Enforcer` for its full API).
   * A throw or rejection fails the load like an invalid file does.
   * @default {indexEnforcer} (casbin decides what the index cannot; pass
   * `(enforcer) => enforcer` to serve casbin's enforcer itself)
   */
  prepare?: (enforcer: IndexableEnforcer) => E | Promise<E>;
  /**
   * Called after each successful reload, once the new enforcer is live.
   * @default {undefined}
   */
  onReload?: (event: EnforcerReloadEvent) => void;
  /**
   * Called once for each failed reload (the last good enforcer stays live).
   * The same broken file content is reported once, not once per request or
   * per check.
   * @default {logs the error message with console.error}
   */
  onError?: (error: EnforcerLoadError) => void;
  /**
   * Request values of the probe decision every new enforcer must survive
   * without throwing. By default one value per request token of the model:
   * an object holding the attributes the matcher reads (`r.sub.role` gives
   * `{ role: "" }`), or `""`.
   * @default {derived from the model}
   */
  probe?: readonly unknown[];
  /**
   * Custom functions the matcher calls, added to every new enforcer before
   * it is validated. A matcher that calls a function that is neither a
   * casbin built-in, a role definition (`g`) nor listed here is rejected.
   * @default {{}}
   */
  functions?: Readonly<
    Record<
      string,
      // deno-lint-ignore no-explicit-any
      (...args: any[]) => boolean | number | string | Promise<unknown>
    >
  >;
  /**
   * Accept a policy file with no rules. Off by default, because a truncated
   * file read mid-write also has no rules, and with a deny-only effect an
   * empty policy allows everything.
   * @default {false}
   */
  allowEmptyPolicy?: boolean;
  /**
   * When false, a request that arrives after a change was detected waits
   * for that reload to finish (or fail), so it is decided by the new policy.
   * When true, requests keep getting the last good enforcer until the new
   * one is swapped in: no request ever waits for a reload, at the price of a
   * window (the reload time) in which an edit is not yet in force.
   * By default it is false while the live policy was loaded on the event
   * loop (a small policy: a reload takes milliseconds, and waiting for it
   * guarantees the next request sees an edit) and true while it was loaded
   * in the worker (a large policy: a reload takes tenths of a second, which
   * requests should not wait for).
   * @default {true for a policy loaded in the worker, else false}
   */
  staleWhileReload?: boolean;
  /**
   * Where a new policy is parsed, validated and indexed when `prepare` is
   * not set: `"worker"` in a worker thread (the event loop only swaps the
   * result in, and casbin's own enforcer is built the first time a request
   * needs it, which most never do: see the README), `"main"` on the event
   * loop in slices of a few milliseconds, `"auto"` in the worker for
   * policies of 128 KiB or more. When the worker cannot start (a Deno
   * process without read access to this library's files, a runtime without
   * workers), or casbin must decide the model, the load happens on the
   * event loop. A custom `prepare` always runs on the event loop.
   * @default {"auto"}
   */
  loadIn?: "auto" | "worker" | "main";
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

interface FileSnapshot {
  /** `stat` signature, or "missing" / "error". */
  signature: string;
  /**
   * Content, or undefined when the read failed. Kept as bytes: decoding a
   * large policy is left to whoever parses it (the worker, or the event
   * loop in slices), and bytes compare without decoding.
   */
  bytes: Uint8Array | undefined;
}

/** Whether two file contents are the same bytes. */
function sameBytes(
  a: Uint8Array | undefined,
  b: Uint8Array | undefined,
): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.byteLength === b.byteLength &&
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

interface Waiter<E> {
  count: number;
  resolve: (enforcer: E) => void;
}

// Policies of at least this many bytes load in the worker when
// `loadIn` is "auto".
const WORKER_THRESHOLD = 128 * 1024;

const MISSING = "missing";
const UNREADABLE = "unreadable";
// A file modified less than this long ago may change again without its
// stat signature changing (coarse timestamps): compare its content.
const RACY_WINDOW_MS = 3000;
const STABLE_READ_ATTEMPTS = 5;
// Failed attempts in a row that may be retried silently because a newer
// change was signalled meanwhile, before the failure is reported anyway.
const MAX_DEFERRED_FAILURES = 3;

function signatureOf(
  info: {
    dev: bigint;
    ino: bigint;
    size: bigint;
    mtimeNs: bigint;
    ctimeNs: bigint;
  },
): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Pending sleeps: their timer, and how to end them early on close. */
type Timers = Map<ReturnType<typeof setTimeout>, () => void>;

function sleep(ms: number, timers: Timers): Promise<void> {
  return new Promise<void>((resolve) => {
    const id = setTimeout(() => {
      timers.delete(id);
      resolve();
    }, ms);
    timers.set(id, resolve);
  });
}

/**
 * Reads a file so that the content matches one version of it: the stat
 * signature is taken before and after the read and must agree, and the
 * byte count must equal the size.
 */
async function readStable(
  path: string,
  kind: "model" | "policy",
  timers: Timers,
  retryMs: number,
): Promise<{ signature: string; bytes: Uint8Array }> {
  for (let attempt = 1;; attempt++) {
    let before: string;
    let bytes: Uint8Array;
    let after: string;
    try {
      before = signatureOf(await stat(path, { bigint: true }));
      bytes = await readFile(path);
      const info = await stat(path, { bigint: true });
      after = signatureOf(info);
      if (before === after && BigInt(bytes.byteLength) !== info.size) {
        after = "";
      }
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT" || code === "ENOTDIR") {
        throw new EnforcerLoadError(
          "NOT_FOUND",
          `Cannot load ${kind}: "${path}" does not exist`,
          { path, cause: error },
        );
      }
      throw new EnforcerLoadError(
        "READ_FAILED",
        `Cannot load ${kind}: "${path}" could not be read (${message(error)})`,
        { path, cause: error },
      );
    }
    if (before === after) return { signature: after, bytes };
    if (attempt >= STABLE_READ_ATTEMPTS) {
      throw new EnforcerLoadError(
        "READ_FAILED",
        `Cannot load ${kind}: "${path}" kept changing while it was read`,
        { path },
      );
    }
    await sleep(retryMs, timers);
  }
}

function defaultOnError(error: EnforcerLoadError): void {
  // deno-lint-ignore no-console
  console.error(`portcullis: ${error.message}; keeping the last good policy`);
}

/**
 * Serves a casbin enforcer built from a model file and a policy file, and
 * rebuilds it when either file changes, without a restart and without a
 * file read per request.
 *
 * - Change detection: `fs.watch` on both files' directories (in-place
 *   writes, atomic renames, delete then recreate), plus a throttled
 *   `stat` check that compares content while a file's timestamp is too
 *   recent to be trusted (same-size edits within one timestamp tick). A
 *   request costs two integer comparisons when nothing changed.
 * - Freshness: for a policy loaded on the event loop, a request that
 *   arrives after a change was detected waits for that reload, so it sees
 *   the new policy; for a large policy, loaded in a worker thread, requests
 *   keep the last good enforcer until the new one is ready (see
 *   `staleWhileReload` and `loadIn`).
 * - Safety: a reload builds a new enforcer (casbin's `loadPolicy()` on a
 *   live enforcer empties it first) and validates it (model syntax, the
 *   field count of every policy line, quotes, a probe decision against the
 *   matcher) before swapping the reference. A reload that fails keeps the
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
  #modelPath: string;
  #policyPath: string;
  #prepare: (enforcer: CasbinEnforcer) => E | Promise<E>;
  #defaultPrepare: boolean;
  #loadIn: "auto" | "worker" | "main";
  #worker: Promise<PolicyWorker> | undefined;
  #workerUnavailable = false;
  // A model text the worker found casbin must decide: loaded on the event
  // loop from then on.
  #mainThreadModel: string | undefined;
  #onReload: ((event: EnforcerReloadEvent) => void) | undefined;
  #onError: (error: EnforcerLoadError) => void;
  #probe: readonly unknown[] | undefined;
  #functions: NonNullable<CachedFileEnforcerProviderOptions["functions"]>;
  #allowEmptyPolicy: boolean;
  #staleWhileReload: boolean | undefined;
  // Where the live enforcer was loaded.
  #loadedIn: "worker" | "main" = "main";
  #watch: boolean;
  #pollIntervalMs: number;
  #debounceMs: number;

  #current!: E;
  #closed = false;
  // Change events seen / change events a finished reload has covered.
  #changeCount = 0;
  #handledCount = 0;
  #waiters: Waiter<E>[] = [];
  #reloading = false;
  #reloadDone: Promise<void> = Promise.resolve();
  #timers: Timers = new Map();
  #watchers: FSWatcher[] = [];
  #watchersBroken = false;
  #pollTimer: ReturnType<typeof setInterval> | undefined;
  #polling = false;
  // A check was asked for while one (or a reload) was running.
  #pollAgain = false;
  #checks = new Set<Promise<void>>();
  // The files behind the live enforcer, and the last files read (a failed
  // attempt included, so that the same broken content is reported once).
  #loaded: { model: FileSnapshot; policy: FileSnapshot } = {
    model: { signature: MISSING, bytes: undefined },
    policy: { signature: MISSING, bytes: undefined },
  };
  #seen: { model: FileSnapshot; policy: FileSnapshot } = this.#loaded;

  /**
   * Use {@linkcode CachedFileEnforcerProvider.open}, which loads and
   * validates both files before it resolves.
   *
   * @param options The files and hooks.
   */
  private constructor(options: CachedFileEnforcerProviderOptions<E>) {
    this.#modelPath = resolve(options.modelPath);
    this.#policyPath = resolve(options.policyPath);
    this.#defaultPrepare = options.prepare === undefined;
    this.#loadIn = options.loadIn ?? "auto";
    if (!["auto", "worker", "main"].includes(this.#loadIn)) {
      throw new RangeError(
        `Cannot open enforcer provider: loadIn must be "auto", "worker" or "main", got ${
          String(this.#loadIn)
        }`,
      );
    }
    this.#prepare = options.prepare ??
      ((enforcer: CasbinEnforcer) =>
        indexEnforcer(enforcer) as unknown as E | Promise<E>);
    this.#onReload = options.onReload;
    this.#onError = options.onError ?? defaultOnError;
    this.#probe = options.probe;
    this.#functions = options.functions ?? {};
    this.#allowEmptyPolicy = options.allowEmptyPolicy ?? false;
    this.#staleWhileReload = options.staleWhileReload;
    this.#watch = options.watch ?? true;
    this.#pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.#debounceMs = options.debounceMs ?? 10;
    for (
      const [name, value] of [
        ["pollIntervalMs", this.#pollIntervalMs],
        ["debounceMs", this.#debounceMs],
      ] as const
    ) {
      if (!Number.isFinite(value) || value < 0) {
        throw new RangeError(
          `Cannot open enforcer provider: ${name} must be a finite number >= 0, got ${value}`,
        );
      }
    }
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
    try {
      await provider.#start();
    } catch (error) {
      await provider.close();
      throw error;
    }
    return provider;
  }

  /**
   * Returns the enforcer for the current request. When a change to either
   * file was detected and not yet handled, the returned promise settles
   * once the reload finished (with the new enforcer, or with the last good
   * one if the new files are invalid); otherwise the cached enforcer is
   * returned at once, with no I/O.
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
    if (
      this.#handledCount === this.#changeCount ||
      (this.#staleWhileReload ?? this.#loadedIn === "worker")
    ) {
      return this.#current;
    }
    return new Promise<E>((resolve) => {
      this.#waiters.push({ count: this.#changeCount, resolve });
    });
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
    if (this.#closed) return await this.#reloadDone;
    this.#closed = true;
    for (const watcher of this.#watchers) watcher.close();
    this.#watchers = [];
    if (this.#pollTimer !== undefined) clearInterval(this.#pollTimer);
    this.#pollTimer = undefined;
    // Stop the timers, and end the sleeps that wait on them so that the
    // reload waiting in one can see the provider is closed.
    const sleeping = [...this.#timers];
    this.#timers.clear();
    for (const [id, wake] of sleeping) {
      clearTimeout(id);
      wake();
    }
    const worker = this.#worker;
    this.#worker = undefined;
    worker?.then((w) => w.terminate(), () => {});
    await this.#reloadDone;
    await Promise.all(this.#checks);
    this.#flushWaiters(true);
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
    if (this.#watch) this.#startWatchers();
    const model = await readStable(
      this.#modelPath,
      "model",
      this.#timers,
      this.#debounceMs,
    );
    const policy = await readStable(
      this.#policyPath,
      "policy",
      this.#timers,
      this.#debounceMs,
    );
    const { enforcer, loadedIn } = await this.#build(model.bytes, policy.bytes);
    this.#current = enforcer;
    this.#loadedIn = loadedIn;
    this.#loaded = { model, policy };
    this.#seen = this.#loaded;
    if (this.#pollIntervalMs > 0) {
      this.#pollTimer = setInterval(() => this.#poll(), this.#pollIntervalMs);
    }
    // Changes seen while starting were covered by the read above only if
    // they happened before it; check once more.
    if (this.#changeCount > 0) this.#changed();
  }

  async #build(
    modelBytes: Uint8Array,
    policyBytes: Uint8Array,
  ): Promise<{ enforcer: E; rules: number; loadedIn: "worker" | "main" }> {
    const isCancelled = () => this.#closed;
    const modelText = await decodeFile(modelBytes, "model", this.#modelPath, {
      isCancelled,
    });
    if (this.#usesWorker(modelText, policyBytes)) {
      const loaded = await this.#loadInWorker(modelText, policyBytes);
      if (loaded !== undefined) return loaded;
    }
    const policyText = await decodeFile(
      policyBytes,
      "policy",
      this.#policyPath,
      { isCancelled },
    );
    const built = await buildEnforcer(modelText, policyText, {
      modelPath: this.#modelPath,
      policyPath: this.#policyPath,
      allowEmptyPolicy: this.#allowEmptyPolicy,
      functions: this.#functions as Readonly<Record<string, MatchingFunction>>,
      isCancelled: () => this.#closed,
      ...(this.#probe === undefined ? {} : { probe: this.#probe }),
    });
    let enforcer: E;
    try {
      enforcer = await this.#prepare(built.enforcer);
    } catch (error) {
      throw new EnforcerLoadError(
        "PREPARE_FAILED",
        `Cannot load policy: the prepare hook failed (${message(error)})`,
        { path: this.#policyPath, cause: error },
      );
    }
    if (typeof enforcer?.enforce !== "function") {
      throw new EnforcerLoadError(
        "PREPARE_FAILED",
        "Cannot load policy: the prepare hook did not return an enforcer",
        { path: this.#policyPath },
      );
    }
    return { enforcer, rules: built.rules, loadedIn: "main" };
  }

  #usesWorker(modelText: string, policyBytes: Uint8Array): boolean {
    return this.#defaultPrepare && !this.#workerUnavailable &&
      this.#mainThreadModel !== modelText &&
      (this.#loadIn === "worker" ||
        (this.#loadIn === "auto" &&
          policyBytes.byteLength >= WORKER_THRESHOLD));
  }

  /**
   * Loads the files in the worker: the enforcer over the compiled index,
   * or undefined when the load must happen on the event loop instead.
   */
  async #loadInWorker(
    modelText: string,
    policyBytes: Uint8Array,
  ): Promise<
    { enforcer: E; rules: number; loadedIn: "worker" } | undefined
  > {
    const options = {
      modelPath: this.#modelPath,
      policyPath: this.#policyPath,
      allowEmptyPolicy: this.#allowEmptyPolicy,
      functions: this.#functions as Readonly<Record<string, MatchingFunction>>,
      ...(this.#probe === undefined ? {} : { probe: this.#probe }),
    };
    let result;
    try {
      const worker = this.#worker ??= PolicyWorker.start();
      result = await (await worker).compile({
        modelText,
        policyBytes,
        modelPath: this.#modelPath,
        policyPath: this.#policyPath,
        functionNames: Object.keys(this.#functions),
        allowEmptyPolicy: this.#allowEmptyPolicy,
      });
    } catch {
      if (this.#closed) throw new BuildCancelledError();
      // No worker here (or it died): load on the event loop from now on.
      this.#workerUnavailable = true;
      const worker = this.#worker;
      this.#worker = undefined;
      worker?.then((w) => w.terminate(), () => {});
      return undefined;
    }
    if (this.#closed) throw new BuildCancelledError();
    if (result.kind === "failed") throw loadErrorFrom(result.error);
    if (result.kind === "unsupported") {
      this.#mainThreadModel = modelText;
      return undefined;
    }
    // The probe runs here, where the custom functions are.
    await probeModel(modelText, sampleOf(result), options);
    const enforcer = new CompiledEnforcer(
      result.index,
      async () => {
        const policyText = await decodeFile(
          policyBytes,
          "policy",
          this.#policyPath,
        );
        return (await buildEnforcer(modelText, policyText, options)).enforcer;
      },
    );
    return {
      enforcer: enforcer as unknown as E,
      rules: result.rules,
      loadedIn: "worker",
    };
  }

  #startWatchers(): void {
    const names = new Map<string, Set<string>>();
    for (const path of [this.#modelPath, this.#policyPath]) {
      const dir = dirname(path);
      if (!names.has(dir)) names.set(dir, new Set());
      names.get(dir)!.add(basename(path));
    }
    this.#watchersBroken = false;
    for (const [dir, files] of names) {
      let watcher: FSWatcher;
      try {
        watcher = watch(dir, (_event, filename) => {
          if (this.#closed) return;
          const name = typeof filename === "string" ? filename : null;
          if (name === null || files.has(name)) this.#changed();
          // Another entry of the directory changed (a temporary file, a
          // symlinked data directory swapped): let the stat check decide.
          else this.#poll();
        });
      } catch {
        this.#watchersBroken = true;
        continue;
      }
      watcher.on("error", () => {
        watcher.close();
        this.#watchers = this.#watchers.filter((w) => w !== watcher);
        this.#watchersBroken = true;
      });
      this.#watchers.push(watcher);
    }
  }

  /** Records a change and makes sure a reload will handle it. */
  #changed(): void {
    if (this.#closed) return;
    this.#changeCount++;
    if (this.#reloading || this.#current === undefined) return;
    this.#reloading = true;
    this.#reloadDone = this.#reloadLoop();
  }

  async #reloadLoop(): Promise<void> {
    try {
      let deferred = 0;
      while (!this.#closed && this.#handledCount < this.#changeCount) {
        if (this.#debounceMs > 0) await sleep(this.#debounceMs, this.#timers);
        if (this.#closed) break;
        const count = this.#changeCount;
        const mayDefer = deferred < MAX_DEFERRED_FAILURES;
        if (await this.#reloadOnce(count, mayDefer)) {
          deferred = 0;
          this.#handledCount = count;
          this.#flushWaiters(false);
        } else deferred++;
      }
    } finally {
      this.#reloading = false;
      if (this.#pollAgain) this.#poll();
    }
  }

  /**
   * Reads both files and swaps in a new enforcer if they changed. Returns
   * false, without reporting, when the attempt failed while a newer change
   * was already signalled (a write still in progress): the next attempt
   * reads the newer version.
   */
  async #reloadOnce(count: number, mayDefer: boolean): Promise<boolean> {
    const started = performance.now();
    let model: FileSnapshot;
    let policy: FileSnapshot;
    try {
      model = await readStable(
        this.#modelPath,
        "model",
        this.#timers,
        this.#debounceMs,
      );
      policy = await readStable(
        this.#policyPath,
        "policy",
        this.#timers,
        this.#debounceMs,
      );
    } catch (error) {
      if (this.#closed) return true;
      if (mayDefer && this.#changeCount > count) return false;
      const failed = error as EnforcerLoadError;
      const signature = failed.code === "NOT_FOUND" ? MISSING : UNREADABLE;
      const snapshot = { signature, bytes: undefined };
      const isModel = failed.path === this.#modelPath;
      const repeated = (isModel ? this.#seen.model : this.#seen.policy)
        .signature === signature;
      this.#seen = isModel
        ? { model: snapshot, policy: this.#seen.policy }
        : { model: this.#seen.model, policy: snapshot };
      if (!repeated) this.#report(failed);
      return true;
    }
    // A change signalled while the files were read: what was read may be
    // a write in progress. Read again rather than spend a build on it.
    if (mayDefer && this.#changeCount > count) return false;
    const sameAsLoaded = sameBytes(model.bytes, this.#loaded.model.bytes) &&
      sameBytes(policy.bytes, this.#loaded.policy.bytes);
    const sameAsSeen = sameBytes(model.bytes, this.#seen.model.bytes) &&
      sameBytes(policy.bytes, this.#seen.policy.bytes);
    if (sameAsLoaded || sameAsSeen) {
      // Nothing new: only timestamps moved, or this content already failed.
      this.#seen = { model, policy };
      if (sameAsLoaded) this.#loaded = this.#seen;
      return true;
    }
    try {
      const { enforcer, rules, loadedIn } = await this.#build(
        model.bytes!,
        policy.bytes!,
      );
      if (this.#closed) return true;
      const changed: ("model" | "policy")[] = [];
      if (!sameBytes(model.bytes, this.#loaded.model.bytes)) {
        changed.push("model");
      }
      if (!sameBytes(policy.bytes, this.#loaded.policy.bytes)) {
        changed.push("policy");
      }
      this.#current = enforcer;
      this.#loadedIn = loadedIn;
      this.#seen = { model, policy };
      this.#loaded = this.#seen;
      this.#emitReload({
        changed,
        rules,
        durationMs: performance.now() - started,
        loadedIn,
      });
      return true;
    } catch (error) {
      if (error instanceof BuildCancelledError || this.#closed) return true;
      if (mayDefer && this.#changeCount > count) return false;
      this.#seen = { model, policy };
      this.#report(
        error instanceof EnforcerLoadError ? error : new EnforcerLoadError(
          "POLICY_INVALID",
          `Cannot load policy: ${message(error)}`,
          { path: this.#policyPath, cause: error },
        ),
      );
      return true;
    }
  }

  #report(error: EnforcerLoadError): void {
    try {
      this.#onError(error);
    } catch {
      // A failing hook must not stop the reloads.
    }
  }

  #emitReload(event: EnforcerReloadEvent): void {
    try {
      this.#onReload?.(event);
    } catch {
      // A failing hook must not stop the reloads.
    }
  }

  #flushWaiters(all: boolean): void {
    if (this.#waiters.length === 0) return;
    const keep: Waiter<E>[] = [];
    for (const waiter of this.#waiters) {
      if (all || waiter.count <= this.#handledCount) {
        waiter.resolve(this.#current);
      } else keep.push(waiter);
    }
    this.#waiters = keep;
  }

  /** Starts the fallback check; close() waits for it. */
  #poll(): void {
    if (this.#closed) return;
    const check = this.#check();
    this.#checks.add(check);
    void check.finally(() => this.#checks.delete(check));
  }

  /** The fallback check: stat both files, compare content if racy. */
  async #check(): Promise<void> {
    if (this.#polling || this.#reloading) {
      // The running check or reload may have read the files before this
      // change: check again once it is done.
      this.#pollAgain = true;
      return;
    }
    this.#pollAgain = false;
    this.#polling = true;
    try {
      if (this.#watch && this.#watchersBroken) {
        for (const watcher of this.#watchers) watcher.close();
        this.#watchers = [];
        this.#startWatchers();
      }
      for (
        const [path, kind] of [[this.#modelPath, "model"], [
          this.#policyPath,
          "policy",
        ]] as const
      ) {
        const seen = this.#seen[kind];
        let signature: string;
        let modifiedMs = 0;
        try {
          const info = await stat(path, { bigint: true });
          signature = signatureOf(info);
          modifiedMs = Number(info.mtimeNs / 1_000_000n);
        } catch (error) {
          const code = errorCode(error);
          signature = code === "ENOENT" || code === "ENOTDIR"
            ? MISSING
            : UNREADABLE;
        }
        if (this.#closed) return;
        if (signature !== seen.signature) {
          this.#changed();
          return;
        }
        if (
          seen.bytes !== undefined && Date.now() - modifiedMs < RACY_WINDOW_MS
        ) {
          let bytes: Uint8Array | undefined;
          try {
            bytes = await readFile(path);
          } catch {
            bytes = undefined;
          }
          if (this.#closed) return;
          if (!sameBytes(bytes, seen.bytes)) {
            this.#changed();
            return;
          }
        }
      }
    } finally {
      this.#polling = false;
      if (this.#pollAgain) this.#poll();
    }
  }
}
