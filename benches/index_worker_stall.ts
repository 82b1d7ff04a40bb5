// deno-lint-ignore-file no-console
// How long the event loop stalls while a 100,000-rule RESTful RBAC policy
// (`g(r.sub, p.sub) && keyMatch2(r.obj, p.obj) && regexMatch(r.act,
// p.act)`) is loaded and indexed, and the first decisions after it:
//
// - `CachedFileEnforcerProvider`, `loadIn: "worker"` (the default for a
//   policy this size): parsed, validated and indexed in its worker, the
//   index's buffers transferred to the event loop;
// - the same with `loadIn: "main"` (parsed in slices on the event loop,
//   then indexed in slices by `indexEnforcer`);
// - `IndexedEnforcer.build()` and `IndexedEnforcer.from()` on an enforcer
//   already built (the index alone, in slices and synchronously);
// - nothing at all for 3 s: the noise floor of the machine.
//
//   deno run --allow-all benches/index_worker_stall.ts [--rules=100000]
//
// A 1 ms interval timer samples the event loop: the longest gap past 1 ms
// is the stall, and the event loop thread's own CPU time within the
// longest-running gap (Linux) separates its work from waiting for a core.
// Each way runs three times; the table gives each round.
import process from "node:process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Enforcer,
  newEnforcer,
  newModelFromString,
  StringAdapter,
} from "casbin";
import { CachedFileEnforcerProvider } from "../src/guard/cached_file_enforcer_provider.ts";
import { IndexedEnforcer } from "../src/guard/indexed_enforcer.ts";

const MODEL = `[request_definition]
r = sub, obj, act

[policy_definition]
p = sub, obj, act

[role_definition]
g = _, _

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
m = g(r.sub, p.sub) && keyMatch2(r.obj, p.obj) && regexMatch(r.act, p.act)
`;

const prefix = "--rules=";
const rules = Number(
  Deno.args.find((a) => a.startsWith(prefix))?.slice(prefix.length) ??
    100_000,
);
const last = rules - 1;
const request = ["alice", `/api/svc${last}/items/7`, "GET"];

/** The policy's text (not kept: a server's heap does not hold it either). */
function policyText(): string {
  const lines: string[] = [];
  for (let i = 0; i < rules; i++) {
    lines.push(`p, role${i}, /api/svc${i}/items/:id, (GET)|(POST)`);
  }
  lines.push(`g, alice, role${last}`);
  return lines.join("\n") + "\n";
}

/**
 * CPU time of the calling thread (the event loop's), in ms, from Linux's
 * scheduler statistics; NaN elsewhere.
 */
function threadCpuMs(): number {
  try {
    return Number(
      readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0],
    ) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/**
 * Longest time the event loop was blocked, sampled by a 1 ms interval: the
 * longest gap between two ticks (wall clock, which also counts the time the
 * thread waited for a core on a loaded machine), and the most CPU time the
 * event loop's thread used within one gap (its own work: what an idle
 * machine would have stalled for).
 */
function stallMeter(): {
  wall: () => number;
  cpu: () => number;
  stop: () => void;
} {
  let previous = performance.now();
  let previousCpu = threadCpuMs();
  let wall = 0;
  let cpu = 0;
  const id = setInterval(() => {
    const now = performance.now();
    const nowCpu = threadCpuMs();
    wall = Math.max(wall, now - previous - 1);
    cpu = Math.max(cpu, nowCpu - previousCpu);
    previous = now;
    previousCpu = nowCpu;
  }, 1);
  return { wall: () => wall, cpu: () => cpu, stop: () => clearInterval(id) };
}

const dir = await mkdtemp(join(tmpdir(), "portcullis-stall-"));
const modelPath = join(dir, "model.conf");
const policyPath = join(dir, "policy.csv");
await writeFile(modelPath, MODEL);
await writeFile(policyPath, policyText());
const megabytes = ((await stat(policyPath)).size / 1e6).toFixed(1);

async function provider(loadIn: "worker" | "main"): Promise<string> {
  const opened = await CachedFileEnforcerProvider.open({
    modelPath,
    policyPath,
    loadIn,
    pollIntervalMs: 0,
  });
  try {
    const enforcer = await opened.getEnforcer();
    // The first decisions compile the patterns they test.
    for (let i = 0; i < 100; i++) {
      if (await enforcer.enforce(...request) !== true) {
        throw new Error("the request must be allowed");
      }
    }
    return enforcer.constructor.name;
  } finally {
    await opened.close();
  }
}

// Built once the provider rounds are done: its heap would burden their
// garbage collections.
let casbin: Enforcer | undefined;
async function built(): Promise<Enforcer> {
  return casbin ??= await newEnforcer(
    newModelFromString(MODEL),
    new StringAdapter(await readFile(policyPath, "utf8")),
  );
}
// Each way three times in a row, the event-loop loads last: the garbage
// they leave would burden the collections of the rounds after them.
const ways: [string, () => Promise<string>][] = [
  [`provider, loadIn: "worker"`, () => provider("worker")],
  [
    "nothing (3 s)",
    () => new Promise((resolve) => setTimeout(() => resolve("-"), 3000)),
  ],
  [`provider, loadIn: "main"`, () => provider("main")],
  [
    "IndexedEnforcer.build() alone (in slices)",
    async () => (await IndexedEnforcer.build(await built())).constructor.name,
  ],
  [
    "IndexedEnforcer.from() alone (synchronous)",
    async () => IndexedEnforcer.from(await built()).constructor.name,
  ],
];

console.log(
  `${rules.toLocaleString("en")}-rule RESTful RBAC policy (${megabytes} MB)\n`,
);
console.log(
  "| load | round | served by | wall ms | CPU ms (all threads) | longest event-loop stall, wall ms | its CPU ms |",
);
console.log("| --- | ---: | --- | ---: | ---: | ---: | ---: |");
for (const [name, load] of ways) {
  // The enforcer the last two ways index is built outside their rounds.
  if (name.startsWith("IndexedEnforcer")) await built();
  for (let round = 1; round <= 3; round++) await measure(name, round, load);
}
await rm(dir, { recursive: true });

async function measure(
  name: string,
  round: number,
  load: () => Promise<string>,
): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 200));
  const stall = stallMeter();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const servedBy = await load();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await new Promise((resolve) => setTimeout(resolve, 5));
  stall.stop();
  console.log(
    `| ${name} | ${round} | ${servedBy} | ${wall.toFixed(0)} | ${
      ((used.user + used.system) / 1000).toFixed(0)
    } | ${stall.wall().toFixed(1)} | ${stall.cpu().toFixed(1)} |`,
  );
}
