// The npm packages as a user installs them (build them first with
// `deno task build:npm`). Packs npm/<name>/ with `npm pack`, then:
// 1. installs `portcullis` alone into an empty project, checks that the
//    guard-only install stays under 8 MB, and runs the guard, its worker and
//    a CommonJS require() under Node and Bun;
// 2. installs all three tarballs into another project and runs, under Node
//    and Bun, the boundary core, the scanner and its command, require() of
//    every entry point, the adapter cases of tests/adapters/ (node:http,
//    Hono, Express 5) and the Node 20 snippets of the docs;
// 3. type-checks a consumer of every entry point with tsc (skipLibCheck
//    false) under node16, nodenext and bundler resolution;
// 4. runs @arethetypeswrong/cli --pack and publint --strict on each package.
//
//   deno run -A scripts/smoke_npm.ts
import * as esbuild from "esbuild";
import { join } from "node:path";
import denoJson from "../deno.json" with { type: "json" };
import { DOC_PAGES, docSnippets } from "./_doc_snippets.ts";
import { CORE, NPM_DIR, npmSpecifier, PACKAGES } from "./npm/layout.ts";
import {
  footprint,
  installDev,
  mb,
  pack,
  project,
  run,
} from "./npm/_smoke_project.ts";

const root = new URL("../", import.meta.url);
const rootPath = root.pathname;
const consumerSource = join(rootPath, "tests/npm/consumer");
/** The ceiling of a guard-only install, in bytes. */
const GUARD_INSTALL_LIMIT = 8e6;
const RUNTIMES = ["node", "bun"];
const pinned: Record<string, string> = denoJson.imports;
const pin = (name: string): string =>
  `${name}@${pinned[name]!.replace(/^npm:@?[^@]+@/, "")}`;
/** Pinned tools of the smoke test itself (not dependencies of the project). */
const TOOLS = ["@arethetypeswrong/cli@0.18.5", "publint@0.3.25"];

function log(line: string): void {
  // deno-lint-ignore no-console
  console.log(line);
}

