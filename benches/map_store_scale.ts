// deno-lint-ignore-file no-console
// The organisation store at scale: a generated organisation of R
// repositories with P ports each (half routes it serves, half calls to the
// routes of other repositories, a few of them to routes nobody serves),
// published one repository at a time, then the queries: consumers of one
// boundary, a repository's dependencies and dependents, the unmatched
// consumers and links of one repository, and the gate's diff of one
// repository's head graph against the organisation. On PGlite (a temporary
// directory) and on the PostgreSQL server of PORTCULLIS_POSTGRES_URL (a
// fresh database; a throwaway cluster is started when it is not set).
//
//   deno run -A benches/map_store_scale.ts [repos] [portsPerRepo] [pglite|postgres|both]
import postgres from "postgres";
import { addBoundary } from "../src/boundary/add_boundary.ts";
import { BoundaryGraph } from "../src/boundary/graph.ts";
import { OrgStore } from "../src/map/store/mod.ts";
import { PostgresCluster } from "../scripts/postgres_cluster.ts";

const repos = Number(Deno.args[0] ?? 50);
const ports = Number(Deno.args[1] ?? 200);
const which = Deno.args[2] ?? "both";
const ROUNDS = 20;

/** Repository r: routes /r<r>/<i>, and calls to the next repositories' routes. */
function repoGraph(r: number, change = false): BoundaryGraph {
  const graph = new BoundaryGraph({ metadata: { repository: `repo${r}` } });
  const half = Math.floor(ports / 2);
  for (let i = 0; i < half; i++) {
    const owner = `repo${r}:handlers.ts::route${i}`;
    graph.addNode({
      id: owner,
      kind: "function",
      qualifiedName: owner.slice(owner.indexOf(":") + 1),
      name: `route${i}`,
    });
    // The changed head of repository 0 renames its first route.
    const path = change && i === 0 ? `/r${r}/${i}/renamed` : `/r${r}/${i}`;
    addBoundary(graph, owner, {
      mechanism: "http",
      role: "server",
      key: `GET ${path}`,
      line: i + 1,
      col: 1,
      confidence: 1,
      detail: {},
    }, { filePath: "handlers.ts" });
  }
  for (let i = 0; i < ports - half; i++) {
    const owner = `repo${r}:client.ts::call${i}`;
    graph.addNode({
      id: owner,
      kind: "function",
      qualifiedName: owner.slice(owner.indexOf(":") + 1),
      name: `call${i}`,
    });
    const target = (r + 1 + (i % 5)) % repos;
    // One call in 50 goes to a route nobody serves.
    const key = i % 50 === 49
      ? `GET /missing/${r}/${i}`
      : `GET /r${target}/${i % half}`;
    addBoundary(graph, owner, {
      mechanism: "http",
      role: "client",
      key,
      line: i + 1,
      col: 1,
      confidence: 0.9,
      detail: {},
    }, { filePath: "client.ts" });
  }
  return graph;
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

async function median(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) times.push((await time(fn))[0]);
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function run(kind: string, url: string): Promise<void> {
  const graphs = Array.from({ length: repos }, (_, r) => repoGraph(r));
  await using store = await OrgStore.open(url);
  const [publishMs] = await time(async () => {
    for (let r = 0; r < repos; r++) await store.publish(`repo${r}`, graphs[r]!);
  });
  const [republishMs] = await time(() =>
    store.publish("repo0", repoGraph(0, true))
  );
  const [samePublishMs, same] = await time(() =>
    store.publish("repo0", repoGraph(0, true))
  );
  if (same.changed) throw new Error("an identical publish changed the store");
  await store.publish("repo0", graphs[0]!);
  const consumers = await store.consumers({
    mechanism: "http",
    key: "GET /r1/0",
  });
  if (consumers.length === 0) throw new Error("no consumers of GET /r1/0");
  const consumersMs = await median(() =>
    store.consumers({ mechanism: "http", key: "GET /r1/0" })
  );
  const dependenciesMs = await median(() => store.dependencies("repo3"));
  const dependentsMs = await median(() => store.dependents("repo3"));
  const unmatchedMs = await median(() =>
    store.unmatchedConsumers({ repo: "repo3" })
  );
  const linksMs = await median(() => store.links({ repo: "repo3" }));
  const head = repoGraph(0, true);
  const diff = await store.diff("repo0", head);
  if (diff.breaking.length !== 1) {
    throw new Error(`expected 1 breaking change, got ${diff.breaking.length}`);
  }
  const diffMs = await median(() => store.diff("repo0", head));
  const [allLinksMs, all] = await time(() =>
    store.links({ limit: 10_000_000 })
  );
  const [allUnmatchedMs, unmatched] = await time(() =>
    store.unmatchedConsumers({ limit: 10_000_000 })
  );
  const ms = (n: number): string => n.toFixed(n < 10 ? 2 : n < 100 ? 1 : 0);
  console.log(
    `| ${kind} | ${repos} x ${ports} = ${
      (repos * ports).toLocaleString("en")
    } | ${ms(publishMs / 1000)} s (${ms(publishMs / repos)} ms/repo) | ${
      ms(republishMs)
    } | ${ms(samePublishMs)} | ${ms(consumersMs)} | ${ms(dependenciesMs)} / ${
      ms(dependentsMs)
    } | ${ms(unmatchedMs)} | ${ms(linksMs)} | ${ms(diffMs)} | ${
      ms(allLinksMs)
    } (${all.length.toLocaleString("en")}) | ${ms(allUnmatchedMs)} (${
      unmatched.length.toLocaleString("en")
    }) |`,
  );
}

console.log(
  "| backend | ports | publish all | republish one (ms) | same again (ms) | consumers of X (ms) | dependencies / dependents (ms) | unmatched of one repo (ms) | links of one repo (ms) | diff one repo (ms) | all links (ms) | all unmatched (ms) |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
if (which !== "postgres") {
  const dir = await Deno.makeTempDir({ prefix: "portcullis-map-bench-" });
  try {
    await run("PGlite", `pglite:${dir}/org`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
if (which !== "pglite") {
  let url = Deno.env.get("PORTCULLIS_POSTGRES_URL");
  let cluster: PostgresCluster | undefined;
  if (url === undefined) {
    cluster = await PostgresCluster.start();
    url = cluster.url;
  }
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const name = `portcullis_map_bench_${Deno.pid}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  try {
    await run("PostgreSQL 15", url.replace(/\/[^/]*$/, `/${name}`));
  } finally {
    await admin.unsafe(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
    await cluster?.stop();
  }
}
