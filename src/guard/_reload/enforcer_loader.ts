// Turns model and policy bytes into the enforcer a provider serves: in the
// policy worker (parse, validate and compile the index off the event loop;
// casbin's own enforcer built on first need), or on the event loop in time
// slices, then through the provider's `prepare` hook.
import type { Enforcer as CasbinEnforcer, MatchingFunction } from "casbin";
import type { Enforcer } from "../enforcer.ts";
import { type IndexableEnforcer, indexEnforcer } from "../indexed_enforcer.ts";
import {
  BuildCancelledError,
  buildEnforcer,
  decodeFile,
  probeModel,
} from "../_policy/build.ts";
import { EnforcerLoadError } from "../_policy/error.ts";
import { CompiledEnforcer } from "../_index/compiled_enforcer.ts";
import { loadErrorFrom, sampleOf } from "../_policy/compile.ts";
import { PolicyWorker } from "../_policy/worker_client.ts";
import type { Built } from "./reloader.ts";

// Policies of at least this many bytes load in the worker when `loadIn` is
// "auto".
const WORKER_THRESHOLD = 128 * 1024;

/** Options for {@linkcode EnforcerLoader}. */
export interface EnforcerLoaderOptions<E extends Enforcer> {
  /** Shown in errors: where the model and the policy come from. */
  readonly modelPath: string;
  readonly policyPath: string;
  readonly prepare:
    | ((enforcer: IndexableEnforcer) => E | Promise<E>)
    | undefined;
  readonly loadIn: "auto" | "worker" | "main";
  readonly probe: readonly unknown[] | undefined;
  readonly functions: Readonly<Record<string, MatchingFunction>>;
  readonly allowEmptyPolicy: boolean;
  readonly isClosed: () => boolean;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Builds enforcers for one provider; owns its worker. */
export class EnforcerLoader<E extends Enforcer> {
  readonly #options: EnforcerLoaderOptions<E>;
  readonly #prepare: (enforcer: CasbinEnforcer) => E | Promise<E>;
  #worker: Promise<PolicyWorker> | undefined;
  #workerUnavailable = false;
  // A model text the worker found casbin must decide: loaded on the event
  // loop from then on.
  #mainThreadModel: string | undefined;

  constructor(options: EnforcerLoaderOptions<E>) {
    this.#options = options;
    this.#prepare = options.prepare ??
      ((enforcer: CasbinEnforcer) =>
        indexEnforcer(enforcer) as unknown as E | Promise<E>);
  }

  /** Builds, validates and prepares the enforcer of these bytes. */
  async load(
    modelBytes: Uint8Array,
    policyBytes: Uint8Array,
  ): Promise<Built<E>> {
    const { modelPath, policyPath, isClosed } = this.#options;
    const modelText = await decodeFile(modelBytes, "model", modelPath, {
      isCancelled: isClosed,
    });
    if (this.#usesWorker(modelText, policyBytes)) {
      const loaded = await this.#loadInWorker(modelText, policyBytes);
      if (loaded !== undefined) return loaded;
    }
    const policyText = await decodeFile(policyBytes, "policy", policyPath, {
      isCancelled: isClosed,
    });
    const built = await buildEnforcer(modelText, policyText, {
      ...this.#buildOptions(),
      isCancelled: isClosed,
    });
    let enforcer: E;
    try {
      enforcer = await this.#prepare(built.enforcer);
    } catch (error) {
      throw new EnforcerLoadError(
        "PREPARE_FAILED",
        `Cannot load policy: the prepare hook failed (${message(error)})`,
        { path: policyPath, cause: error },
      );
    }
    if (typeof enforcer?.enforce !== "function") {
      throw new EnforcerLoadError(
        "PREPARE_FAILED",
        "Cannot load policy: the prepare hook did not return an enforcer",
        { path: policyPath },
      );
    }
    return { enforcer, rules: built.rules, loadedIn: "main" };
  }

  /** Stops the worker, if one was started. */
  close(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    worker?.then((w) => w.terminate(), () => {});
  }

  #buildOptions(): {
    modelPath: string;
    policyPath: string;
    allowEmptyPolicy: boolean;
    functions: Readonly<Record<string, MatchingFunction>>;
    probe?: readonly unknown[];
  } {
    const { modelPath, policyPath, allowEmptyPolicy, functions, probe } =
      this.#options;
    return {
      modelPath,
      policyPath,
      allowEmptyPolicy,
      functions,
      ...(probe === undefined ? {} : { probe }),
    };
  }

  #usesWorker(modelText: string, policyBytes: Uint8Array): boolean {
    const { prepare, loadIn } = this.#options;
    return prepare === undefined && !this.#workerUnavailable &&
      this.#mainThreadModel !== modelText &&
      (loadIn === "worker" ||
        (loadIn === "auto" && policyBytes.byteLength >= WORKER_THRESHOLD));
  }

  /**
   * Loads in the worker: the enforcer over the compiled index, or
   * undefined when the load must happen on the event loop instead.
   */
  async #loadInWorker(
    modelText: string,
    policyBytes: Uint8Array,
  ): Promise<Built<E> | undefined> {
    const { modelPath, policyPath, isClosed } = this.#options;
    const options = this.#buildOptions();
    let result;
    try {
      const worker = this.#worker ??= PolicyWorker.start();
      result = await (await worker).compile({
        modelText,
        policyBytes,
        modelPath,
        policyPath,
        functionNames: Object.keys(options.functions),
        allowEmptyPolicy: options.allowEmptyPolicy,
      });
    } catch {
      if (isClosed()) throw new BuildCancelledError();
      // No worker here (or it died): load on the event loop from now on.
      this.#workerUnavailable = true;
      this.close();
      return undefined;
    }
    if (isClosed()) throw new BuildCancelledError();
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
        const policyText = await decodeFile(policyBytes, "policy", policyPath);
        return (await buildEnforcer(modelText, policyText, options)).enforcer;
      },
    );
    return {
      enforcer: enforcer as unknown as E,
      rules: result.rules,
      loadedIn: "worker",
    };
  }
}
