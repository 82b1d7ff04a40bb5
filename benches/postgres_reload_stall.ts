// deno-lint-ignore-file no-console
// The longest event-loop stall while a 100,000-rule policy in PostgreSQL is
// changed and reloaded five times (read in pages, built in the worker), and
// how long each reload takes from the commit to the swap. Runs under Deno
// and Bun; uses PORTCULLIS_POSTGRES_URL, or starts a throwaway cluster.
//
//   deno run -A benches/postgres_reload_stall.ts [worker|main]
//   bun benches/postgres_reload_stall.ts [worker|main]
import process from "node:process";
import postgres from "postgres";
import {
  PolicyDatabase,
  PostgresEnforcerProvider,
} from "../src/guard/postgres/mod.ts";

const RULES = 100_000;
const RELOADS = 5;
const loadIn = process.argv[2] === "main" ? "main" : "worker";
const runtime = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined"
  ? "bun"
  : "deno";

const MODEL = `[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
`;

let url = process.env.PORTCULLIS_POSTGRES_URL;
let stopCluster = async (): Promise<void> => {};
if (url === undefined) {
  const { PostgresCluster } = await import("../scripts/postgres_cluster.ts");
  const cluster = await PostgresCluster.start();
  url = cluster.url;
  stopCluster = () => cluster.stop();
}
const admin = postgres(url, { max: 1, onnotice: () => {} });
const name = `portcullis_stall_${process.pid}`;
await admin.unsafe(`DROP DATABASE IF EXISTS ${name}`);
await admin.unsafe(`CREATE DATABASE ${name}`);
const dbUrl = url.replace(/\/[^/]*$/, `/${name}`);

const database = await PolicyDatabase.open(dbUrl);
const sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
await sql.unsafe(
  `INSERT INTO casbin_rule (ptype, v0, v1, v2) SELECT 'p', 'role' || (i % 5000), 'doc' || i, 'read' FROM generate_series(1, ${
    RULES - 1
  }) i`,
);
await sql.unsafe(
  "INSERT INTO casbin_rule (ptype, v0, v1, v2) VALUES ('p', 'editor', 'post', 'v0')",
);

let reloaded = (): void => {};
const reloads: {
  durationMs: number;
  loadedIn: string;
  commitToSwap: number;
}[] = [];
let committedAt = 0;
const provider = await PostgresEnforcerProvider.open({
  database,
  model: MODEL,
  loadIn,
  onReload: (event) => {
    reloads.push({
      durationMs: event.durationMs,
      loadedIn: event.loadedIn,
      commitToSwap: performance.now() - committedAt,
    });
    reloaded();
  },
});
await new Promise((resolve) => setTimeout(resolve, 500));

let last = performance.now();
let longest = 0;
const meter = setInterval(() => {
  const now = performance.now();
  longest = Math.max(longest, now - last - 1);
  last = now;
}, 1);
let wrong = 0;
for (let i = 1; i <= RELOADS; i++) {
  const done = new Promise<void>((resolve) => reloaded = resolve);
  // Another instance's write: this process learns of it by NOTIFY.
  await sql.unsafe(
    `UPDATE casbin_rule SET v2 = 'v${i}' WHERE v0 = 'editor' AND v1 = 'post'`,
  );
  committedAt = performance.now();
  await done;
  const enforcer = await provider.getEnforcer();
  if (await enforcer.enforce({ role: "editor" }, "post", `v${i}`) !== true) {
    wrong++;
  }
}
clearInterval(meter);
await provider.close();
await database.close();
await sql.end();
await admin.unsafe(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();
await stopCluster();

const ms = (values: number[]): string =>
  values.map((v) => v.toFixed(0)).join(", ");
console.log(
  `${runtime} ${loadIn}: ${RULES} rules, ${RELOADS} reloads (loaded in ${
    reloads.map((r) => r.loadedIn)[0]
  }); commit to swap ${
    ms(reloads.map((r) => r.commitToSwap))
  } ms; longest event-loop stall ${
    longest.toFixed(1)
  } ms; wrong answers ${wrong}`,
);
