// The model and policy files as a reload source: consistent reads, change
// detection by directory watchers, a periodic stat check, and a per-request
// fstat of the handles the last read kept open.
import { type FSWatcher, statSync, watch } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { Buffer } from "node:buffer";
import { basename, dirname } from "node:path";
import { EnforcerLoadError } from "../_policy/error.ts";
import {
  type FileStamp,
  type OpenFile,
  openFile,
  sameStamp,
} from "./file_handle.ts";
import type { ReloadSource } from "./reloader.ts";

/** One file as read: its bytes and the `stat` signature of that version. */
export interface FileVersion {
  readonly signature: string;
  readonly bytes: Uint8Array;
}

/** Both files, each read whole as one version. */
export interface PolicyFilesSnapshot {
  readonly model: FileVersion;
  readonly policy: FileVersion;
}

type Kind = "model" | "policy";

const MISSING = "missing";
const UNREADABLE = "unreadable";
// A file modified less than this long ago may change again without its
// stat signature changing (coarse timestamps): the periodic check compares
// its content.
const RACY_WINDOW_MS = 3000;
const STABLE_READ_ATTEMPTS = 5;

/** Whether two file contents are the same bytes. */
export function sameBytes(
  a: Uint8Array | undefined,
  b: Uint8Array | undefined,
): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.byteLength === b.byteLength &&
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

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

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What is known of one file between reads. */
interface Tracked {
  readonly path: string;
  readonly kind: Kind;
  /** The handle of the last successful read, kept open for `detect()`. */
  handle: OpenFile | undefined;
  /** The last stamp seen through the handle. */
  stamp: FileStamp | undefined;
  /** Signature and bytes of the last read (MISSING / UNREADABLE). */
  signature: string;
  bytes: Uint8Array | undefined;
}

/** Options for {@linkcode PolicyFiles}. */
export interface PolicyFilesOptions {
  readonly modelPath: string;
  readonly policyPath: string;
  /** Pause between attempts of a read that saw the file change. */
  readonly retryMs: number;
  /** Signals a change (to the reloader). */
  readonly onChange: () => void;
  /** Whether a reload round is running (the periodic check then waits). */
  readonly isReloading: () => boolean;
  readonly isClosed: () => boolean;
  readonly sleep: (ms: number) => Promise<void>;
}

/** The two files of a file provider. */
export class PolicyFiles implements ReloadSource<PolicyFilesSnapshot> {
  readonly #options: PolicyFilesOptions;
  readonly #files: readonly [Tracked, Tracked];
  #watchers: FSWatcher[] = [];
  #watchersBroken = false;
  #pollTimer: ReturnType<typeof setInterval> | undefined;
  #polling = false;
  // A check was asked for while one (or a reload) was running.
  #pollAgain = false;
  #checks = new Set<Promise<void>>();

