// deno bench --allow-read --allow-write --allow-env benches/scan_bench.ts
//
// A scan of a generated 500-file polyglot tree (walk, read, every
// extractor, graph, link), and the JavaScript extractor alone on the
// tree's TypeScript files held in memory. The 10,000-file run with files/s,
// MB/s and peak memory is benches/scan_10k.ts.
import { scan } from "../src/extract/scan.ts";
import { javascriptExtractor } from "../src/extract/javascript/mod.ts";
import type { SourceFile } from "../src/extract/extractor.ts";
import { generateTree } from "./_scan_tree.ts";

const root = await Deno.makeTempDir({ prefix: "portcullis-scan-bench-" });
await generateTree(root, 500);
const tsFiles: SourceFile[] = [];
for await (const svc of Deno.readDir(root)) {
  for await (const pkg of Deno.readDir(`${root}/${svc.name}`)) {
    for await (const file of Deno.readDir(`${root}/${svc.name}/${pkg.name}`)) {
      if (!file.name.endsWith(".ts")) continue;
      const path = `${svc.name}/${pkg.name}/${file.name}`;
      tsFiles.push({ path, text: await Deno.readTextFile(`${root}/${path}`) });
    }
  }
}

Deno.bench("scan() 500 generated files (6 languages)", async () => {
  const result = await scan([root]);
  if (result.ports.length === 0) throw new Error("no ports found");
});

Deno.bench(
  `javascriptExtractor on ${tsFiles.length} TypeScript files`,
  async () => {
    const { ports } = await javascriptExtractor.extract(tsFiles);
    if (ports.length === 0) throw new Error("no ports found");
  },
);

globalThis.addEventListener("unload", () => {
  Deno.removeSync(root, { recursive: true });
});
