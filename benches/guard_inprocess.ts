// Per-request cost of the guard in process, under Deno or Bun: 100 rounds
// of 2,000 sequential calls of `handler(new Request(...))` on GET /posts with
// `Authorization: Bearer viewer`, reading each body, for the bare handler
// and the guarded variants (CALLS and ROUNDS in the environment change
// the counts).
//
//   deno run -A benches/guard_inprocess.ts
//   bun run benches/guard_inprocess.ts
import process from "node:process";
import { fileURLToPath } from "node:url";
import {
  bearerUserProvider,
  CachedFileEnforcerProvider,
  type DecisionEvent,
  indexEnforcer,
  PermissionGuard,
} from "../src/guard/mod.ts";

type Handler = (request: Request) => Response | Promise<Response>;

const CALLS = Number(process.env.CALLS ?? 2_000);
const ROUNDS = Number(process.env.ROUNDS ?? 100);
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
// The same, without the per-request fstat of both files.
const uncheckedProvider = await CachedFileEnforcerProvider.open({
  modelPath,
  policyPath,
  prepare: indexEnforcer,
  watch: false,
  pollIntervalMs: 0,
  checkOnRequest: false,
});
const fixed = { enforce: (): boolean => true };
// A hand-written check: read the header, look the role up.
const readers = new Set(["admin", "editor", "viewer"]);
const lookup: Handler = (request) => {
  const header = request.headers.get("authorization");
  if (header === null || !header.startsWith("Bearer ")) {
    return new Response(null, { status: 401 });
  }
  if (!readers.has(header.slice(7))) return new Response(null, { status: 403 });
  return Response.json(posts);
};
const guardOf = (
  enforcerProvider: ConstructorParameters<
    typeof PermissionGuard
  >[0]["enforcerProvider"],
) =>
  new PermissionGuard({ userProvider: bearerUserProvider, enforcerProvider });

// A decision log that keeps events in an array and hands them on in
// batches, as a log shipper would (cleared at 1,024 events, so the array
// stays small and the measured cost is the hook's, not a growing heap's).
const events: DecisionEvent[] = [];
const pushEvent = (event: DecisionEvent): void => {
  if (events.push(event) >= 1024) events.length = 0;
};
// The same, reading the fields a log line prints (id, route, subject).
const logLine = (event: DecisionEvent): void => {
  pushEvent(event);
  void `${event.id} ${event.route.method} ${event.route.path} ${event.subject} ${event.result}`;
};
const loggedGuard = (onDecision: (event: DecisionEvent) => void) =>
  new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: uncheckedProvider,
    onDecision,
  });

const fixedGuard = guardOf(() => fixed);
const variants: [string, Handler][] = [
  ["bare handler", bare],
  ["hand-written header + lookup", lookup],
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
  [
    "requirePermission, provider + index, checkOnRequest: false",
    guardOf(uncheckedProvider).requirePermission("post", "read")(bare),
  ],
  [
    "  the same + onDecision pushing to an array",
    loggedGuard(pushEvent).requirePermission("post", "read")(bare),
  ],
  [
    "  the same + onDecision reading id, route, subject",
    loggedGuard(logLine).requirePermission("post", "read")(bare),
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
// Many short rounds, every variant once per round; a variant's figure is
// its fastest round, the one least disturbed by other load on the machine.
const best = new Map<string, number>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, handler] of variants) {
    best.set(name, Math.min(best.get(name) ?? Infinity, await run(handler)));
  }
}
const bareUs = best.get(variants[0]![0])!;
// deno-lint-ignore no-console
console.log(
  `${runtime}, best of ${ROUNDS} rounds of ${CALLS} calls: µs/req, and the difference to the bare handler`,
);
for (const [name] of variants) {
  const us = best.get(name)!;
  // deno-lint-ignore no-console
  console.log(
    `${name.padEnd(46)} ${us.toFixed(2).padStart(7)} ${
      (us - bareUs).toFixed(2).padStart(7)
    }`,
  );
}
await casbinProvider.close();
await indexedProvider.close();
await uncheckedProvider.close();
