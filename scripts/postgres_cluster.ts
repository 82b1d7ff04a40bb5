// A throwaway PostgreSQL cluster for the database provider's tests and
// benchmarks: initdb in a temporary directory, run as an unprivileged user
// (the server refuses to run as root), listening on 127.0.0.1 and a free
// port, removed when stopped.
//
//   deno run -A scripts/postgres_cluster.ts install   # apt-get when missing
//   deno run -A scripts/postgres_cluster.ts start     # prints shell exports
//   deno run -A scripts/postgres_cluster.ts stop DIR
//
// `start` prints `export PORTCULLIS_POSTGRES_URL=...`,
// `export PORTCULLIS_POSTGRES_DIR=...` and `export PORTCULLIS_POSTGRES_BIN=...`
// for `eval`; the tests use the URL for the conformance suite and the
// binaries to start clusters of their own for the fault tests.
import { join } from "node:path";

/** The PostgreSQL major version the project tests against. */
export const POSTGRES_MAJOR = 15;

async function run(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; allowFailure?: boolean } = {},
): Promise<{ success: boolean; output: string }> {
  let result: Deno.CommandOutput;
  try {
    result = await new Deno.Command(command, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      ...(options.env === undefined ? {} : { env: options.env }),
    }).output();
  } catch (error) {
    if (options.allowFailure) {
      return { success: false, output: (error as Error).message };
    }
    throw error;
  }
  const output = new TextDecoder().decode(result.stdout) +
    new TextDecoder().decode(result.stderr);
  if (!result.success && !options.allowFailure) {
    throw new Error(
      `Cannot run ${command} ${
        args.join(" ")
      } (exit ${result.code}):\n${output}`,
    );
  }
  return { success: result.success, output };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * The directory holding `initdb`, `pg_ctl` and `postgres`: $PG_BIN, then
 * Debian's /usr/lib/postgresql/<major>/bin (15 first), then `pg_config
 * --bindir`. Undefined when PostgreSQL is not installed.
 */
export async function findPostgresBin(): Promise<string | undefined> {
  const candidates: string[] = [];
  const fromEnv = Deno.env.get("PG_BIN");
  if (fromEnv) candidates.push(fromEnv);
  candidates.push(`/usr/lib/postgresql/${POSTGRES_MAJOR}/bin`);
  try {
    const majors: number[] = [];
    for await (const entry of Deno.readDir("/usr/lib/postgresql")) {
      if (/^\d+$/.test(entry.name)) majors.push(Number(entry.name));
    }
    majors.sort((a, b) => b - a);
    for (const major of majors) {
      candidates.push(`/usr/lib/postgresql/${major}/bin`);
    }
  } catch {
    // No Debian layout.
  }
  const config = await run("pg_config", ["--bindir"], { allowFailure: true });
  if (config.success) candidates.push(config.output.trim());
  for (const dir of candidates) {
    if (
      await isFile(join(dir, "initdb")) && await isFile(join(dir, "pg_ctl"))
    ) return dir;
  }
  return undefined;
}

/**
 * Installs PostgreSQL 15 from the Debian packages when it is missing (as
 * root; `apt-get update` first). Returns the binaries' directory, or
 * undefined when it cannot be installed here.
 */
export async function installPostgres(): Promise<string | undefined> {
  const found = await findPostgresBin();
  if (found !== undefined) return found;
  if (Deno.uid() !== 0) return undefined;
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  await run("apt-get", ["update", "-qq"], { env, allowFailure: true });
  await run(
    "apt-get",
    [
      "install",
      "-y",
      "-qq",
      "--no-install-recommends",
      `postgresql-${POSTGRES_MAJOR}`,
    ],
    { env, allowFailure: true },
  );
  return await findPostgresBin();
}

/** The unprivileged account the server runs as when we are root. */
async function serverUser(): Promise<string | undefined> {
  if (Deno.uid() !== 0) return undefined;
  const postgres = await run("id", ["-u", "postgres"], { allowFailure: true });
  return postgres.success ? "postgres" : "nobody";
}

/** A free TCP port on 127.0.0.1 (the kernel's pick, then released). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Options for {@linkcode PostgresCluster.start}. */
export interface ClusterOptions {
  /** Directory of the binaries; found with `findPostgresBin()` if unset. */
  bin?: string;
  /** Extra `-c name=value` server settings. */
  settings?: Record<string, string>;
}

/** A running throwaway cluster. */
export class PostgresCluster implements AsyncDisposable {
  readonly bin: string;
  readonly dir: string;
  readonly port: number;
  readonly #user: string | undefined;
  readonly #settings: Record<string, string>;
  #running = false;

  private constructor(
    bin: string,
    dir: string,
    port: number,
    user: string | undefined,
    settings: Record<string, string>,
  ) {
    this.bin = bin;
    this.dir = dir;
    this.port = port;
    this.#user = user;
    this.#settings = settings;
  }

  /** A `postgres://` URL of the cluster's `postgres` database. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Whether the server is running (as far as this object knows). */
  get running(): boolean {
    return this.#running;
  }

  /** Creates and starts a cluster in a new temporary directory. */
  static async start(options: ClusterOptions = {}): Promise<PostgresCluster> {
    const bin = options.bin ?? await findPostgresBin();
    if (bin === undefined) {
      throw new Error(
        "Cannot start PostgreSQL: it is not installed (run `deno run -A scripts/postgres_cluster.ts install` as root)",
      );
    }
    const dir = await Deno.makeTempDir({ prefix: "portcullis-pg-" });
    const user = await serverUser();
    if (user !== undefined) await run("chown", [user, dir]);
    const cluster = new PostgresCluster(
      bin,
      dir,
      freePort(),
      user,
      options.settings ?? {},
    );
    try {
      await cluster.#as(join(bin, "initdb"), [
        "-D",
        join(dir, "data"),
        "-U",
        "postgres",
        "-A",
        "trust",
        "-E",
        "UTF8",
        "--locale=C",
        "--no-sync",
      ]);
      await cluster.restart();
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** Starts the server again (after `stopServer()`), on the same port. */
  async restart(): Promise<void> {
    const settings: Record<string, string> = {
      "listen_addresses": "127.0.0.1",
      port: String(this.port),
      "unix_socket_directories": this.dir,
      fsync: "off",
      "synchronous_commit": "off",
      "full_page_writes": "off",
      "max_connections": "200",
      ...this.#settings,
    };
    const flags = Object.entries(settings)
      .map(([name, value]) => `-c ${name}=${value}`).join(" ");
    await this.#as(join(this.bin, "pg_ctl"), [
      "-D",
      join(this.dir, "data"),
      "-l",
      join(this.dir, "server.log"),
      "-o",
      flags,
      "-w",
      "-t",
      "60",
      "start",
    ]);
    this.#running = true;
  }

  /**
   * Stops the server (fast shutdown: open connections are closed) and
   * keeps its data, for `restart()`.
   */
  async stopServer(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    await this.#as(join(this.bin, "pg_ctl"), [
      "-D",
      join(this.dir, "data"),
      "-m",
      "fast",
      "-w",
      "stop",
    ], true);
  }

  /** Stops the server and removes its directory. */
  async stop(): Promise<void> {
    await this.stopServer();
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }

  /** `stop()` for an `unload` handler, where nothing async runs. */
  stopSync(): void {
    if (this.#running) {
      this.#running = false;
      const stop = [
        join(this.bin, "pg_ctl"),
        "-D",
        join(this.dir, "data"),
        "-m",
        "immediate",
        "-w",
        "stop",
      ];
      const [command, ...args] = this.#user === undefined
        ? stop
        : ["runuser", "-u", this.#user, "--", ...stop];
      try {
        new Deno.Command(command!, { args, stdout: "null", stderr: "null" })
          .outputSync();
      } catch {
        // Best effort.
      }
    }
    try {
      Deno.removeSync(this.dir, { recursive: true });
    } catch {
      // Best effort.
    }
  }

  /** Runs a PostgreSQL binary as the server's user. */
  async #as(
    command: string,
    args: string[],
    allowFailure = false,
  ): Promise<void> {
    if (this.#user === undefined) {
      await run(command, args, { allowFailure });
    } else {
      await run("runuser", ["-u", this.#user, "--", command, ...args], {
        allowFailure,
      });
    }
  }

  /** Reattaches to a cluster `start` left running (for `stop DIR`). */
  static async attach(dir: string): Promise<PostgresCluster> {
    const bin = await findPostgresBin();
    if (bin === undefined) throw new Error("Cannot find PostgreSQL");
    const cluster = new PostgresCluster(bin, dir, 0, await serverUser(), {});
    cluster.#running = true;
    return cluster;
  }
}

