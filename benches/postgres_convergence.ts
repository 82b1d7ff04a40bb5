// deno-lint-ignore-file no-console
// How long a committed policy change takes to reach every instance: four
// application processes (two Deno, two Bun) on one PostgreSQL database,
// 1,000 changes (one transaction each) while requests flow to every
// instance back to back; convergence is the time from the commit to the
// first answer reflecting it, on the slowest instance. Runs once with the
// changes back to back and once paced (one every PACE ms). Uses
// PORTCULLIS_POSTGRES_URL, or starts a throwaway cluster.
//
//   deno run -A benches/postgres_convergence.ts [changes] [paceMs] [gapMs]
//
// Each instance gets a request every gapMs (default 1) plus the request's
// own time, so the figures include up to that much sampling delay.
import postgres from "postgres";
import { PostgresCluster } from "../scripts/postgres_cluster.ts";
import { quantile, runChanges } from "../tests/e2e/_policy_instances.ts";

const changes = Number(Deno.args[0] ?? 1000);
const pace = Number(Deno.args[1] ?? 20);
const requestGapMs = Number(Deno.args[2] ?? 1);
let url = Deno.env.get("PORTCULLIS_POSTGRES_URL");
let cluster: PostgresCluster | undefined;
if (url === undefined) {
  cluster = await PostgresCluster.start();
  url = cluster.url;
}
const admin = postgres(url, { max: 1, onnotice: () => {} });
try {
  for (const paceMs of [0, pace]) {
    const name = `portcullis_convergence_${Deno.pid}_${paceMs}`;
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name}`);
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const result = await runChanges({
      url: url.replace(/\/[^/]*$/, `/${name}`),
      runtimes: ["deno", "bun", "deno", "bun"],
      changes,
      paceMs,
      requestGapMs,
    });
    await admin.unsafe(`DROP DATABASE ${name} WITH (FORCE)`);
    const c = result.convergenceMs;
    console.log(
      `${changes} changes ${
        paceMs === 0 ? "back to back" : `one every ${paceMs} ms`
      }, a request every ${requestGapMs} ms per instance: ${result.answers} answers, ${result.inconsistent.length} inconsistent, ${result.failed} failed; convergence p50 ${
        quantile(c, 0.5).toFixed(1)
      } ms, p99 ${quantile(c, 0.99).toFixed(1)} ms, max ${
        Math.max(...c).toFixed(1)
      } ms`,
    );
  }
} finally {
  await admin.end();
  await cluster?.stop();
}
