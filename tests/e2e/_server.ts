// Starts examples/server.ts as a child process under Deno or Bun on a free
// port, and follows its output line by line.
import { fileURLToPath } from "node:url";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

export type Runtime = "deno" | "bun" | "node";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SERVER = join(ROOT, "examples", "server.ts");
// Node 20 runs neither TypeScript nor the Deno.serve/Bun.serve server: it
// runs examples/node.ts (the same application on node:http), bundled.
const NODE_SERVER = join(ROOT, "examples", "node.ts");
/** How long to wait for an expected line before failing instead of hanging. */
const LINE_WATCHDOG_MS = 60_000;

/** The permissions docs/guard.md tells Deno users to grant. */
export const DENO_PERMISSIONS: readonly string[] = [
  "--allow-net",
  "--allow-read",
  "--allow-env=PORT,MODEL_PATH,POLICY_PATH,POLICY_DATABASE_URL,PG*,__MINIMATCH_TESTING_PLATFORM__",
];

/** Finds `bun` on PATH, then in the project's `.tools/`. */
export async function findBun(): Promise<string> {
  const candidates = (Deno.env.get("PATH") ?? "").split(delimiter)
    .filter((dir) => dir !== "")
    .map((dir) => join(dir, "bun"));
  candidates.push(join(ROOT, ".tools", "node_modules", ".bin", "bun"));
  for (const candidate of candidates) {
    try {
      const info = await Deno.stat(candidate);
      if (info.isFile) return candidate;
    } catch {
      // not here
    }
  }
  throw new Error(
    "Cannot find bun: put it on PATH or run `bash scripts/dev.sh` once",
  );
}

/**
 * Bundles examples/node.ts (or another entry point) for Node into `dir`,
 * leaving the `external` packages to Node's resolution; returns the file.
 */
export async function bundleForNode(
  dir: string,
  entry: string = NODE_SERVER,
  name = "node.mjs",
  external: readonly string[] = [],
): Promise<string> {
  const outfile = join(dir, name);
  const esbuild = await import("esbuild");
  try {
    await esbuild.build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "silent",
      external: [...external],
      // casbin is CommonJS; give the ESM bundle a require() (under a name
      // of its own: bundled code may import createRequire too).
      banner: {
        js:
          'import { createRequire as __bannerRequire } from "node:module"; const require = __bannerRequire(import.meta.url);',
      },
    });
  } finally {
    await esbuild.stop();
  }
  return outfile;
}

let installed: Promise<void> | undefined;

/**
 * Bun resolves the bare imports of src/ (casbin, jose...) from
 * node_modules/, which `deno install` fills with the versions pinned in
 * deno.json. Runs once per test process.
 */
export function installNodeModules(): Promise<void> {
  installed ??= (async () => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["install"],
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!output.success) {
      throw new Error(
        `Cannot fill node_modules for Bun: ${
          new TextDecoder().decode(output.stderr)
        }`,
      );
    }
  })();
  return installed;
}

interface LineWaiter {
  pattern: RegExp;
  resolve: (line: string) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** A running reference server. Dispose it to stop the child process. */
export class ServerProcess implements AsyncDisposable {
  readonly runtime: Runtime;
  readonly modelPath: string;
  readonly policyPath: string;
  readonly #dir: string;
  readonly #child: Deno.ChildProcess;
  readonly #lines: string[] = [];
  readonly #waiters = new Set<LineWaiter>();
  readonly #drained: Promise<void>;
  #ended = 0;
  #url = "";
  #status: Deno.CommandStatus | undefined;

  private constructor(
    runtime: Runtime,
    dir: string,
    command: string,
    args: string[],
    env: Record<string, string>,
  ) {
    this.runtime = runtime;
    this.#dir = dir;
    this.modelPath = join(dir, "model.conf");
    this.policyPath = join(dir, "policy.csv");
    this.#child = new Deno.Command(command, {
      args,
      cwd: ROOT,
      env: {
        PORT: "0",
        MODEL_PATH: this.modelPath,
        POLICY_PATH: this.policyPath,
        NO_COLOR: "1",
        ...env,
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#drained = Promise.all([
      follow(
        this.#child.stdout,
        (line) => this.#onLine(line),
        () => this.#onEnd(),
      ),
      follow(
        this.#child.stderr,
        (line) => this.#onLine(`[stderr] ${line}`),
        () => this.#onEnd(),
      ),
    ]).then(() => {});
  }