if (import.meta.main) {
  const [command, arg] = Deno.args;
  if (command === "install") {
    const bin = await installPostgres();
    if (bin === undefined) {
      // deno-lint-ignore no-console
      console.error(
        `Cannot install PostgreSQL ${POSTGRES_MAJOR}: not root, or apt-get failed`,
      );
      Deno.exit(1);
    }
    // deno-lint-ignore no-console
    console.log(`PostgreSQL binaries: ${bin}`);
  } else if (command === "start") {
    const bin = await installPostgres();
    if (bin === undefined) {
      // deno-lint-ignore no-console
      console.error(`Cannot install PostgreSQL ${POSTGRES_MAJOR}`);
      Deno.exit(1);
    }
    const cluster = await PostgresCluster.start({ bin });
    // deno-lint-ignore no-console
    console.log(
      [
        `export PORTCULLIS_POSTGRES_URL=${cluster.url}`,
        `export PORTCULLIS_POSTGRES_DIR=${cluster.dir}`,
        `export PORTCULLIS_POSTGRES_BIN=${bin}`,
      ].join("\n"),
    );
  } else if (command === "stop" && arg !== undefined) {
    await (await PostgresCluster.attach(arg)).stop();
  } else {
    // deno-lint-ignore no-console
    console.error(
      "Usage: postgres_cluster.ts install | start | stop <dir>",
    );
    Deno.exit(2);
  }
}
