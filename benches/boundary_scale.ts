// Scaling run for merge and linkGraph, beyond what `deno bench` can repeat:
//
//   deno run --allow-all --v8-flags=--expose-gc,--max-old-space-size=20000 \
//     benches/boundary_scale.ts 1e3 1e4 1e5 1e6
//
// For each size N: a client graph (2 consumers per boundary) and a server
// graph (2 providers per boundary) are built, merged, and linked (4 links
// per boundary). Times are wall-clock, after a forced GC, best of `runs`.
// CPU time (user + system of the whole process, so GC threads count) is
// printed too: on a shared machine it varies less than wall-clock time.
// Prints a markdown table.
import process from "node:process";
import { linkGraph } from "../src/boundary/link.ts";
import { sideGraph, wideGraph } from "./_boundary_fixtures.ts";

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const sizes = Deno.args.length > 0 ? Deno.args.map(Number) : [1e3, 1e4, 1e5];

function ms(t: number): string {
  return t >= 1000 ? `${(t / 1000).toFixed(2)} s` : `${t.toFixed(1)} ms`;
}

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(0)} MiB`;
}

// deno-lint-ignore no-console
const print = console.log;
print(
  "| boundaries | relations after link | build both sides | merge | linkGraph (wall) | linkGraph (CPU) | ns per link (wall) | 2nd linkGraph | heap after link |",
);
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const size of sizes) {
  const runs = size >= 1e6 ? 1 : size >= 1e5 ? 2 : 5;
  let build = Infinity;
  let merge = Infinity;
  let link = Infinity;
  let linkCpu = Infinity;
  let again = Infinity;
  let added = 0;
  let relations = 0;
  let heap = 0;
  for (let run = 0; run < runs; run++) {
    gc();
    let t = performance.now();
    const client = sideGraph(size, "client");
    const server = sideGraph(size, "server");
    build = Math.min(build, performance.now() - t);
    gc();
    t = performance.now();
    client.merge(server, { allowShared: true });
    merge = Math.min(merge, performance.now() - t);
    gc();
    t = performance.now();
    const cpu = process.cpuUsage();
    added = linkGraph(client).relationsAdded;
    link = Math.min(link, performance.now() - t);
    const used = process.cpuUsage(cpu);
    linkCpu = Math.min(linkCpu, (used.user + used.system) / 1000);
    t = performance.now();
    linkGraph(client);
    again = Math.min(again, performance.now() - t);
    relations = client.relations.length;
    gc();
    heap = Deno.memoryUsage().heapUsed;
  }
  if (added !== size * 4) throw new Error(`expected ${size * 4} links`);
  print(
    `| ${size.toLocaleString("en")} | ${relations.toLocaleString("en")} | ${
      ms(build)
    } | ${ms(merge)} | ${ms(link)} | ${ms(linkCpu)} | ${
      (link * 1e6 / added).toFixed(0)
    } | ${ms(again)} | ${mib(heap)} |`,
  );
}

{
  gc();
  const graph = wideGraph(1_000, 1_000);
  gc();
  const t = performance.now();
  const cpu = process.cpuUsage();
  const result = linkGraph(graph);
  const took = performance.now() - t;
  const used = process.cpuUsage(cpu);
  print(
    `\nOne boundary, 1,000 consumers x 1,000 providers: ${
      result.relationsAdded.toLocaleString("en")
    } links in ${ms(took)} wall, ${ms((used.user + used.system) / 1000)} CPU (${
      (took * 1e6 / result.relationsAdded).toFixed(0)
    } ns per link, wall)`,
  );
}