const work = await Deno.makeTempDir({ prefix: "portcullis-npm-" });
try {
  const tarballs = await pack(
    PACKAGES.map((npm) => join(rootPath, NPM_DIR, npm.name)),
    work,
  );
  for (const tarball of tarballs) {
    log(
      `${tarball.name}: ${mb(tarball.size)} packed, ${
        mb(tarball.unpackedSize)
      } unpacked`,
    );
  }

  // 1. The guard alone.
  const core = tarballs.filter((tarball) => tarball.name === CORE);
  const guard = await project(work, "guard", consumerSource, core);
  const guardInstall = await footprint(guard);
  log(
    `guard-only install (npm i portcullis): ${
      mb(guardInstall.bytes)
    } in ${guardInstall.packages} packages`,
  );
  if (guardInstall.bytes >= GUARD_INSTALL_LIMIT) {
    throw new Error(
      `The guard-only install weighs ${mb(guardInstall.bytes)}, over ${
        mb(GUARD_INSTALL_LIMIT)
      }`,
    );
  }
  for (const runtime of RUNTIMES) {
    for (
      const args of [["guard.mjs"], ["worker_only.mjs"], [
        "require.cjs",
        "core",
      ]]
    ) {
      log(`${runtime}: ${(await run(runtime, args, guard)).trim()}`);
    }
  }

  // 2. Everything, with the frameworks of the adapters.
  const full = await project(work, "full", consumerSource, tarballs);
  const fullInstall = await footprint(full);
  log(
    `full install (portcullis, portcullis-boundary, portcullis-scan): ${
      mb(fullInstall.bytes)
    } in ${fullInstall.packages} packages`,
  );
  await installDev(full, [
    pin("typescript"),
    pin("@types/node"),
    pin("hono"),
    pin("@opentelemetry/api"),
    // The optional peers of portcullis/guard/postgres.
    pin("postgres"),
    pin("@electric-sql/pglite"),
    pin("express"),
    pin("@types/express"),
    pin("urlpattern-polyfill"),
    ...TOOLS,
  ]);
  await bundleAdapterCases(join(full, "cases.mjs"));
  const snippets = await docSnippets(root, DOC_PAGES, "node");
  for (const [i, snippet] of snippets.entries()) {
    await Deno.writeTextFile(join(full, `snippet_${i}.mjs`), snippet.code);
  }
  for (const file of ["model.conf", "policy.csv"]) {
    await Deno.copyFile(join(rootPath, "examples", file), join(full, file));
  }
  for (const runtime of RUNTIMES) {
    for (
      const args of [
        ["scan.mjs"],
        ["require.cjs"],
        ["run_cases.mjs"],
        ["postgres.mjs"],
      ]
    ) {
      log(`${runtime}: ${(await run(runtime, args, full)).trim()}`);
    }
    for (const [i, snippet] of snippets.entries()) {
      await run(runtime, [`snippet_${i}.mjs`], full, { PORT: "0" }).catch(
        (error: Error) => {
          throw new Error(
            `The snippet at ${snippet.where} fails: ${error.message}`,
          );
        },
      );
    }
    log(
      `${runtime}: the ${snippets.length} Node snippets of ${
        DOC_PAGES.join(", ")
      } run`,
    );
  }

  // The same tarballs installed by Bun, which needs `overrides` to take
  // portcullis-boundary from its tarball (see docs/install.md).
  const bunProject = join(work, "bun");
  await Deno.mkdir(bunProject);
  const files = Object.fromEntries(
    tarballs.map((tarball) => [tarball.name, `file:${tarball.path}`]),
  );
  await Deno.writeTextFile(
    join(bunProject, "package.json"),
    JSON.stringify({
      name: "consumer-bun",
      private: true,
      type: "module",
      dependencies: files,
      overrides: files,
    }),
  );
  await Deno.copyFile(
    join(consumerSource, "require.cjs"),
    join(bunProject, "require.cjs"),
  );
  await run("bun", ["install"], bunProject);
  log(
    `bun install of the tarballs: ${
      (await run("bun", ["require.cjs"], bunProject)).trim()
    }`,
  );

  // 3. TypeScript consumers.
  for (
    const [module, resolution] of [["node16", "node16"], [
      "nodenext",
      "nodenext",
    ], ["preserve", "bundler"]]
  ) {
    const files = resolution === "nodenext"
      ? ["consumer.ts", "consumer.cts"]
      : ["consumer.ts"];
    const config = `tsconfig.${resolution}.json`;
    await Deno.writeTextFile(
      join(full, config),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module,
          moduleResolution: resolution,
          lib: ["es2022", "dom", "dom.iterable", "esnext.disposable"],
          types: ["node"],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        files,
      }),
    );
    await run("node", ["node_modules/typescript/bin/tsc", "-p", config], full);
    log(
      `tsc (${resolution} resolution, skipLibCheck false): ${
        files.join(" and ")
      } type-check against every entry point`,
    );
  }

  // 4. Package linters. attw's strict profile, less one rule: a require()
  // of these ESM-only packages is what Node 20.19+/22.12+ and Bun do (see
  // require.cjs), and TypeScript accepts it under "nodenext" (consumer.cts).
  for (const npm of PACKAGES) {
    const dir = join(rootPath, NPM_DIR, npm.name);
    await run("node", [
      "node_modules/@arethetypeswrong/cli/dist/index.js",
      "--pack",
      dir,
      "--ignore-rules",
      "cjs-resolves-to-esm",
      "--format",
      "ascii",
    ], full);
    const publint = await run("node", [
      "node_modules/publint/src/cli.js",
      "--strict",
      dir,
    ], full);
    if (!publint.includes("All good!")) {
      throw new Error(`publint ${npm.name}:\n${publint}`);
    }
    log(
      `${npm.name}: attw --pack (strict, ignoring cjs-resolves-to-esm) and publint --strict pass`,
    );
  }
} finally {
  await Deno.remove(work, { recursive: true });
}

/** Bundles tests/adapters/ cases, importing the installed npm packages. */
async function bundleAdapterCases(outfile: string): Promise<void> {
  await esbuild.build({
    absWorkingDir: rootPath,
    entryPoints: ["tests/adapters/_all_cases.ts"],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "warning",
    plugins: [{
      name: "npm-names",
      setup(build): void {
        build.onResolve(
          { filter: /^@portcullis\/portcullis(\/.*)?$/ },
          (args) => ({
            path: npmSpecifier(args.path)!,
            external: true,
          }),
        );
      },
    }],
  });
  await esbuild.stop();
}
