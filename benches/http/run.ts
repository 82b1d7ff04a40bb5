// HTTP load benchmark: the same GET /posts route, bare and guarded, on
// Deno.serve and Bun.serve, and the peers (fastify + fastify-casbin,
// express + casbin-express-authz, Hono + a casbin middleware on Bun and
// Node), measured with wrk one after another in one run.
//
//   deno task bench:http [--duration=10] [--connections=64] [--rounds=1]
//                        [--modes=bare,guarded,logged,unchecked,casbin,header,lookup,promise,equality,restful]
//                        [--only=deno,bun,fastify,express,hono-bun,hono-node]
//
// Installs wrk from Debian (apt-get) and the peers from npm when missing.
import process from "node:process";

const root = new URL("../../", import.meta.url).pathname;
const peers = new URL("peers/", import.meta.url).pathname;
const args = new Map(
  Deno.args.map((arg) => {
    const [key, value = ""] = arg.replace(/^--/, "").split("=");
    return [key!, value];
  }),
);
const duration = Number(args.get("duration") ?? 10);
const connections = Number(args.get("connections") ?? 64);
const rounds = Number(args.get("rounds") ?? 1);
// Modes of the Deno.serve and Bun.serve targets (server.ts); the peers
// always run bare and guarded.
const modes = (args.get("modes") ?? "bare,guarded,casbin").split(",");
const only = args.get("only")?.split(",");

interface Target {
  name: string;
  framework: string;
  mode: string;
  command: string[];
  cwd: string;
}

function bin(name: string): string {
  const local = `${root}.tools/node_modules/.bin/${name}`;
  try {
    Deno.statSync(local);
    return local;
  } catch {
    return name;
  }
}

const deno = Deno.execPath();
const targets: Target[] = [];
for (const mode of modes) {
  targets.push({
    name: "deno",
    framework: "portcullis on Deno.serve",
    mode,
    command: [deno, "run", "-A", "benches/http/server.ts"],
    cwd: root,
  });
}
for (const mode of modes) {
  targets.push({
    name: "bun",
    framework: "portcullis on Bun.serve",
    mode,
    command: [bin("bun"), "run", "benches/http/server.ts"],
    cwd: root,
  });
}
for (const mode of ["bare", "guarded"] as const) {
  targets.push({
    name: "fastify",
    framework: "fastify + fastify-casbin (Node)",
    mode,
    command: ["node", "fastify.mjs"],
    cwd: peers,
  });
  targets.push({
    name: "express",
    framework: "express + casbin-express-authz (Node)",
    mode,
    command: ["node", "express.mjs"],
    cwd: peers,
  });
  targets.push({
    name: "hono-bun",
    framework: "Hono + casbin middleware (Bun)",
    mode,
    command: [bin("bun"), "run", "hono.mjs"],
    cwd: peers,
  });
  targets.push({
    name: "hono-node",
    framework: "Hono + casbin middleware (Node)",
    mode,
    command: ["node", "hono.mjs"],
    cwd: peers,
  });
}

