// deno-lint-ignore-file no-console
// Reloading a 100k-line policy while requests flow.
//
// `deno bench --allow-all benches/reload_bench.ts` compares the cost of
// building an enforcer from a large policy: casbin's own loader against the
// sliced builder of CachedFileEnforcerProvider.
//
// `deno run --allow-all benches/reload_bench.ts` runs the latency
// experiment: a server (a subprocess) answers a guarded-style request
// (get the enforcer, decide) while this process rewrites its 100k-line
// policy file every second, alternating in-place writes and atomic renames,
// and sends requests at a fixed rate (open loop: latency counts from the
// moment a request was due, so a stalled server cannot hide its stall).
// It prints request latency p50/p99/max, wrong answers, and the server's
// longest event-loop stall, for these ways of reloading:
//
// - `casbin-loadPolicy`: a casbin enforcer and `fs.watch` that calls
//   `loadPolicy()` on the live enforcer (the common hand-written approach);
// - `provider`: CachedFileEnforcerProvider, default options (a policy this
//   large is parsed and indexed in the provider's worker thread, and
//   requests keep the last good enforcer meanwhile);
// - `provider-fresh`: the same with `staleWhileReload: false` (requests
//   after a change wait for the new policy);
// - `provider-main`: `loadIn: "main"` (parsed and indexed on the event
//   loop, in slices; requests after a change wait for the new policy);
// - `provider-casbin`: serving casbin's enforcer itself (no index:
//   `prepare: (e) => e`, which loads on the event loop; requests after a
//   change wait for the new policy);
// - `provider-idle`: the provider with no rewrites, the noise floor of the
//   machine and of the load generator.
//
// Options: --seconds=N (default 20), --rate=N requests/s (default 400),
// --lines=N policy lines (default 100000), --modes=a,b.
//
// `deno run --allow-all benches/reload_bench.ts --build` instead builds a
// 100k-line enforcer in this process, three times each way, and prints wall
// time, CPU time (of the process: the worker's included) and the longest
// event-loop stall of each build.
import { newEnforcer, newModelFromString, StringAdapter } from "casbin";
import process from "node:process";
import { watch } from "node:fs";
import { mkdtemp, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildEnforcer, probeModel } from "../src/guard/_policy/build.ts";
import { CompiledEnforcer } from "../src/guard/_index/compiled_enforcer.ts";
import { sampleOf } from "../src/guard/_policy/compile.ts";
import { PolicyWorker } from "../src/guard/_policy/worker_client.ts";
import { CachedFileEnforcerProvider } from "../src/guard/cached_file_enforcer_provider.ts";
import type { Enforcer } from "../src/guard/enforcer.ts";
import { indexEnforcer } from "../src/guard/indexed_enforcer.ts";

const MODEL = `[request_definition]
r = sub, obj, act

[policy_definition]
p = sub, obj, act

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
`;

/**
 * A policy of `lines` rules. The rule the probe requests hit comes first,
 * so casbin's linear scan stops at once and decision cost stays flat: the
 * latency measured is the reload's, not the policy size's. `variant`
 * changes the last rule, so successive versions differ.
 */
function policyText(lines: number, variant: number): string {
  const rows = ["p, viewer, post, read"];
  for (let i = 1; i < lines - 1; i++) {
    rows.push(`p, role${i % 5000}, doc${i}, read`);
  }
  rows.push(`p, editor, post, v${variant}`);
  return rows.join("\n") + "\n";
}

const BUILD_LINES = 10_000;
const buildPolicy = policyText(BUILD_LINES, 0);

Deno.bench({
  name: `casbin newEnforcer + StringAdapter, ${BUILD_LINES} lines`,
  group: "build",
  baseline: true,
  n: 5,
  warmup: 1,
  async fn(): Promise<void> {
    await newEnforcer(
      newModelFromString(MODEL),
      new StringAdapter(buildPolicy),
    );
  },
});

Deno.bench({
  name: `provider build (parse + validate + probe), ${BUILD_LINES} lines`,
  group: "build",
  n: 5,
  warmup: 1,
  async fn(): Promise<void> {
    await buildEnforcer(MODEL, buildPolicy);
  },
});

// The per-request cost of change detection: the provider's getEnforcer()
// when nothing changed, against a stat of the policy file per request.
let checkProvider: CachedFileEnforcerProvider | undefined;

/** A provider over a small policy; its files are removed once it loaded. */
async function checkedProvider(): Promise<CachedFileEnforcerProvider> {
  if (checkProvider === undefined) {
    const dir = Deno.makeTempDirSync({ prefix: "portcullis-check-bench-" });
    Deno.writeTextFileSync(join(dir, "model.conf"), MODEL);
    Deno.writeTextFileSync(join(dir, "policy.csv"), policyText(100, 0));
    checkProvider = await CachedFileEnforcerProvider.open({
      modelPath: join(dir, "model.conf"),
      policyPath: join(dir, "policy.csv"),
      watch: false,
      pollIntervalMs: 0,
    });
    Deno.removeSync(dir, { recursive: true });
  }
  return checkProvider;
}

