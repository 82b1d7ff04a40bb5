// The reload scheduler that enforcer providers share: it counts change
// signals, reloads one snapshot at a time off the request path, keeps the
// last good enforcer on any failure, and decides when requests may use it.
//
// Ordering rules, which make a provider fail closed under concurrent edits:
//
// - A reload round takes the change count before it reads. A round is
//   "handled" (requests waiting for that count are released) only when it
//   ends with no newer change signalled: a snapshot read before a change
//   may be a write in progress.
// - A build finished after a newer change was signalled is discarded,
//   never swapped in (its inputs are older than the newest change). The
//   source's `detect()` runs first, so a change whose event has not arrived
//   yet counts too. If the next read finds the same content, the discarded
//   build is swapped in then without building again.
// - A failure is reported once per distinct failure, and never while a
//   newer change may still repair it (up to a few rounds).
// - A source whose every snapshot is a committed state (a database read in
//   one transaction) sets `consistent`: its builds are swapped in even when
//   a newer change was signalled meanwhile (the next round follows), so a
//   stream of changes never starves the swap.
import { EnforcerLoadError } from "../_policy/error.ts";
import { BuildCancelledError } from "../_policy/build.ts";

/** An enforcer built from a snapshot. */
export interface Built<E> {
  readonly enforcer: E;
  /** How many rules it holds. */
  readonly rules: number;
  /** Where it was parsed, validated and indexed. */
  readonly loadedIn: "worker" | "main";
}

/** Where a provider's inputs come from. */
export interface ReloadSource<S> {
  /** Reads one consistent snapshot of the inputs; throws on failure. */
  read(): Promise<S>;
  /** Whether two snapshots hold the same content. */
  sameContent(a: S, b: S): boolean;
  /**
   * A key for a failed read, so the same failure is reported once (for a
   * file: its path and whether it is missing or unreadable).
   */
  failureKey(error: EnforcerLoadError): string;
  /**
   * Looks for changes not signalled yet (a file written a moment ago whose
   * event is still on its way) and signals them through `changed()`.
   */
  detect(): void | Promise<void>;
  /**
   * Whether every snapshot `read()` returns is a state the inputs really
   * had (never a write in progress): rounds then neither read again nor
   * discard a build when a newer change is signalled during them.
   */
  readonly consistent?: boolean;
}

/** What a reloader reports after each swap. */
export interface SwapEvent<S> {
  readonly snapshot: S;
  readonly previous: S;
  readonly rules: number;
  readonly loadedIn: "worker" | "main";
  readonly durationMs: number;
}

/** Options for {@linkcode Reloader}. */
export interface ReloaderOptions<S, E> {
  readonly source: ReloadSource<S>;
  /** Builds and validates an enforcer; throws `EnforcerLoadError`. */
  readonly build: (snapshot: S) => Promise<Built<E>>;
  /** Quiet time after a change signal before a round reads. */
  readonly debounceMs: number;
  readonly onSwap: (event: SwapEvent<S>) => void;
  readonly onError: (error: EnforcerLoadError) => void;
  /** Whether the provider is closed (stops rounds and builds). */
  readonly isClosed: () => boolean;
  /** Sleeps `ms`, ending early when the provider closes. */
  readonly sleep: (ms: number) => Promise<void>;
  /** Called when a run of rounds ends (no change left to handle). */
  readonly onIdle?: () => void;
}

// Failed rounds in a row that may be retried silently because a newer
// change was signalled meanwhile, before the failure is reported anyway.
const MAX_DEFERRED_FAILURES = 3;
// Builds discarded in a row (the inputs kept changing) after which the
// requests waiting for a reload are answered with the last good enforcer
// rather than made to wait for the writer to stop.
const MAX_DISCARDS_BEFORE_RELEASE = 8;

interface Waiter<E> {
  count: number;
  resolve: (enforcer: E) => void;
}

type Round = "handled" | "deferred" | "discarded";

/** Reloads a provider's enforcer from its source, one round at a time. */
export class Reloader<S, E> {
  readonly #options: ReloaderOptions<S, E>;
  #current: E;
  #loadedIn: "worker" | "main";
  // The snapshot behind the live enforcer, and the last one a round
  // settled on (a failed one included, so that it is not built again).
  #loaded: S;
  #seen: S;
  #lastFailure: string | undefined;
  // A build discarded because a change came in during it, kept in case the
  // next read finds the same content.
  #discarded: { snapshot: S; built: Built<E> } | undefined;
  #changeCount = 0;
  #handledCount = 0;
  #waiters: Waiter<E>[] = [];
  #running = false;
  #done: Promise<void> = Promise.resolve();

  constructor(options: ReloaderOptions<S, E>, initial: S, built: Built<E>) {
    this.#options = options;
    this.#current = built.enforcer;
    this.#loadedIn = built.loadedIn;
    this.#loaded = initial;
    this.#seen = initial;
  }