async function sh(command: string, cwd = root): Promise<void> {
  const status = await new Deno.Command("bash", {
    args: ["-c", command],
    cwd,
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  if (!status.success) throw new Error(`Cannot run: ${command}`);
}

async function ensureTools(): Promise<void> {
  const which = await new Deno.Command("bash", {
    args: ["-c", "command -v wrk"],
    stdout: "null",
  }).output();
  if (!which.success) {
    await sh("apt-get update -qq && apt-get install -y -qq wrk >/dev/null");
  }
  try {
    Deno.statSync(`${peers}node_modules/fastify`);
  } catch {
    await sh("npm install --no-audit --no-fund --loglevel=error", peers);
  }
  await sh(`"${deno}" install --quiet`);
}

let nextPort = 18_000 + Math.floor(Math.random() * 1_000);

async function waitUntilUp(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/posts`, {
        headers: { authorization: "Bearer viewer" },
      });
      await response.body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`Cannot reach the server on port ${port}`);
}

async function statusFor(port: number, token: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/posts`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await response.body?.cancel();
  return response.status;
}

interface Measurement {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  /** CPU time of the server process (all its threads) per request. */
  cpuUsPerRequest: number;
}

/** User + system CPU time of a process so far, in µs (Linux /proc). */
function cpuTimeUs(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // Fields after the command name, which is in parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
    return (ticks * 1_000_000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return Number.NaN;
  }
}

function toMs(value: string): number {
  const match = value.match(/^([\d.]+)(us|ms|s|m)$/);
  if (!match) return Number.NaN;
  const n = Number(match[1]);
  return match[2] === "us"
    ? n / 1000
    : match[2] === "ms"
    ? n
    : match[2] === "s"
    ? n * 1000
    : n * 60_000;
}

async function wrk(
  port: number,
  seconds: number,
  pid: number,
): Promise<Measurement> {
  const cpuBefore = cpuTimeUs(pid);
  const output = await new Deno.Command("wrk", {
    args: [
      "-t2",
      `-c${connections}`,
      `-d${seconds}s`,
      "--latency",
      "-H",
      "Authorization: Bearer viewer",
      `http://127.0.0.1:${port}/posts`,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  const rps = Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1]);
  const p99 = toMs(text.match(/\s99%\s+(\S+)/)?.[1] ?? "");
  const non2xx = Number(
    text.match(/Non-2xx or 3xx responses:\s+(\d+)/)?.[1] ?? 0,
  );
  const requests = Number(text.match(/(\d+) requests in/)?.[1]);
  const cpuUsPerRequest = (cpuTimeUs(pid) - cpuBefore) / requests;
  return { requestsPerSecond: rps, p99Ms: p99, non2xx, cpuUsPerRequest };
}

async function measure(target: Target): Promise<Measurement> {
  const port = nextPort++;
  const child = new Deno.Command(target.command[0]!, {
    args: target.command.slice(1),
    cwd: target.cwd,
    env: {
      MODE: target.mode,
      PORT: String(port),
      NODE_ENV: "production",
      __MINIMATCH_TESTING_PLATFORM__: "",
    },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  try {
    await waitUntilUp(port);
    // The guard is really on: a known role passes, an unknown one does not.
    const allowed = await statusFor(port, "viewer");
    const denied = await statusFor(port, "nobody");
    const guarded = [
      "guarded",
      "logged",
      "unchecked",
      "casbin",
      "equality",
      "restful",
    ].includes(target.mode);
    if (allowed !== 200 || (guarded && denied !== 403)) {
      throw new Error(
        `${target.name} ${target.mode}: viewer got ${allowed}, nobody got ${denied}`,
      );
    }
    await wrk(port, 2, child.pid); // warm-up
    return await wrk(port, duration, child.pid);
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
}

await ensureTools();
// Each round measures every target once, in order, so that bare and guarded
// runs of one server alternate; a target's req/s and p99 are those of its
// best round (the one least disturbed by other load on the machine), and
// its server CPU time per request the least of its rounds. CPU time per
// request, read from /proc for the server process and all its threads,
// is the steadier measure on a shared machine: wrk and other jobs take
// CPU from the server, but do not add to its own time.
const selected = targets.filter((target) =>
  !only || only.includes(target.name)
);
const best = new Map<Target, Measurement>();
const leastCpu = new Map<Target, number>();
for (let round = 1; round <= rounds; round++) {
  for (const target of selected) {
    const measurement = await measure(target);
    // deno-lint-ignore no-console
    console.error(
      `round ${round}: ${target.name} ${target.mode}: ${
        measurement.requestsPerSecond.toFixed(0)
      } req/s, p99 ${measurement.p99Ms.toFixed(2)} ms, server CPU ${
        measurement.cpuUsPerRequest.toFixed(1)
      } µs/req`,
    );
    leastCpu.set(
      target,
      Math.min(leastCpu.get(target) ?? Infinity, measurement.cpuUsPerRequest),
    );
    const previous = best.get(target);
    if (
      previous === undefined ||
      measurement.requestsPerSecond > previous.requestsPerSecond
    ) {
      best.set(target, measurement);
    }
  }
}
const results: (Target & Measurement)[] = selected.map((target) => ({
  ...target,
  ...best.get(target)!,
  cpuUsPerRequest: leastCpu.get(target)!,
}));

const lines = [
  `wrk -t2 -c${connections} -d${duration}s, best of ${rounds} round(s), GET /posts with "Authorization: Bearer viewer", ${
    new Date().toISOString().slice(0, 10)
  }, ${Deno.build.os}/${Deno.build.arch}, Deno ${Deno.version.deno}, node ${process.versions.node} (as Deno reports it)`,
  "",
  "| target | mode | req/s | p99 (ms) | non-2xx | ratio to bare | server CPU µs/req | CPU ratio bare/this |",
  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
];
for (const result of results) {
  const bare = results.find((r) => r.name === result.name && r.mode === "bare");
  const ratio = bare ? result.requestsPerSecond / bare.requestsPerSecond : NaN;
  const cpuRatio = bare ? bare.cpuUsPerRequest / result.cpuUsPerRequest : NaN;
  lines.push(
    `| ${result.framework} | ${result.mode} | ${
      result.requestsPerSecond.toFixed(0)
    } | ${result.p99Ms.toFixed(2)} | ${result.non2xx} | ${ratio.toFixed(3)} | ${
      result.cpuUsPerRequest.toFixed(1)
    } | ${cpuRatio.toFixed(3)} |`,
  );
}
// deno-lint-ignore no-console
console.log(lines.join("\n"));
