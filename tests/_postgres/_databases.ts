// Fresh databases for the tests of the database code (the policy provider,
// the map store): a new database on a
// real PostgreSQL server (the cluster `.ci/run` starts, whose URL is in
// PORTCULLIS_POSTGRES_URL, or one started here when PostgreSQL is installed),
// and a new PGlite data directory (copied from a template made once, since
// creating one takes seconds).
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import {
  findPostgresBin,
  PostgresCluster,
} from "../../scripts/postgres_cluster.ts";
import { openPglite } from "../../src/_postgres/_pglite_client.ts";

export type Kind = "pglite" | "postgres";

/** Why the PostgreSQL tests are skipped, or undefined when they run. */
export const POSTGRES_SKIP_REASON: string | undefined =
  Deno.env.get("PORTCULLIS_POSTGRES_URL") !== undefined ||
    await findPostgresBin() !== undefined
    ? undefined
    : "PostgreSQL is not installed: run `deno run -A scripts/postgres_cluster.ts install` as root (.ci/run does)";

if (POSTGRES_SKIP_REASON !== undefined) {
  // deno-lint-ignore no-console
  console.warn(`Skipping the PostgreSQL server tests: ${POSTGRES_SKIP_REASON}`);
}

let cluster: Promise<PostgresCluster> | undefined;
let started: PostgresCluster | undefined;

/** The server's admin URL (a cluster of this process if none is given). */
export async function serverUrl(): Promise<string> {
  const given = Deno.env.get("PORTCULLIS_POSTGRES_URL");
  if (given !== undefined) return given;
  cluster ??= PostgresCluster.start().then((c) => started = c);
  return (await cluster).url;
}

// The cluster and the PGlite template of this process go with it.
globalThis.addEventListener("unload", () => {
  started?.stopSync();
  if (templateDir !== undefined) {
    Deno.removeSync(templateDir, { recursive: true });
  }
});

let template: Promise<string> | undefined;
let templateDir: string | undefined;

/** A PGlite data directory with nothing in it but the system catalogue. */
function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = templateDir = await mkdtemp(
      join(tmpdir(), "portcullis-pglite-template-"),
    );
    const client = await openPglite(`${dir}/data`);
    await client.query("SELECT 1");
    await client.close();
    return `${dir}/data`;
  })();
  return template;
}

let counter = 0;

/** A fresh, empty database of `kind`; dispose it to drop it. */
export interface TestDatabase extends AsyncDisposable {
  readonly kind: Kind;
  /** The URL to open it with. */
  readonly url: string;
  /** Runs SQL as another client (another instance, a DBA's script). */
  sql(text: string, params?: unknown[]): Promise<unknown[][]>;
}

/** Creates a fresh database of `kind`. */
export async function freshDatabase(kind: Kind): Promise<TestDatabase> {
  if (kind === "pglite") {
    const source = await pgliteTemplate();
    const dir = await mkdtemp(join(tmpdir(), "portcullis-pglite-"));
    await cp(source, join(dir, "data"), { recursive: true });
    const url = `pglite:${dir}/data`;
    return {
      kind,
      url,
      sql: () => {
        throw new Error("PGlite has one client: use the database's own");
      },
      [Symbol.asyncDispose]: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const admin = await serverUrl();
  const name = `portcullis_${Deno.pid}_${++counter}_${
    Math.random().toString(36).slice(2, 8)
  }`;
  const root = postgres(admin, { max: 1, onnotice: () => {} });
  await root.unsafe(`CREATE DATABASE ${name}`);
  const url = admin.replace(/\/[^/]*$/, `/${name}`);
  const other = postgres(url, { max: 2, onnotice: () => {} });
  return {
    kind,
    url,
    sql: async (text, params = []) =>
      await other.unsafe(text, params as never[]).values(),
    [Symbol.asyncDispose]: async () => {
      await other.end({ timeout: 0 });
      await root.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
        .catch(() => {});
      await root.end({ timeout: 0 });
    },
  };
}

/** The kinds to run a suite against, and whether each is skipped. */
export const KINDS: readonly { kind: Kind; ignore: boolean }[] = [
  { kind: "pglite", ignore: false },
  { kind: "postgres", ignore: POSTGRES_SKIP_REASON !== undefined },
];