  /**
   * Records a failure found outside a read (a lost change feed). Returns
   * `false` when a failure of the same kind (`failureKey`) is already
   * reported and no read has succeeded since, so that one outage is one
   * report whichever part of the provider meets it first; `true` when the
   * caller should report it.
   */
  claimFailure(error: EnforcerLoadError): boolean {
    const key = this.#options.source.failureKey(error);
    if (key === this.#lastFailure) return false;
    this.#lastFailure = key;
    return true;
  }

  /**
   * Forgets a reported failure of kind `key` once it is over (the change
   * feed is back), so that the next one is reported again.
   */
  clearFailure(key: string): void {
    if (this.#lastFailure === key) this.#lastFailure = undefined;
  }

  /** The live enforcer. */
  get current(): E {
    return this.#current;
  }

  /**
   * The snapshot behind the live enforcer (or the newest one read with the
   * same content).
   */
  get loaded(): S {
    return this.#loaded;
  }

  /** Where the live enforcer was loaded. */
  get loadedIn(): "worker" | "main" {
    return this.#loadedIn;
  }

  /** Whether a signalled change has not been handled yet. */
  get pending(): boolean {
    return this.#handledCount !== this.#changeCount;
  }

  /** Whether a run of reload rounds is under way. */
  get running(): boolean {
    return this.#running;
  }

  /** Settles once the running reload (if any) stopped. */
  get done(): Promise<void> {
    return this.#done;
  }

  /** Records a change and makes sure a round will handle it. */
  changed(): void {
    if (this.#options.isClosed()) return;
    this.#changeCount++;
    if (this.#running) return;
    this.#running = true;
    this.#done = this.#loop();
  }

  /**
   * The enforcer for a request that arrives now: the live one, or, when a
   * change is pending, a promise of the enforcer once a round that read
   * after the change has ended.
   */
  waitForCurrent(): E | Promise<E> {
    if (this.#handledCount === this.#changeCount) return this.#current;
    return new Promise<E>((resolve) => {
      this.#waiters.push({ count: this.#changeCount, resolve });
    });
  }

  /** Answers every waiting request with the live enforcer (on close). */
  releaseAll(): void {
    this.#release(true);
  }

  async #loop(): Promise<void> {
    const { debounceMs, sleep, isClosed } = this.#options;
    try {
      let deferred = 0;
      let discarded = 0;
      while (!isClosed() && this.#handledCount < this.#changeCount) {
        if (debounceMs > 0) await sleep(debounceMs);
        if (isClosed()) break;
        const count = this.#changeCount;
        const round = await this.#round(
          count,
          deferred < MAX_DEFERRED_FAILURES,
        );
        if (round === "handled") {
          deferred = 0;
          discarded = 0;
          this.#handledCount = Math.max(this.#handledCount, count);
          this.#release(false);
        } else if (round === "deferred") {
          deferred++;
        } else if (++discarded % MAX_DISCARDS_BEFORE_RELEASE === 0) {
          this.#release(true);
        }
      }
    } finally {
      this.#running = false;
      this.#options.onIdle?.();
    }
  }

  /** One round: read, compare, build, check for newer changes, swap. */
  async #round(count: number, retryOnChange: boolean): Promise<Round> {
    const { source, isClosed } = this.#options;
    const mayDefer = retryOnChange && source.consistent !== true;
    const started = performance.now();
    let snapshot: S;
    try {
      snapshot = await source.read();
    } catch (error) {
      if (isClosed()) return "handled";
      if (mayDefer && this.#changeCount > count) return "deferred";
      const failure = asLoadError(error, "READ_FAILED");
      const key = source.failureKey(failure);
      if (key !== this.#lastFailure) {
        this.#lastFailure = key;
        this.#report(failure);
      }
      return "handled";
    }
    this.#lastFailure = undefined;
    // A change signalled while reading: what was read may be a write in
    // progress. Read again rather than spend a build on it.
    if (mayDefer && this.#changeCount > count) return "deferred";
    if (source.sameContent(snapshot, this.#loaded)) {
      // Nothing new (only timestamps moved), or back to the live content.
      this.#seen = this.#loaded = snapshot;
      this.#discarded = undefined;
      return "handled";
    }
    if (source.sameContent(snapshot, this.#seen)) {
      // This content already failed, or was just swapped: nothing to do.
      this.#seen = snapshot;
      return "handled";
    }
    let built: Built<E>;
    const kept = this.#discarded;
    this.#discarded = undefined;
    if (kept !== undefined && source.sameContent(snapshot, kept.snapshot)) {
      built = kept.built;
    } else {
      try {
        built = await this.#options.build(snapshot);
      } catch (error) {
        if (error instanceof BuildCancelledError || isClosed()) {
          return "handled";
        }
        if (mayDefer && this.#changeCount > count) return "deferred";
        this.#seen = snapshot;
        this.#report(asLoadError(error, "POLICY_INVALID"));
        return "handled";
      }
    }
    if (isClosed()) return "handled";
    // Never swap in a build whose inputs a newer change replaced: the
    // change events of a write still on their way are looked for first.
    await source.detect();
    if (isClosed()) return "handled";
    if (this.#changeCount > count && source.consistent !== true) {
      this.#discarded = { snapshot, built };
      return "discarded";
    }
    const previous = this.#loaded;
    this.#current = built.enforcer;
    this.#loadedIn = built.loadedIn;
    this.#seen = this.#loaded = snapshot;
    this.#emit({
      snapshot,
      previous,
      rules: built.rules,
      loadedIn: built.loadedIn,
      durationMs: performance.now() - started,
    });
    return "handled";
  }

  #release(all: boolean): void {
    if (this.#waiters.length === 0) return;
    const keep: Waiter<E>[] = [];
    for (const waiter of this.#waiters) {
      if (all || waiter.count <= this.#handledCount) {
        waiter.resolve(this.#current);
      } else keep.push(waiter);
    }
    this.#waiters = keep;
  }

  #report(error: EnforcerLoadError): void {
    try {
      this.#options.onError(error);
    } catch {
      // A failing hook must not stop the reloads.
    }
  }

  #emit(event: SwapEvent<S>): void {
    try {
      this.#options.onSwap(event);
    } catch {
      // A failing hook must not stop the reloads.
    }
  }
}

/** Any error as an `EnforcerLoadError`. */
function asLoadError(
  error: unknown,
  code: "READ_FAILED" | "POLICY_INVALID",
): EnforcerLoadError {
  if (error instanceof EnforcerLoadError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new EnforcerLoadError(code, `Cannot load policy: ${message}`, {
    cause: error,
  });
}