Deno.bench({
  name: "provider.getEnforcer(), nothing changed",
  group: "per-request change check",
  baseline: true,
  async fn(b): Promise<void> {
    const provider = await checkedProvider();
    b.start();
    await provider.getEnforcer();
    b.end();
  },
});

Deno.bench({
  name: "fs.promises.stat(a file) per request",
  group: "per-request change check",
  async fn(): Promise<void> {
    await stat(import.meta.filename!);
  },
});

/** Longest time the event loop was blocked, sampled by a 1 ms interval. */
function stallMeter(): { max: () => number; stop: () => void } {
  let last = performance.now();
  let max = 0;
  const id = setInterval(() => {
    const now = performance.now();
    max = Math.max(max, now - last - 1);
    last = now;
  }, 1);
  return { max: () => max, stop: () => clearInterval(id) };
}

async function serve(mode: string, dir: string): Promise<void> {
  const modelPath = join(dir, "model.conf");
  const policyPath = join(dir, "policy.csv");
  const reloadMs: number[] = [];
  let errors = 0;
  const waits: number[] = [];
  let source: { getEnforcer(): Enforcer | Promise<Enforcer> };
  let close: () => Promise<void>;
  if (mode === "casbin-loadPolicy") {
    const enforcer = await newEnforcer(modelPath, policyPath);
    let running: Promise<void> | undefined;
    const watcher = watch(dir, (_event, name) => {
      if (name !== "policy.csv" || running) return;
      running = (async () => {
        const started = performance.now();
        try {
          await enforcer.loadPolicy();
          reloadMs.push(performance.now() - started);
        } catch {
          // A half-written file: the next event reloads again.
        }
        running = undefined;
      })();
    });
    source = { getEnforcer: () => enforcer };
    close = () => {
      watcher.close();
      return Promise.resolve();
    };
  } else {
    const provider = await CachedFileEnforcerProvider.open({
      modelPath,
      policyPath,
      ...(mode === "provider-fresh" ? { staleWhileReload: false } : {}),
      ...(mode === "provider-main" ? { loadIn: "main" as const } : {}),
      ...(mode === "provider-casbin" ? { prepare: (e: Enforcer) => e } : {}),
      onReload: (event) => reloadMs.push(event.durationMs),
      onError: () => errors++,
    });
    source = provider;
    close = () => provider.close();
  }
  const stall = stallMeter();
  const viewer = { role: "viewer" };
  const server = Deno.serve({
    port: 0,
    hostname: "127.0.0.1",
    onListen: ({ port }) => console.log(`PORT ${port}`),
  }, async (request) => {
    if (new URL(request.url).pathname === "/stats") {
      waits.sort((a, b) => a - b);
      return Response.json({
        maxStallMs: stall.max(),
        reloadMs,
        errors,
        waited: waits.length,
        longestWaitMs: waits.at(-1) ?? 0,
      });
    }
    try {
      const pending = source.getEnforcer();
      let enforcer: Enforcer;
      if (pending instanceof Promise) {
        const started = performance.now();
        enforcer = await pending;
        waits.push(performance.now() - started);
      } else enforcer = pending;
      const allowed = await enforcer.enforce(viewer, "post", "read");
      return new Response(allowed === true ? "allowed" : "denied", {
        status: allowed === true ? 200 : 403,
      });
    } catch {
      return new Response("error", { status: 500 });
    }
  });
  await new Promise<void>((resolve) => {
    Deno.addSignalListener("SIGTERM", () => resolve());
  });
  stall.stop();
  await server.shutdown();
  await close();
  Deno.exit(0);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

interface Result {
  mode: string;
  requests: number;
  wrong: number;
  p50: number;
  p99: number;
  max: number;
  reloads: number;
  reloadMean: number;
  maxStallMs: number;
}

async function measure(
  mode: string,
  options: { seconds: number; rate: number; lines: number },
): Promise<Result> {
  const dir = await mkdtemp(join(tmpdir(), "portcullis-reload-bench-"));
  const policyPath = join(dir, "policy.csv");
  await writeFile(join(dir, "model.conf"), MODEL);
  await writeFile(policyPath, policyText(options.lines, 0));
  const versions = [1, 2].map((v) => policyText(options.lines, v));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", import.meta.filename!, "--serve", mode, dir],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  while (!buffered.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("Cannot run benchmark: the server exited");
    buffered += value;
  }
  const port = Number(/PORT (\d+)/.exec(buffered)![1]);
  const url = `http://127.0.0.1:${port}/`;
  // Warm up the connection pool and the JIT.
  for (let i = 0; i < 200; i++) await (await fetch(url)).text();

  const latencies: number[] = [];
  let wrong = 0;
  let stop = false;
  const writer = (async () => {
    let n = 0;
    while (!stop && mode !== "provider-idle") {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (stop) break;
      const text = versions[n % 2]!;
      if (n % 2 === 0) {
        await writeFile(policyPath, text);
      } else {
        const temporary = join(dir, `.policy-${n}.tmp`);
        await writeFile(temporary, text);
        await rename(temporary, policyPath);
      }
      n++;
    }
  })();
  const interval = 1000 / options.rate;
  const start = performance.now();
  const end = start + options.seconds * 1000;
  const inFlight = new Set<Promise<void>>();
  for (let due = start; due < end; due += interval) {
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const scheduled = due;
    const request = (async () => {
      try {
        const response = await fetch(url);
        const body = await response.text();
        if (response.status !== 200 || body !== "allowed") wrong++;
      } catch {
        wrong++;
      }
      latencies.push(performance.now() - scheduled);
    })();
    inFlight.add(request);
    request.finally(() => inFlight.delete(request));
  }
  stop = true;
  await writer;
  await Promise.all(inFlight);
  const stats = await (await fetch(`${url}stats`)).json() as {
    maxStallMs: number;
    reloadMs: number[];
    errors: number;
    waited: number;
    longestWaitMs: number;
  };
  console.error(
    `${mode}: ${stats.errors} reload errors, ${stats.waited} requests waited for a reload, longest wait ${
      stats.longestWaitMs.toFixed(0)
    } ms`,
  );
  await reader.cancel();
  child.kill("SIGTERM");
  await child.status;
  await rm(dir, { recursive: true });
  latencies.sort((a, b) => a - b);
  return {
    mode,
    requests: latencies.length,
    wrong,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1) ?? NaN,
    reloads: stats.reloadMs.length,
    reloadMean: stats.reloadMs.reduce((a, b) => a + b, 0) /
      Math.max(1, stats.reloadMs.length),
    maxStallMs: stats.maxStallMs,
  };
}

