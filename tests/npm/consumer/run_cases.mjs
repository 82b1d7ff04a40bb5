// Runs the adapter cases of tests/adapters/ (bundled by scripts/smoke_npm.ts
// into cases.mjs, importing the installed packages) under Node or Bun.
import { cases } from "./cases.mjs";

const runtime = typeof Bun === "undefined" ? `node ${process.version}` : `bun ${Bun.version}`;
const failures = [];
for (const { name, run } of cases) {
  try {
    await run();
  } catch (error) {
    failures.push(name);
    console.error(`FAILED under ${runtime}: ${name}\n${error?.stack ?? error}`);
  }
}
if (failures.length > 0) process.exit(1);
console.log(`${runtime}: the ${cases.length} adapter cases (node:http, Hono, Express) pass`);