  constructor(options: PolicyFilesOptions) {
    this.#options = options;
    const tracked = (path: string, kind: Kind): Tracked => ({
      path,
      kind,
      handle: undefined,
      stamp: undefined,
      signature: MISSING,
      bytes: undefined,
    });
    this.#files = [
      tracked(options.modelPath, "model"),
      tracked(options.policyPath, "policy"),
    ];
  }

  async read(): Promise<PolicyFilesSnapshot> {
    const model = await this.#readStable(this.#files[0]);
    const policy = await this.#readStable(this.#files[1]);
    return { model, policy };
  }

  sameContent(a: PolicyFilesSnapshot, b: PolicyFilesSnapshot): boolean {
    return sameBytes(a.model.bytes, b.model.bytes) &&
      sameBytes(a.policy.bytes, b.policy.bytes);
  }

  failureKey(error: EnforcerLoadError): string {
    return `${error.path}:${error.code === "NOT_FOUND" ? MISSING : UNREADABLE}`;
  }

  /**
   * {@linkcode PolicyFiles.detect} for a request, done at most once per
   * run of the microtask queue. That is enough: requests whose handlers run
   * in one run were all received before it began (the runtime reads no
   * sockets until the queue is empty), so a check at its first request
   * comes after any edit completed before any of them started. Under load,
   * Deno.serve hands a batch of requests to one run; each shares the check.
   */
  detectForRequest(): void {
    if (this.#checkedThisRun) return;
    this.#checkedThisRun = true;
    queueMicrotask(this.#endRun);
    this.detect();
  }

  #checkedThisRun = false;
  readonly #endRun = (): void => {
    this.#checkedThisRun = false;
  };

  /**
   * Checks both files synchronously, one fstat of each kept handle (about
   * a microsecond), and signals a change that no event has reported yet.
   */
  detect(): void {
    let changed = false;
    for (const file of this.#files) {
      if (file.handle === undefined) {
        // Missing at the last read: has it come back?
        if (file.signature === MISSING && exists(file.path)) {
          file.signature = "";
          changed = true;
        }
        continue;
      }
      let stamp: FileStamp;
      try {
        stamp = file.handle.stampSync();
      } catch {
        file.handle.close();
        file.handle = undefined;
        file.signature = "";
        changed = true;
        continue;
      }
      if (file.stamp === undefined || !sameStamp(stamp, file.stamp)) {
        file.stamp = stamp;
        changed = true;
      }
    }
    if (changed) this.#options.onChange();
  }

  /** Watches the directories of both files (`fs.watch`). */
  startWatching(): void {
    const names = new Map<string, Set<string>>();
    for (const { path } of this.#files) {
      const dir = dirname(path);
      if (!names.has(dir)) names.set(dir, new Set());
      names.get(dir)!.add(basename(path));
    }
    this.#watchersBroken = false;
    for (const [dir, files] of names) {
      let watcher: FSWatcher;
      try {
        watcher = watch(dir, (_event, filename) => {
          if (this.#options.isClosed()) return;
          const name = typeof filename === "string" ? filename : null;
          if (name === null || files.has(name)) this.#options.onChange();
          // Another entry of the directory changed (a temporary file, a
          // symlinked data directory swapped): let the stat check decide.
          else this.poll();
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

  /** Runs the periodic stat check every `intervalMs`. */
  startPolling(intervalMs: number): void {
    this.#pollTimer = setInterval(() => this.poll(), intervalMs);
  }

  /** Starts the stat check now; `close()` waits for it. */
  poll(): void {
    if (this.#options.isClosed()) return;
    const check = this.#check();
    this.#checks.add(check);
    void check.finally(() => this.#checks.delete(check));
  }

  /** Asks for one more check if one was skipped while a reload ran. */
  pollIfSkipped(): void {
    if (this.#pollAgain) this.poll();
  }

  /** Stops watching and polling; waits for a running check. */
  async close(): Promise<void> {
    for (const watcher of this.#watchers) watcher.close();
    this.#watchers = [];
    if (this.#pollTimer !== undefined) clearInterval(this.#pollTimer);
    this.#pollTimer = undefined;
    await Promise.all(this.#checks);
    for (const file of this.#files) {
      file.handle?.close();
      file.handle = undefined;
    }
  }

  /**
   * Reads a file so that the content matches one version of it: read
   * through one handle whose stamp is the same before and after and whose
   * size is the byte count, and which is still the file at the path. The
   * handle then stays open for `detect()`.
   */
  async #readStable(file: Tracked): Promise<FileVersion> {
    const { path, kind } = file;
    for (let attempt = 1;; attempt++) {
      let handle: OpenFile | undefined;
      let result: { version: FileVersion; stamp: FileStamp } | undefined;
      try {
        handle = await openFile(path);
        const before = handle.stampSync();
        const bytes = await handle.readAll();
        const after = handle.stampSync();
        const info = await stat(path, { bigint: true });
        if (
          sameStamp(before, after) && bytes.byteLength === after.size &&
          (after.ino === 0 || BigInt(after.ino) === info.ino) &&
          after.nlink > 0
        ) {
          result = {
            version: { signature: signatureOf(info), bytes },
            stamp: after,
          };
        }
      } catch (error) {
        handle?.close();
        file.handle?.close();
        file.handle = undefined;
        file.stamp = undefined;
        file.bytes = undefined;
        if (isMissing(error)) {
          file.signature = MISSING;
          throw new EnforcerLoadError(
            "NOT_FOUND",
            `Cannot load ${kind}: "${path}" does not exist`,
            { path, cause: error },
          );
        }
        file.signature = UNREADABLE;
        throw new EnforcerLoadError(
          "READ_FAILED",
          `Cannot load ${kind}: "${path}" could not be read (${
            message(error)
          })`,
          { path, cause: error },
        );
      }
      if (result !== undefined) {
        file.handle?.close();
        file.handle = handle;
        file.stamp = result.stamp;
        file.signature = result.version.signature;
        file.bytes = result.version.bytes;
        return result.version;
      }
      handle.close();
      if (attempt >= STABLE_READ_ATTEMPTS) {
        throw new EnforcerLoadError(
          "READ_FAILED",
          `Cannot load ${kind}: "${path}" kept changing while it was read`,
          { path },
        );
      }
      await this.#options.sleep(this.#options.retryMs);
      if (this.#options.isClosed()) {
        throw new EnforcerLoadError(
          "READ_FAILED",
          `Cannot load ${kind}: the provider was closed`,
          { path },
        );
      }
    }
  }

  /** The periodic check: stat both files, compare content if racy. */
  async #check(): Promise<void> {
    if (this.#polling || this.#options.isReloading()) {
      // The running check or reload may have read the files before this
      // change: check again once it is done.
      this.#pollAgain = true;
      return;
    }
    this.#pollAgain = false;
    this.#polling = true;
    try {
      if (this.#watchersBroken && this.#watchers.length > 0) {
        for (const watcher of this.#watchers) watcher.close();
        this.#watchers = [];
        this.startWatching();
      } else if (this.#watchersBroken) this.startWatching();
      for (const file of this.#files) {
        let signature: string;
        let modifiedMs = 0;
        try {
          const info = await stat(file.path, { bigint: true });
          signature = signatureOf(info);
          modifiedMs = Number(info.mtimeNs / 1_000_000n);
        } catch (error) {
          signature = isMissing(error) ? MISSING : UNREADABLE;
        }
        if (this.#options.isClosed()) return;
        if (signature !== file.signature) {
          this.#options.onChange();
          return;
        }
        if (
          file.bytes !== undefined && Date.now() - modifiedMs < RACY_WINDOW_MS
        ) {
          let bytes: Uint8Array | undefined;
          try {
            bytes = await readFile(file.path);
          } catch {
            bytes = undefined;
          }
          if (this.#options.isClosed()) return;
          if (!sameBytes(bytes, file.bytes)) {
            this.#options.onChange();
            return;
          }
        }
      }
    } finally {
      this.#polling = false;
      if (this.#pollAgain) this.poll();
    }
  }
}

/** Whether a path exists now (a synchronous stat). */
function exists(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
