// Decision cost, casbin's enforce() and enforceSync() against
// IndexedEnforcer and the flat index CachedFileEnforcerProvider serves for
// policies it loads in its worker thread, in one run:
//
// - the reference equality model (the example application's) at 10, 1,000
//   and 100,000 rules;
// - casbin's RESTful RBAC model, `g(r.sub, p.sub) && keyMatch2(r.obj,
//   p.obj) && regexMatch(r.act, p.act)`, at 100, 10,000 and 100,000 rules,
//   with one role per route and with one role for all routes;
// - casbin's domain RBAC model, `g(r.sub, p.sub, r.dom) && r.dom == p.dom
//   && r.obj == p.obj && r.act == p.act`, at 100, 10,000 and 100,000 rules;
// - a model the index cannot answer (a `||`), where only the decision
//   cache helps.
//
//   deno bench --allow-all benches/decision_bench.ts
//
// Each request matches the last rule of the policy, so casbin scans it all
// (a denied request costs casbin the same).
import {
  type Enforcer as CasbinEnforcer,
  newEnforcer,
  newModelFromString,
  StringAdapter,
} from "casbin";
import { IndexedEnforcer } from "../src/guard/indexed_enforcer.ts";
import { compileEnforcerIndex } from "../src/guard/_index/mod.ts";
import { CompiledEnforcer } from "../src/guard/_index/compiled_enforcer.ts";

function model(matcher: string, options: {
  request?: string;
  roles?: string;
} = {}): string {
  const request = options.request ?? "sub, obj, act";
  return `[request_definition]
r = ${request}
[policy_definition]
p = ${request}
${options.roles ? `[role_definition]\ng = ${options.roles}\n` : ""}
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = ${matcher}
`;
}

const SEED = model("r.obj == p.obj && r.sub.role == p.sub && r.act == p.act");
const RESTFUL = model(
  "g(r.sub, p.sub) && keyMatch2(r.obj, p.obj) && regexMatch(r.act, p.act)",
  { roles: "_, _" },
);
const DOMAINS = model(
  "g(r.sub, p.sub, r.dom) && r.dom == p.dom && r.obj == p.obj && r.act == p.act",
  { request: "sub, dom, obj, act", roles: "_, _, _" },
);
// `||`: a matcher casbin decides.
const NOT_INDEXED = SEED.replace(
  "r.act == p.act",
  'r.act == p.act || r.sub.role == "root"',
);

async function enforcerOf(
  model: string,
  lines: string[],
): Promise<CasbinEnforcer> {
  return await newEnforcer(
    newModelFromString(model),
    new StringAdapter(lines.join("\n")),
  );
}

let sink = 0;

/** casbin, IndexedEnforcer and the flat index on one request, one group. */
function benchGroup(
  group: string,
  casbin: CasbinEnforcer,
  request: unknown[],
  slow: boolean,
): void {
  const indexed = IndexedEnforcer.from(casbin);
  if (!indexed.indexed) throw new Error(`${group}: ${indexed.reason}`);
  const flat = compileEnforcerIndex(casbin);
  if (typeof flat === "string") throw new Error(flat);
  const compiled = new CompiledEnforcer(flat, () => Promise.resolve(casbin));
  if (indexed.enforce(...request) !== true) {
    throw new Error(`${group}: the request must be allowed`);
  }
  // casbin at 100,000 rules takes a tenth of a second or more per decision.
  const few = slow ? { n: 5, warmup: 1 } : {};
  Deno.bench({
    name: `casbin enforce() — ${group}`,
    group,
    baseline: true,
    ...few,
    async fn(): Promise<void> {
      if (await casbin.enforce(...request)) sink++;
    },
  });
  Deno.bench({
    name: `casbin enforceSync() — ${group}`,
    group,
    ...few,
    fn(): void {
      if (casbin.enforceSync(...request)) sink++;
    },
  });
  Deno.bench({
    name: `IndexedEnforcer — ${group}`,
    group,
    fn(): void {
      if (indexed.enforce(...request) === true) sink++;
    },
  });
  Deno.bench({
    name: `flat index (worker-loaded) — ${group}`,
    group,
    fn(): void {
      if (compiled.enforce(...request) === true) sink++;
    },
  });
}

const count = (n: number): string => n.toLocaleString("en");

