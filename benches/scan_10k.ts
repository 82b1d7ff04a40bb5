// Scans a generated 10,000-file polyglot tree once and prints files/s,
// MB/s and peak memory:
//
//   deno run --allow-read --allow-write --allow-env benches/scan_10k.ts [files]
import process from "node:process";
import { scan } from "../src/extract/scan.ts";
import { generateTree } from "./_scan_tree.ts";

const count = Number(Deno.args[0] ?? 10_000);
const root = await Deno.makeTempDir({ prefix: "portcullis-scan-bench-" });
try {
  const bytes = await generateTree(root, count);
  let peakHeap = 0;
  let peakRss = 0;
  const sample = (): void => {
    const usage = Deno.memoryUsage();
    peakHeap = Math.max(peakHeap, usage.heapUsed);
    peakRss = Math.max(peakRss, usage.rss);
  };
  const timer = setInterval(sample, 20);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await scan([root], { onProgress: sample });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  clearInterval(timer);
  sample();
  const files = result.roots[0]!.files;
  // maxRSS: the process's peak resident set (KiB), generation included
  const maxRssKiB = process.resourceUsage().maxRSS;
  const mb = bytes / 1e6;
  const figures = {
    files,
    megabytes: Number(mb.toFixed(1)),
    seconds: Number(seconds.toFixed(2)),
    filesPerSecond: Math.round(files / seconds),
    megabytesPerSecond: Number((mb / seconds).toFixed(2)),
    cpuSeconds: Number(cpuSeconds.toFixed(2)),
    filesPerCpuSecond: Math.round(files / cpuSeconds),
    megabytesPerCpuSecond: Number((mb / cpuSeconds).toFixed(2)),
    ports: result.ports.length,
    links: result.link.relationsAdded,
    diagnostics: result.diagnostics.length,
    peakHeapMB: Math.round(peakHeap / 1e6),
    peakRssMB: Math.round(peakRss / 1e6),
    processPeakRssMB: Math.round(maxRssKiB * 1024 / 1e6),
  };
  // deno-lint-ignore no-console
  console.log(JSON.stringify(figures, null, 2));
} finally {
  await Deno.remove(root, { recursive: true });
}
