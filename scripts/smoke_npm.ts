// Installs the built npm package (npm/, from `deno task build:npm`) into a
// fresh consumer project and runs tests/npm/consumer/ under Node and Bun:
// a guarded handler served over HTTP, the boundary core, the extractor's
// WASM grammars, and a TypeScript consumer type-checked against the
// published declarations.
//
//   deno run -A scripts/smoke_npm.ts
const root = new URL("../", import.meta.url);
const npmDir = new URL("npm/", root).pathname;
const consumerSource = new URL("tests/npm/consumer/", root).pathname;

async function run(
  command: string,
  args: string[],
  cwd: string,
): Promise<string> {
  const output = await new Deno.Command(command, {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(output.stdout) +
    new TextDecoder().decode(output.stderr);
  if (!output.success) {
    throw new Error(
      `Cannot run ${command} ${args.join(" ")} (exit ${output.code}):\n${text}`,
    );
  }
  return text;
}

const { peerDependencies = {} } = JSON.parse(
  await Deno.readTextFile(`${npmDir}package.json`),
) as { peerDependencies?: Record<string, string> };
const work = await Deno.makeTempDir({ prefix: "portcullis-npm-" });
try {
  const packed = await run("npm", ["pack", npmDir, "--silent"], work);
  const tarball = `${work}/${packed.trim().split("\n").at(-1)}`;
  const consumer = `${work}/consumer`;
  await Deno.mkdir(consumer);
  for await (const entry of Deno.readDir(consumerSource)) {
    await Deno.copyFile(
      `${consumerSource}${entry.name}`,
      `${consumer}/${entry.name}`,
    );
  }
  await Deno.writeTextFile(
    `${consumer}/package.json`,
    JSON.stringify({
      name: "consumer",
      private: true,
      type: "module",
      dependencies: {
        portcullis: `file:${tarball}`,
        // The optional peers of portcullis/guard/postgres.
        ...peerDependencies,
      },
      devDependencies: { typescript: "5.9.3", "@types/node": "20.19.43" },
    }),
  );
  await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--loglevel=error"],
    consumer,
  );
  for (const runtime of ["node", "bun"]) {
    for (const script of ["smoke.mjs", "worker_only.mjs", "postgres.mjs"]) {
      const out = await run(runtime, [script], consumer);
      // deno-lint-ignore no-console
      console.log(`${runtime}: ${out.trim()}`);
    }
  }
  await run(
    "node",
    ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"],
    consumer,
  );
  // deno-lint-ignore no-console
  console.log("tsc: the TypeScript consumer type-checks");
} finally {
  await Deno.remove(work, { recursive: true });
}