for (const rules of [10, 1_000, 100_000]) {
  const lines: string[] = [];
  for (let i = 0; i < rules - 1; i++) {
    lines.push(`p, role${i}, /objects/${i}, read`);
  }
  lines.push("p, viewer, /posts, read");
  benchGroup(
    `equality model, ${count(rules)} rules`,
    await enforcerOf(SEED, lines),
    [{ role: "viewer" }, "/posts", "read"],
    rules >= 100_000,
  );
}

for (const rules of [100, 10_000, 100_000]) {
  const last = rules - 1;
  // One role per route (the shape of the issue's measurement)...
  const perRole: string[] = [];
  // ...and one role for every route: the trie of paths finds the route.
  const shared: string[] = [];
  for (let i = 0; i < rules; i++) {
    perRole.push(`p, role${i}, /api/svc${i}/items/:id, (GET)|(POST)`);
    shared.push(`p, api, /api/svc${i}/items/:id, (GET)|(POST)`);
  }
  perRole.push(`g, alice, role${last}`);
  shared.push("g, alice, api");
  const request = ["alice", `/api/svc${last}/items/7`, "GET"];
  benchGroup(
    `RESTful RBAC, ${count(rules)} rules`,
    await enforcerOf(RESTFUL, perRole),
    request,
    rules >= 100_000,
  );
  benchGroup(
    `RESTful RBAC, one role, ${count(rules)} rules`,
    await enforcerOf(RESTFUL, shared),
    request,
    rules >= 100_000,
  );
  // Ten roles per tenant, one rule each.
  const domains: string[] = [];
  for (let i = 0; i < rules; i++) {
    domains.push(
      `p, role${i % 10}, tenant${Math.floor(i / 10)}, /data${i}, read`,
    );
  }
  const tenant = `tenant${Math.floor(last / 10)}`;
  domains.push(
    `g, alice, role${last % 10}, ${tenant}`,
    "g, bob, role0, tenant0",
  );
  benchGroup(
    `domain RBAC, ${count(rules)} rules`,
    await enforcerOf(DOMAINS, domains),
    ["alice", tenant, `/data${last}`, "read"],
    rules >= 100_000,
  );
}

{
  const lines: string[] = [];
  for (let i = 0; i < 999; i++) lines.push(`p, role${i}, /objects/${i}, read`);
  lines.push("p, viewer, /posts, read");
  const casbin = await enforcerOf(NOT_INDEXED, lines);
  const user = { role: "viewer" };
  const indexed = IndexedEnforcer.from(casbin);
  const cached = IndexedEnforcer.from(casbin, { cache: true });
  const syncCached = IndexedEnforcer.from(casbin, {
    cache: true,
    fallback: "enforceSync",
  });
  if (indexed.indexed) throw new Error("`||` must not be indexed");
  const group = "a model the index cannot answer (||), 1,000 rules";
  Deno.bench({
    name: "casbin enforce() ||",
    group,
    baseline: true,
    async fn(): Promise<void> {
      if (await casbin.enforce(user, "/posts", "read")) sink++;
    },
  });
  Deno.bench({
    name: "IndexedEnforcer (falls back) ||",
    group,
    async fn(): Promise<void> {
      if (await indexed.enforce(user, "/posts", "read")) sink++;
    },
  });
  Deno.bench({
    name: "IndexedEnforcer + cache ||",
    group,
    async fn(): Promise<void> {
      if (await cached.enforce(user, "/posts", "read")) sink++;
    },
  });
  Deno.bench({
    name: "IndexedEnforcer + cache, sync ||",
    group,
    fn(): void {
      if (syncCached.enforce(user, "/posts", "read") === true) sink++;
    },
  });
}

{
  // Building the index of 100,000 RESTful rules: in the worker
  // (compileEnforcerIndex) and on the event loop (IndexedEnforcer.from).
  const lines: string[] = [];
  for (let i = 0; i < 100_000; i++) {
    lines.push(`p, role${i}, /api/svc${i}/items/:id, (GET)|(POST)`);
  }
  const casbin = await enforcerOf(RESTFUL, lines);
  const group = "index build, RESTful RBAC, 100,000 rules";
  Deno.bench({
    name: "compileEnforcerIndex() (what the worker runs)",
    group,
    n: 10,
    warmup: 1,
    fn(): void {
      if (typeof compileEnforcerIndex(casbin) !== "string") sink++;
    },
  });
  Deno.bench({
    name: "IndexedEnforcer.from() (synchronous)",
    group,
    n: 10,
    warmup: 1,
    fn(): void {
      if (IndexedEnforcer.from(casbin).indexed) sink++;
    },
  });
}

globalThis.addEventListener("unload", () => {
  if (sink < 0) throw new Error("unreachable");
});
