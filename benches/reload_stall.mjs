// deno-lint-ignore-file no-console explicit-function-return-type
// The longest event-loop stall while a 100,000-line policy is rewritten and
// reloaded five times, under Node or Bun (Deno: benches/reload_bench.ts).
//
//   bun benches/reload_stall.mjs [worker|main]
//   PORTCULLIS_GUARD=<consumer>/node_modules/portcullis/esm/src/guard/mod.js \
//     node benches/reload_stall.mjs [worker|main]
//
// Node cannot run the TypeScript sources: point PORTCULLIS_GUARD at the
// guard of the built npm package (`deno task build:npm`, installed in a
// consumer project).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

const { CachedFileEnforcerProvider } = await import(
  process.env.PORTCULLIS_GUARD ?? "../src/guard/mod.ts"
);
const loadIn = process.argv[2] === "main" ? "main" : "worker";

const MODEL = `[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
`;

/** 100,000 rules; `variant` changes the last one. */
function policy(variant) {
  const rows = ["p, viewer, post, read"];
  for (let i = 1; i < 99_999; i++) {
    rows.push(`p, role${i % 5000}, doc${i}, read`);
  }
  rows.push(`p, editor, post, v${variant}`);
  return rows.join("\n") + "\n";
}

const dir = await mkdtemp(join(tmpdir(), "portcullis-stall-"));
const modelPath = join(dir, "model.conf");
const policyPath = join(dir, "policy.csv");
await writeFile(modelPath, MODEL);
await writeFile(policyPath, policy(0));
// Every version is built before measuring: building them is not the
// provider's work.
const texts = [1, 2, 3, 4, 5].map((variant) => Buffer.from(policy(variant)));

const reloads = [];
let reloaded = () => {};
const provider = await CachedFileEnforcerProvider.open({
  modelPath,
  policyPath,
  loadIn,
  onReload: (event) => {
    reloads.push(event);
    reloaded();
  },
});
await new Promise((resolve) => setTimeout(resolve, 500));

let last = performance.now();
let longest = 0;
const meter = setInterval(() => {
  const now = performance.now();
  longest = Math.max(longest, now - last - 1);
  last = now;
}, 1);
let wrong = 0;
for (const [i, text] of texts.entries()) {
  const done = new Promise((resolve) => reloaded = resolve);
  await writeFile(policyPath, text);
  await done;
  const enforcer = await provider.getEnforcer();
  if (
    await enforcer.enforce({ role: "editor" }, "post", `v${i + 1}`) !== true
  ) {
    wrong++;
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
}
clearInterval(meter);
await provider.close();
await rm(dir, { recursive: true });

const runtime = typeof Bun === "undefined"
  ? `Node ${process.version}`
  : `Bun ${Bun.version}`;
console.log(
  `${runtime}, loadIn: ${loadIn}: 5 reloads of 100,000 lines in ${
    reloads.map((event) => event.durationMs.toFixed(0)).join(", ")
  } ms (loaded in ${[...new Set(reloads.map((event) => event.loadedIn))]}), ` +
    `wrong answers after a reload: ${wrong}, longest event-loop stall ${
      longest.toFixed(1)
    } ms`,
);
