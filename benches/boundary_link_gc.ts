// Shows how much of linkGraph's time goes to V8's garbage collector:
//
//   deno run --allow-all --v8-flags=--expose-gc,--trace-gc \
//     benches/boundary_link_gc.ts 100000
//
// The two forced collections (`... (testing)` in the trace) bracket the
// linkGraph call: the GC lines between them are the pauses it caused. The
// last line (on stderr) gives its wall and CPU time in ms.
import process from "node:process";
import { linkGraph } from "../src/boundary/link.ts";
import { mergedGraph } from "./_boundary_fixtures.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("Run with --v8-flags=--expose-gc");
const size = Number(Deno.args[0] ?? 100_000);
const graph = mergedGraph(size);
gc();
const cpu = process.cpuUsage();
const start = performance.now();
const result = linkGraph(graph);
const wall = performance.now() - start;
const used = process.cpuUsage(cpu);
gc();
Deno.stderr.writeSync(
  new TextEncoder().encode(
    `boundaries ${size}: ${result.relationsAdded} links, wall ${
      wall.toFixed(0)
    } ms, cpu ${((used.user + used.system) / 1000).toFixed(0)} ms\n`,
  ),
);
