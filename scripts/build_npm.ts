// Builds the npm package into npm/: ESM bundles (esbuild, code splitting so
// entry points share chunks), .d.ts declarations (the TypeScript compiler
// API, without Deno types, so a stray `Deno.` in src/ fails the build), and a
// package.json whose dependencies are exactly the packages the bundles
// import, at the versions pinned in deno.json.
//
//   deno run -A scripts/build_npm.ts [version]
import * as esbuild from "esbuild";
import ts from "typescript";
import denoJson from "../deno.json" with { type: "json" };

const root = new URL("../", import.meta.url);
const outDir = new URL("npm/", root);
const version = Deno.args[0] ?? denoJson.version;
const packageName = "portcullis";

/** Entry points: the `exports` of deno.json, e.g. `./guard` -> src/guard/mod.ts. */
const entries = Object.entries(denoJson.exports);
/** Executables shipped in the package: bin name -> source file. */
const bins: Record<string, string> = {};
try {
  await Deno.stat(new URL("src/extract/cli.ts", root));
  bins["portcullis-scan"] = "./src/extract/cli.ts";
} catch {
  // No CLI in this build.
}
bins["portcullis-policy-db"] = "./src/guard/postgres/cli.ts";

// Every pinned package into node_modules/, for the type check below.
const install = await new Deno.Command(Deno.execPath(), {
  args: ["install", "--quiet"],
  cwd: root.pathname,
}).output();
if (!install.success) {
  throw new Error("Cannot build the npm package: deno install failed");
}

await Deno.remove(outDir, { recursive: true }).catch(() => {});
await Deno.mkdir(outDir, { recursive: true });

// Modules started as workers: not imported by anything, so entry points of
// their own. The module that starts one names its path relative to itself
// (a string literal), rewritten below for the bundle that holds it.
const workers = [{
  source: "./src/guard/_policy_worker.ts",
  startedBy: "src/guard/_policy_worker_client.ts",
  literal: '"./_policy_worker.ts"',
}];

// 1. JavaScript.
const result = await esbuild.build({
  absWorkingDir: root.pathname,
  entryPoints: [
    ...entries.map(([, file]) => file),
    ...Object.values(bins),
    ...workers.map((worker) => worker.source),
  ],
  outdir: "npm/esm",
  outbase: ".",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  packages: "external",
  metafile: true,
  logLevel: "warning",
});
await esbuild.stop();

for (const worker of workers) {
  const target = `npm/esm/${
    worker.source.replace(/^\.\//, "").replace(/\.ts$/, ".js")
  }`;
  const holders = Object.entries(result.metafile.outputs)
    .filter(([, output]) => worker.startedBy in output.inputs);
  if (holders.length !== 1 || !(target in result.metafile.outputs)) {
    throw new Error(
      `Cannot build the npm package: expected one bundle holding ${worker.startedBy} and ${target}`,
    );
  }
  const [holder] = holders[0]!;
  const from = holder.split("/").slice(0, -1);
  const to = target.split("/");
  let common = 0;
  while (common < from.length && from[common] === to[common]) common++;
  const relative = [
    ...(from.length === common ? ["."] : from.slice(common).map(() => "..")),
    ...to.slice(common),
  ].join("/");
  const path = new URL(holder, root);
  const code = await Deno.readTextFile(path);
  if (code.split(worker.literal).length !== 2) {
    throw new Error(
      `Cannot build the npm package: ${holder} must hold ${worker.literal} once`,
    );
  }
  await Deno.writeTextFile(
    path,
    code.replace(worker.literal, JSON.stringify(relative)),
  );
}