  /**
   * Copies the example model and policy into a fresh directory and starts
   * the server on them with PORT=0; resolves once it listens.
   */
  static async start(
    runtime: Runtime,
    env: Record<string, string> = {},
  ): Promise<ServerProcess> {
    const dir = await mkdtemp(join(tmpdir(), "portcullis-e2e-"));
    await copyFile(
      join(ROOT, "examples", "model.conf"),
      join(dir, "model.conf"),
    );
    await copyFile(
      join(ROOT, "examples", "policy.csv"),
      join(dir, "policy.csv"),
    );
    const [command, args] = runtime === "deno"
      ? [Deno.execPath(), ["run", ...DENO_PERMISSIONS, SERVER]]
      : runtime === "bun"
      ? [await findBun(), ["run", SERVER]]
      : ["node", [await bundleForNode(dir)]];
    if (runtime === "bun") await installNodeModules();
    const server = new ServerProcess(runtime, dir, command, args, env);
    try {
      const line = await server.waitForLine(/^Listening on http:\/\/\S+/, 0);
      server.#url = line.split(" ")[2]!.replace(/\/$/, "")
        .replace("//localhost:", "//127.0.0.1:")
        .replace("//0.0.0.0:", "//127.0.0.1:");
    } catch (error) {
      await server[Symbol.asyncDispose]();
      throw new Error(
        `${(error as Error).message}\n(exit code ${server.#status?.code})`,
      );
    }
    return server;
  }

  /** The base URL, such as `http://127.0.0.1:40123`. */
  get url(): string {
    return this.#url;
  }

  #onLine(line: string): void {
    this.#lines.push(line);
    for (const waiter of this.#waiters) {
      if (waiter.pattern.test(line)) {
        this.#waiters.delete(waiter);
        clearTimeout(waiter.timer);
        waiter.resolve(line);
      }
    }
  }

  #onEnd(): void {
    if (++this.#ended < 2) return;
    for (const waiter of this.#waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(
        new Error(
          `The ${this.runtime} server exited before printing ${waiter.pattern}:\n${
            this.#lines.join("\n")
          }`,
        ),
      );
    }
    this.#waiters.clear();
  }

  /** Every output line so far (stderr lines start with `[stderr] `). */
  get lines(): readonly string[] {
    return this.#lines;
  }

  /**
   * Resolves with the first line at index `from` or later that matches.
   * Rejects if the server exits first, or after a generous watchdog so a
   * broken build fails instead of hanging.
   */
  waitForLine(pattern: RegExp, from: number): Promise<string> {
    for (let i = from; i < this.#lines.length; i++) {
      if (pattern.test(this.#lines[i]!)) {
        return Promise.resolve(this.#lines[i]!);
      }
    }
    if (this.#ended === 2) {
      return Promise.reject(
        new Error(`The ${this.runtime} server exited, no line ${pattern}`),
      );
    }
    return new Promise((resolve, reject) => {
      const waiter: LineWaiter = {
        pattern,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#waiters.delete(waiter);
          reject(
            new Error(
              `No line matching ${pattern} from the ${this.runtime} server:\n${
                this.#lines.join("\n")
              }`,
            ),
          );
        }, LINE_WATCHDOG_MS),
      };
      this.#waiters.add(waiter);
    });
  }

  /** Sends a request to the server with an optional bearer role. */
  fetch(
    path: string,
    init: RequestInit & { role?: string } = {},
  ): Promise<Response> {
    const headers = new Headers(init.headers);
    if (init.role !== undefined) {
      headers.set("authorization", `Bearer ${init.role}`);
    }
    const { role: _role, ...rest } = init;
    return fetch(`${this.url}${path}`, { ...rest, headers });
  }

  /** Sends a signal and waits for the process to exit. */
  async stop(signal: Deno.Signal = "SIGTERM"): Promise<Deno.CommandStatus> {
    if (this.#status === undefined) {
      try {
        this.#child.kill(signal);
      } catch {
        // already exited
      }
      this.#status = await this.#child.status;
      await this.#drained;
    }
    return this.#status;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#status === undefined) {
      try {
        this.#child.kill("SIGKILL");
      } catch {
        // already exited
      }
      this.#status = await this.#child.status;
      await this.#drained;
    }
    for (const waiter of this.#waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error("Server stopped"));
    }
    this.#waiters.clear();
    await rm(this.#dir, { recursive: true, force: true });
  }
}

async function follow(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string) => void,
  onEnd: () => void,
): Promise<void> {
  let pending = "";
  try {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      pending += chunk;
      let newline = pending.indexOf("\n");
      while (newline !== -1) {
        onLine(pending.slice(0, newline).replace(/\r$/, ""));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
      }
    }
    if (pending !== "") onLine(pending);
  } finally {
    onEnd();
  }
}