async function measureBuilds(lines: number): Promise<void> {
  const text = policyText(lines, 0);
  const ways: [string, () => Promise<unknown>][] = [
    [
      "casbin newEnforcer + StringAdapter",
      () => newEnforcer(newModelFromString(MODEL), new StringAdapter(text)),
    ],
    ["provider build (sliced)", () => buildEnforcer(MODEL, text)],
    [
      "provider build + indexEnforcer (loadIn: main)",
      async () => indexEnforcer((await buildEnforcer(MODEL, text)).enforcer),
    ],
    [
      "provider load in the worker (the default for this size)",
      async () => {
        const result = await worker.compile({
          modelText: MODEL,
          policyBytes: bytes,
          functionNames: [],
          allowEmptyPolicy: false,
        });
        if (result.kind !== "compiled") throw new Error(result.kind);
        await probeModel(MODEL, sampleOf(result));
        return new CompiledEnforcer(result.index, () => {
          throw new Error("not needed");
        });
      },
    ],
  ];
  // Started once, as the provider does.
  const bytes = new TextEncoder().encode(text);
  const worker = await PolicyWorker.start();
  console.log(`${lines}-line policy, built in-process\n`);
  console.log(
    "| build | round | wall ms | CPU ms | longest event-loop stall ms |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (let round = 1; round <= 3; round++) {
    for (const [name, build] of ways) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const stall = stallMeter();
      const cpu = process.cpuUsage();
      const started = performance.now();
      await build();
      const wall = performance.now() - started;
      const used = process.cpuUsage(cpu);
      await new Promise((resolve) => setTimeout(resolve, 5));
      stall.stop();
      console.log(
        `| ${name} | ${round} | ${wall.toFixed(0)} | ${
          ((used.user + used.system) / 1000).toFixed(0)
        } | ${stall.max().toFixed(1)} |`,
      );
    }
  }
  worker.terminate();
}

function flag(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return Deno.args.find((a) => a.startsWith(prefix))?.slice(prefix.length) ??
    fallback;
}

if (import.meta.main) {
  if (Deno.args[0] === "--serve") {
    await serve(Deno.args[1]!, Deno.args[2]!);
  } else if (Deno.args.includes("--build")) {
    await measureBuilds(Number(flag("lines", "100000")));
  } else {
    const options = {
      seconds: Number(flag("seconds", "20")),
      rate: Number(flag("rate", "400")),
      lines: Number(flag("lines", "100000")),
    };
    const modes = flag(
      "modes",
      "casbin-loadPolicy,provider,provider-fresh,provider-main,provider-casbin,provider-idle",
    )
      .split(",");
    const ms = (n: number): string => n.toFixed(1);
    console.log(
      `${options.lines}-line policy rewritten every 1 s for ${options.seconds} s, ${options.rate} requests/s\n`,
    );
    console.log(
      "| reload method | requests | wrong answers | p50 ms | p99 ms | max ms | reloads | mean reload ms | longest event-loop stall ms |",
    );
    console.log(
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const mode of modes) {
      const r = await measure(mode, options);
      console.log(
        `| ${r.mode} | ${r.requests} | ${r.wrong} | ${ms(r.p50)} | ${
          ms(r.p99)
        } | ${ms(r.max)} | ${r.reloads} | ${ms(r.reloadMean)} | ${
          ms(r.maxStallMs)
        } |`,
      );
    }
  }
}
