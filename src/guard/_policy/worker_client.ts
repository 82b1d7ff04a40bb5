// Starts the policy worker (see worker.ts) and talks to it: a Web
// Worker where the runtime has one (Deno, Bun), a worker_threads worker
// otherwise (Node).
import type { CompileRequest, CompileResult } from "./compile.ts";

// The worker module, next to this one. The npm build rewrites this string
// to the path of the bundled worker, relative to the bundle holding it.
const WORKER_PATH = "./worker.ts";

/** Thrown to pending loads when the worker stops or cannot start. */
export class PolicyWorkerError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "PolicyWorkerError";
  }
}

interface Channel {
  post(message: unknown): void;
  terminate(): void;
  /** Whether the worker keeps the process alive (it must while it works). */
  keepAlive(alive: boolean): void;
}

interface Pending {
  resolve: (result: CompileResult) => void;
  reject: (error: unknown) => void;
}

/** One worker, handling loads one after the other. */
export class PolicyWorker {
  #channel: Channel | undefined;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  #stopped: PolicyWorkerError | undefined;

  private constructor() {}

  /**
   * Starts a worker; resolves once its modules are loaded, rejects with a
   * {@linkcode PolicyWorkerError} when it cannot start (no worker support,
   * or a Deno process without read access to the module).
   */
  static start(): Promise<PolicyWorker> {
    const worker = new PolicyWorker();
    let resolve!: (worker: PolicyWorker) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<PolicyWorker>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    let ready = false;
    const onMessage = (data: unknown): void => {
      if (!ready) {
        ready = true;
        worker.#channel?.keepAlive(false);
        resolve(worker);
        return;
      }
      const { id, result } = data as { id: number; result: CompileResult };
      const pending = worker.#pending.get(id);
      worker.#pending.delete(id);
      if (worker.#pending.size === 0) worker.#channel?.keepAlive(false);
      pending?.resolve(result);
    };
    const onFailure = (error: unknown): void => {
      const failure = new PolicyWorkerError(
        `Cannot load policy off the main thread: the worker ${
          ready ? "stopped" : "did not start"
        } (${error instanceof Error ? error.message : String(error)})`,
        { cause: error },
      );
      worker.#stop(failure);
      if (!ready) reject(failure);
    };
    const url = new URL(WORKER_PATH, import.meta.url);
    if (!mayReadModule(url)) {
      // Deno would refuse to load the worker's module, and report that on
      // stderr as an uncaught error even though it is handled here.
      return Promise.reject(
        new PolicyWorkerError(
          `Cannot load policy off the main thread: no read access to ${url.pathname}`,
        ),
      );
    }
    void (async () => {
      try {
        worker.#channel = typeof globalThis.Worker === "function"
          ? webWorker(url, onMessage, onFailure)
          : await nodeWorker(url, onMessage, onFailure);
        if (worker.#stopped !== undefined) worker.#channel.terminate();
      } catch (error) {
        onFailure(error);
      }
    })();
    return promise;
  }

  /** Loads one policy in the worker. */
  compile(request: CompileRequest): Promise<CompileResult> {
    if (this.#stopped !== undefined) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise<CompileResult>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      try {
        this.#channel!.keepAlive(true);
        this.#channel!.post({ id, request });
      } catch (error) {
        this.#pending.delete(id);
        reject(error);
      }
    });
  }

  /** Stops the worker; pending loads reject. */
  terminate(): void {
    this.#stop(new PolicyWorkerError("the policy worker was stopped"));
  }

  #stop(error: PolicyWorkerError): void {
    if (this.#stopped !== undefined) return;
    this.#stopped = error;
    try {
      this.#channel?.terminate();
    } catch {
      // Already gone.
    }
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

interface DenoPermissions {
  querySync?(descriptor: { name: "read"; path: URL }): { state: string };
}

/**
 * Whether the process may read a local worker module: under Deno only with
 * read access already granted (a prompt would stop the server), elsewhere
 * always.
 */
function mayReadModule(url: URL): boolean {
  const deno = (globalThis as { Deno?: { permissions?: DenoPermissions } })
    .Deno;
  const query = deno?.permissions?.querySync;
  if (url.protocol !== "file:" || query === undefined) return true;
  try {
    return query.call(deno!.permissions, { name: "read", path: url }).state ===
      "granted";
  } catch {
    return false;
  }
}

function webWorker(
  url: URL,
  onMessage: (data: unknown) => void,
  onFailure: (error: unknown) => void,
): Channel {
  const worker = new Worker(url, { type: "module" });
  worker.onmessage = (event) => onMessage(event.data);
  worker.onerror = (event) => {
    // Handled here: not an uncaught error of the process.
    event.preventDefault();
    onFailure(event.error ?? new Error(event.message));
  };
  worker.onmessageerror = () => onFailure(new Error("unreadable message"));
  return {
    post: (message) => worker.postMessage(message),
    terminate: () => worker.terminate(),
    // A Web Worker of Deno or Bun lives until it is terminated.
    keepAlive: () => {},
  };
}

async function nodeWorker(
  url: URL,
  onMessage: (data: unknown) => void,
  onFailure: (error: unknown) => void,
): Promise<Channel> {
  const { Worker } = await import("node:worker_threads");
  const worker = new Worker(url);
  worker.on("message", onMessage);
  worker.on("error", onFailure);
  worker.on("exit", (code) => onFailure(new Error(`exit code ${code}`)));
  // Idle, the worker does not keep the process alive (the provider's own
  // watchers and timers do, while it is open); starting and loading do.
  return {
    post: (message) => worker.postMessage(message),
    terminate: () => void worker.terminate(),
    keepAlive: (alive) => alive ? worker.ref() : worker.unref(),
  };
}
