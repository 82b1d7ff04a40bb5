// deno-lint-ignore-file no-console explicit-function-return-type
// Compares the two PostgreSQL clients that run on Deno, Bun and Node
// (`postgres` and `pg`) on what the database provider does: import, first
// query, a small query's latency, LISTEN/NOTIFY delivery, and reading a
// 100,000-row table, plus the longest event-loop stall during that read.
//
// Run from a scratch project that has both installed:
//
//   npm i postgres@3.4.9 pg@8.23.1
//   cp <repo>/benches/postgres_drivers.mjs .
//   eval "$(deno run -A <repo>/scripts/postgres_cluster.ts start)"
//   for rt in "node" "bun" "deno run -A"; do
//     for d in postgres pg; do $rt postgres_drivers.mjs $d; done
//   done
import process from "node:process";

const driver = process.argv[2] ?? process.argv[1];
const url = process.env.PORTCULLIS_POSTGRES_URL;
if (!url || !["postgres", "pg"].includes(driver)) {
  console.error("Usage: <runtime> postgres_drivers.mjs postgres|pg");
  process.exit(2);
}
const runtime = typeof Deno !== "undefined"
  ? `deno ${Deno.version.deno}`
  : typeof Bun !== "undefined"
  ? `bun ${Bun.version}`
  : `node ${process.version}`;
const ROWS = 100_000;
const QUERIES = 2000;
const NOTIFIES = 300;

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** The same operations over either client. */
async function open() {
  const start = performance.now();
  if (driver === "postgres") {
    const { default: postgres } = await import("postgres");
    const imported = performance.now() - start;
    const sql = postgres(url, { max: 2, onnotice: () => {} });
    const listener = postgres(url, { max: 1, onnotice: () => {} });
    return {
      imported,
      query: (text, params = []) => sql.unsafe(text, params),
      listen: async (channel, fn) => {
        await listener.listen(channel, fn);
      },
      rows: (text) => sql.unsafe(text).values(),
      close: async () => {
        await sql.end();
        await listener.end();
      },
    };
  }
  const { default: pg } = await import("pg");
  const imported = performance.now() - start;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  return {
    imported,
    query: async (text, params = []) => (await pool.query(text, params)).rows,
    listen: async (channel, fn) => {
      listener.on("notification", (message) => fn(message.payload));
      await listener.query(`LISTEN ${channel}`);
    },
    rows: async (text) => (await pool.query({ text, rowMode: "array" })).rows,
    close: async () => {
      await pool.end();
      await listener.end();
    },
  };
}

const client = await open();
let start = performance.now();
await client.query("select 1");
const firstQuery = performance.now() - start;

const latencies = [];
for (let i = 0; i < QUERIES; i++) {
  start = performance.now();
  await client.query("select $1::int as n", [i]);
  latencies.push(performance.now() - start);
}

let waiting;
await client.listen("bench_channel", (payload) => waiting?.(payload));
const deliveries = [];
for (let i = 0; i < NOTIFIES; i++) {
  const delivered = new Promise((resolve) => waiting = resolve);
  start = performance.now();
  await client.query("select pg_notify('bench_channel', $1)", [String(i)]);
  await delivered;
  deliveries.push(performance.now() - start);
}

await client.query("drop table if exists bench_rule");
await client.query(
  "create table bench_rule (id serial primary key, ptype text, v0 text, v1 text, v2 text, v3 text, v4 text, v5 text)",
);
await client.query(
  `insert into bench_rule (ptype, v0, v1, v2) select 'p', 'role' || (i % 5000), 'doc' || i, 'read' from generate_series(1, ${ROWS}) i`,
);
let last = performance.now();
let stall = 0;
const meter = setInterval(() => {
  const now = performance.now();
  stall = Math.max(stall, now - last - 1);
  last = now;
}, 1);
const reads = [];
for (let i = 0; i < 5; i++) {
  start = performance.now();
  const rows = await client.rows(
    "select ptype, v0, v1, v2, v3, v4, v5 from bench_rule order by id",
  );
  if (rows.length !== ROWS) throw new Error("wrong row count");
  reads.push(performance.now() - start);
}
clearInterval(meter);
await client.query("drop table bench_rule");
await client.close();

const ms = (n) => n.toFixed(2);
console.log(
  `${runtime} ${driver}: import ${ms(client.imported)} ms, first query ${
    ms(firstQuery)
  } ms, query p50 ${ms(percentile(latencies, 0.5))} p99 ${
    ms(percentile(latencies, 0.99))
  } ms, notify p50 ${ms(percentile(deliveries, 0.5))} p99 ${
    ms(percentile(deliveries, 0.99))
  } ms, ${ROWS} rows median ${ms(percentile(reads, 0.5))} ms, stall ${
    ms(stall)
  } ms`,
);
