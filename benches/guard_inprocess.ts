// Per-request cost of the guard in process, under Deno or Bun: 50,000
// sequential calls of `handler(new Request(...))` on GET /posts with
// `Authorization: Bearer viewer`, reading each body. Prints µs per request,
// the best of five rounds, for the bare handler and the guarded variants.
//
//   deno run -A benches/guard_inprocess.ts
//   bun run benches/guard_inprocess.ts
import process from "node:process";
import { fileURLToPath } from "node:url";
import {
  bearerUserProvider,
  CachedFileEnforcerProvider,
  indexEnforcer,
  PermissionGuard,
} from "../src/guard/mod.ts";

type Handler = (request: Request) => Response | Promise<Response>;

const CALLS = Number(process.env.CALLS ?? 50_000);
const ROUNDS = 5;
const modelPath = fileURLToPath(
  new URL("../examples/model.conf", import.meta.url),
);
const policyPath = fileURLToPath(
  new URL("../examples/policy.csv", import.meta.url),
);
const posts = [{ id: 1, title: "Welcome" }];
const bare: Handler = () => Response.json(posts);
const init = { headers: { authorization: "Bearer viewer" } };
const url = "http://localhost/posts";

const casbinProvider = await CachedFileEnforcerProvider.open({
  modelPath,
  policyPath,
  prepare: (enforcer) => enforcer,
  watch: false,
  pollIntervalMs: 0,
});
const indexedProvider = await CachedFileEnforcerProvider.open({
  modelPath,
  policyPath,
  prepare: indexEnforcer,
  watch: false,
  pollIntervalMs: 0,
});
const fixed = { enforce: (): boolean => true };
const guardOf = (
  enforcerProvider: ConstructorParameters<
    typeof PermissionGuard
  >[0]["enforcerProvider"],
) =>
  new PermissionGuard({ userProvider: bearerUserProvider, enforcerProvider });

const fixedGuard = guardOf(() => fixed);
const variants: [string, Handler][] = [
  ["bare handler", bare],
  ["authRequired, bearer", fixedGuard.authRequired()(bare)],
  [
    "requirePermission, { enforce: () => true }",
    fixedGuard.requirePermission("post", "read")(bare),
  ],
  [
    "requirePermission, provider + casbin",
    guardOf(casbinProvider).requirePermission("post", "read")(bare),
  ],
  [
    "requirePermission, provider + indexEnforcer",
    guardOf(indexedProvider).requirePermission("post", "read")(bare),
  ],
];

async function run(handler: Handler): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const response = await handler(new Request(url, init));
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    await response.arrayBuffer();
  }
  return ((performance.now() - started) * 1000) / CALLS;
}

const runtime = "Bun" in globalThis
  ? `Bun ${process.versions.bun}`
  : `Deno ${process.versions.deno}`;
const best = new Map<string, number>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, handler] of variants) {
    const us = await run(handler);
    best.set(name, Math.min(best.get(name) ?? Infinity, us));
  }
}
// deno-lint-ignore no-console
console.log(`${runtime}, ${CALLS} calls, best of ${ROUNDS} rounds`);
for (const [name] of variants) {
  // deno-lint-ignore no-console
  console.log(`${name.padEnd(46)} ${best.get(name)!.toFixed(2)} µs/req`);
}
await casbinProvider.close();
await indexedProvider.close();