// Every bare import left in the bundles must be a pinned dependency, and so
// must the packages that src/ resolves by name at run time.
const resolvedAtRunTime = ["@vscode/tree-sitter-wasm"];
const imported = new Set<string>(resolvedAtRunTime);
for (const output of Object.values(result.metafile.outputs)) {
  for (const entry of output.imports) {
    if (!entry.external || entry.path.startsWith("node:")) continue;
    const parts = entry.path.split("/");
    imported.add(
      entry.path.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!,
    );
  }
}
const pinned: Record<string, string> = denoJson.imports;
const dependencies: Record<string, string> = {};
// The database drivers of `./guard/postgres`, imported only when a database
// is opened: optional peers, installed by the users who need one.
const optionalPeers = new Set(["postgres", "@electric-sql/pglite"]);
const peerDependencies: Record<string, string> = {};
for (const name of [...imported].sort()) {
  const specifier = pinned[name];
  const match = specifier?.match(/^npm:(@?[^@]+)@(.+)$/);
  if (!match) {
    throw new Error(
      `Cannot build the npm package: "${name}" is imported but not pinned as an npm: import in deno.json`,
    );
  }
  if (optionalPeers.has(name)) peerDependencies[match[1]!] = match[2]!;
  else dependencies[match[1]!] = match[2]!;
}

// 2. Declarations, with Node's types at the version deno.json pins (read
// from Deno's package store, which `deno install` always fills).
function nodeTypesRoot(): string {
  const version = pinned["@types/node"]?.match(/^npm:@types\/node@(.+)$/)?.[1];
  if (!version) {
    throw new Error(
      'Cannot build the npm package: deno.json must pin "@types/node"',
    );
  }
  return new URL(
    `node_modules/.deno/@types+node@${version}/node_modules/@types`,
    root,
  ).pathname;
}
const compilerOptions: ts.CompilerOptions = {
  declaration: true,
  emitDeclarationOnly: true,
  allowImportingTsExtensions: true,
  rewriteRelativeImportExtensions: true,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.esnext.disposable.d.ts"],
  types: ["node"],
  typeRoots: [nodeTypesRoot()],
  strict: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  declarationDir: new URL("npm/types", root).pathname,
  rootDir: root.pathname,
};
const program = ts.createProgram(
  entries.map(([, file]) => new URL(file, root).pathname),
  compilerOptions,
);
const emitted = program.emit();
const diagnostics = [
  ...ts.getPreEmitDiagnostics(program),
  ...emitted.diagnostics,
];
if (diagnostics.length > 0) {
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root.pathname,
    getNewLine: () => "\n",
  };
  throw new Error(
    `Cannot build the npm package: the type check failed\n${
      ts.formatDiagnostics(diagnostics, host)
    }`,
  );
}

// 3. package.json, README, LICENSE.
function jsPath(file: string): string {
  return `./esm/${file.replace(/^\.\//, "").replace(/\.ts$/, ".js")}`;
}
function typesPath(file: string): string {
  return `./types/${file.replace(/^\.\//, "").replace(/\.ts$/, ".d.ts")}`;
}
const exportsMap: Record<string, { types: string; import: string }> = {};
for (const [key, file] of entries) {
  exportsMap[key] = { types: typesPath(file), import: jsPath(file) };
}
const binMap: Record<string, string> = {};
for (const [name, file] of Object.entries(bins)) {
  binMap[name] = jsPath(file);
  const path = new URL(`npm/${jsPath(file).slice(2)}`, root);
  const code = await Deno.readTextFile(path);
  if (!code.startsWith("#!")) {
    await Deno.writeTextFile(path, `#!/usr/bin/env node\n${code}`);
  }
  await Deno.chmod(path, 0o755);
}
const packageJson = {
  name: packageName,
  version,
  description:
    "Route-level authorization over casbin for web-standard handlers, and a graph of the interface boundaries between services",
  license: denoJson.license,
  type: "module",
  sideEffects: false,
  engines: { node: ">=20" },
  exports: exportsMap,
  ...(Object.keys(binMap).length > 0 ? { bin: binMap } : {}),
  files: ["esm", "types", "README.md", "LICENSE"],
  dependencies,
  peerDependencies,
  peerDependenciesMeta: Object.fromEntries(
    Object.keys(peerDependencies).map((name) => [name, { optional: true }]),
  ),
};
await Deno.writeTextFile(
  new URL("package.json", outDir),
  JSON.stringify(packageJson, null, 2) + "\n",
);
await Deno.copyFile(new URL("README.md", root), new URL("README.md", outDir));
await Deno.copyFile(new URL("LICENSE", root), new URL("LICENSE", outDir));

// deno-lint-ignore no-console
console.log(
  `Built ${packageName}@${version} in npm/ (${entries.length} entry points; dependencies: ${
    Object.keys(dependencies).join(", ") || "none"
  })`,
);
