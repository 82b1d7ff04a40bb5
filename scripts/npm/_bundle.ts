// The JavaScript of one npm package: ESM bundles of its entry points and
// executables (esbuild, code splitting so entry points share chunks). An
// import of a source file another npm package holds becomes an import of
// that package's entry point, so both packages share one copy of it (one
// BoundaryGraph class, not two).
import * as esbuild from "esbuild";
import { basename, dirname, join, relative } from "node:path";
import { packageName } from "./_declarations.ts";
import { entryOfFile, NPM_DIR, type NpmPackage } from "./layout.ts";

/** A module started as a worker: an entry point of its own. */
interface Worker {
  source: string;
  startedBy: string;
  /** The string literal that names it, relative to the starting module. */
  literal: string;
}

const WORKERS: readonly Worker[] = [{
  source: "./src/guard/_policy/worker.ts",
  startedBy: "src/guard/_policy/worker_client.ts",
  literal: '"./worker.ts"',
}];

/** The output path of a source file: ./src/x.ts -> ./esm/src/x.js. */
export function jsPath(file: string): string {
  return `./esm/${file.replace(/^\.\//, "").replace(/\.ts$/, ".js")}`;
}

/**
 * Bundles `npm` into NPM_DIR/<name>/esm and returns the bare packages the
 * bundles import.
 */
export async function bundle(root: string, npm: NpmPackage): Promise<string[]> {
  const workers = WORKERS.filter((worker) => npm.owns(worker.source.slice(2)));
  const outdir = `${NPM_DIR}/${npm.name}/esm`;
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [
      ...new Set([
        ...Object.values(npm.entries),
        ...Object.values(npm.bins),
        ...workers.map((worker) => worker.source),
      ]),
    ],
    outdir,
    outbase: ".",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    packages: "external",
    metafile: true,
    logLevel: "warning",
    plugins: [{
      name: "other-npm-packages",
      setup(build): void {
        build.onResolve({ filter: /^\.\.?\// }, (args) => {
          const file = relative(root, join(args.resolveDir, args.path));
          if (npm.owns(file)) return undefined;
          // A private module of another package ("_" file: pure helpers
          // such as the link pairing or the display escaping) is not in its
          // public entry point: bundle a copy. Its own imports of public
          // modules still resolve to that package.
          if (basename(file).startsWith("_")) return undefined;
          const specifier = entryOfFile(file);
          if (specifier === undefined) {
            throw new Error(
              `Cannot bundle ${npm.name}: ${file} is in no entry point`,
            );
          }
          return { path: specifier, external: true };
        });
      },
    }],
  });
  for (const worker of workers) {
    await pointAtWorker(root, outdir, result.metafile, worker);
  }
  const imported = new Set<string>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const entry of output.imports) {
      if (!entry.external || entry.path.startsWith("node:")) continue;
      imported.add(packageName(entry.path));
    }
  }
  return [...imported];
}

/** Stops esbuild's service once every package is bundled. */
export async function stopBundler(): Promise<void> {
  await esbuild.stop();
}

/** Rewrites the literal naming a worker to its path in the bundle. */
async function pointAtWorker(
  root: string,
  outdir: string,
  metafile: esbuild.Metafile,
  worker: Worker,
): Promise<void> {
  const target = `${outdir}/${
    worker.source.replace(/^\.\//, "").replace(/\.ts$/, ".js")
  }`;
  const holders = Object.entries(metafile.outputs)
    .filter(([, output]) => worker.startedBy in output.inputs);
  if (holders.length !== 1 || !(target in metafile.outputs)) {
    throw new Error(
      `Cannot build the npm package: expected one bundle holding ${worker.startedBy} and ${target}`,
    );
  }
  const [holder] = holders[0]!;
  let path = relative(dirname(holder), target);
  if (!path.startsWith(".")) path = `./${path}`;
  const file = join(root, holder);
  const code = await Deno.readTextFile(file);
  if (code.split(worker.literal).length !== 2) {
    throw new Error(
      `Cannot build the npm package: ${holder} must hold ${worker.literal} once`,
    );
  }
  await Deno.writeTextFile(
    file,
    code.replace(worker.literal, JSON.stringify(path)),
  );
}
