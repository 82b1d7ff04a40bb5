// Runs application instances (Deno and Bun processes) on one policy
// database, commits a series of policy changes while requests flow to every
// instance, and checks and times the answers: each must show a state some
// committed transaction produced (never a mix, never one not yet started),
// never older than an answer the same instance gave before; and the time
// from each commit to the first answer reflecting it, on every instance.
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { PolicyDatabase } from "../../src/guard/postgres/mod.ts";
import { decode, rulesOf } from "./_policy_encoding.ts";
import { findBun, installNodeModules } from "./_server.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const APP = join(ROOT, "tests", "e2e", "_policy_instance_app.ts");
const START_TIMEOUT_MS = 60_000;

/** A running instance. */
class Instance implements AsyncDisposable {
  readonly runtime: "deno" | "bun";
  readonly #child: Deno.ChildProcess;
  readonly output: string[] = [];
  url = "";

  constructor(
    runtime: "deno" | "bun",
    command: string,
    args: string[],
    env: Record<string, string>,
  ) {
    this.runtime = runtime;
    this.#child = new Deno.Command(command, {
      args,
      cwd: ROOT,
      env: { NO_COLOR: "1", ...env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  }

  /** Resolves with the base URL once the instance listens. */
  async started(): Promise<void> {
    const listening = Promise.withResolvers<string>();
    const follow = async (stream: ReadableStream<Uint8Array>, tag: string) => {
      let buffer = "";
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf("\n")) !== -1) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 1);
          this.output.push(`${tag}${line}`);
          const match = line.match(/^Listening on (http:\/\/\S+?)\/?$/);
          if (match) listening.resolve(match[1]!);
        }
      }
      listening.reject(
        new Error(`${this.runtime} instance ended:\n${this.output.join("\n")}`),
      );
    };
    void follow(this.#child.stdout, "");
    void follow(this.#child.stderr, "[stderr] ");
    const timer = setTimeout(
      () =>
        listening.reject(new Error(`${this.runtime} instance did not start`)),
      START_TIMEOUT_MS,
    );
    try {
      this.url = await listening.promise;
    } finally {
      clearTimeout(timer);
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    try {
      this.#child.kill("SIGTERM");
    } catch {
      // already ended
    }
    await this.#child.status;
  }
}

/** Starts one instance of `runtime` on the database at `url`. */
export async function startInstance(
  runtime: "deno" | "bun",
  url: string,
): Promise<Instance> {
  const env = { POLICY_DATABASE_URL: url };
  let instance: Instance;
  if (runtime === "deno") {
    instance = new Instance(runtime, Deno.execPath(), ["run", "-A", APP], env);
  } else {
    await installNodeModules();
    instance = new Instance(runtime, await findBun(), ["run", APP], env);
  }
  try {
    await instance.started();
  } catch (error) {
    await instance[Symbol.asyncDispose]();
    throw error;
  }
  return instance;
}

/** Options for {@linkcode runChanges}. */
export interface RunOptions {
  /** The database every instance serves. */
  readonly url: string;
  /** One entry per instance. */
  readonly runtimes: readonly ("deno" | "bun")[];
  /** How many changes to commit, one transaction each (at most 1023). */
  readonly changes: number;
  /** Pause between two commits (0: back to back). */
  readonly paceMs: number;
  /**
   * Pause between two requests to one instance (0: back to back, which
   * with four instances on two cores measures CPU contention as much as
   * convergence).
   * @default {0}
   */
  readonly requestGapMs?: number;
}

/** What {@linkcode runChanges} observed. */
export interface RunResult {
  readonly answers: number;
  /** Answers that match no committed state, with why. */
  readonly inconsistent: readonly string[];
  /** Answers other than 200. */
  readonly failed: number;
  /** Per change: commit to the first answer reflecting it, slowest instance (ms). */
  readonly convergenceMs: readonly number[];
  /** The last state each instance answered. */
  readonly finalStates: readonly number[];
  /** Per instance: its runtime and whether it reported a policy error. */
  readonly instances: readonly { runtime: string; output: string[] }[];
}

/** Starts the instances, commits the changes, and checks every answer. */
export async function runChanges(options: RunOptions): Promise<RunResult> {
  const { url, changes, paceMs } = options;
  const gap = options.requestGapMs ?? 0;
  if (changes > 1023) throw new RangeError("at most 1023 changes");
  await using database = await PolicyDatabase.open(url);
  await database.replaceRules(rulesOf(0));
  const instances = await Promise.all(
    options.runtimes.map((runtime) => startInstance(runtime, url)),
  );
  try {
    const started: number[] = [0];
    const committed: number[] = [performance.now()];
    const inconsistent: string[] = [];
    let failed = 0;
    let answers = 0;
    let stop = false;
    // first[i][k]: when instance i first answered a state >= k.
    const first = instances.map(() => new Array<number>(changes + 1));
    const last = instances.map(() => 0);
    const loops = instances.map(async (instance, i) => {
      let seen = 0;
      while (!stop) {
        const response = await fetch(`${instance.url}/decide`);
        const body = await response.text();
        const received = performance.now();
        answers++;
        if (response.status !== 200) {
          failed++;
          continue;
        }
        const state = decode(body);
        if (state === undefined) {
          inconsistent.push(`${instance.runtime} #${i}: torn answer ${body}`);
          continue;
        }
        if (state >= started.length) {
          inconsistent.push(
            `${instance.runtime} #${i}: state ${state} before its commit started`,
          );
        }
        if (state < last[i]!) {
          inconsistent.push(
            `${instance.runtime} #${i}: state ${state} after ${last[i]}`,
          );
        }
        last[i] = state;
        for (; seen < state && seen < changes; seen++) {
          first[i]![seen + 1] = received;
        }
        if (gap > 0) await new Promise((r) => setTimeout(r, gap));
      }
    });
    for (let n = 1; n <= changes; n++) {
      const before = new Set(rulesOf(n - 1).map((r) => r.join()));
      const after = new Set(rulesOf(n).map((r) => r.join()));
      started.push(performance.now());
      await database.update(async (tx) => {
        await tx.remove(rulesOf(n - 1).filter((r) => !after.has(r.join())));
        await tx.add(rulesOf(n).filter((r) => !before.has(r.join())));
      });
      committed.push(performance.now());
      if (paceMs > 0) await new Promise((r) => setTimeout(r, paceMs));
    }
    const deadline = performance.now() + 60_000;
    while (last.some((state) => state < changes)) {
      if (performance.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    stop = true;
    await Promise.all(loops);
    const convergenceMs: number[] = [];
    for (let k = 1; k <= changes; k++) {
      let slowest = 0;
      for (const times of first) {
        const at = times[k];
        slowest = Math.max(
          slowest,
          at === undefined ? Infinity : at - committed[k]!,
        );
      }
      convergenceMs.push(Math.max(0, slowest));
    }
    return {
      answers,
      inconsistent,
      failed,
      convergenceMs,
      finalStates: last,
      instances: instances.map((instance) => ({
        runtime: instance.runtime,
        output: instance.output,
      })),
    };
  } finally {
    await Promise.all(instances.map((i) => i[Symbol.asyncDispose]()));
  }
}

/** The value at quantile `q` of `values`. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}
