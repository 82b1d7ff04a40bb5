// Decision cost at 10, 1,000 and 100,000 rules: casbin's enforce() and
// enforceSync() against IndexedEnforcer, with and without its cache, and
// against the flat index CachedFileEnforcerProvider serves for policies it
// loads in its worker thread.
//
//   deno bench --allow-all benches/decision_bench.ts
//
// The request matches the last rule of the policy, so casbin scans it all
// (a denied request costs casbin the same).
import {
  type Enforcer as CasbinEnforcer,
  newEnforcer,
  newModelFromString,
  StringAdapter,
} from "casbin";
import { IndexedEnforcer } from "../src/guard/indexed_enforcer.ts";
import { compileEnforcerIndex } from "../src/guard/_compiled_index.ts";
import { CompiledEnforcer } from "../src/guard/_compiled_enforcer.ts";

const SEED = `[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
`;

// A matcher the index cannot answer: only the cache helps.
const KEY_MATCH = SEED.replace(
  "r.obj == p.obj",
  "keyMatch2(r.obj, p.obj)",
);

async function enforcerOf(
  model: string,
  rules: number,
  last: string,
  links: string[] = [],
): Promise<CasbinEnforcer> {
  const lines: string[] = [];
  for (let i = 0; i < rules - 1; i++) {
    lines.push(`p, role${i}, /objects/${i}, read`);
  }
  lines.push(last, ...links);
  return await newEnforcer(
    newModelFromString(model),
    new StringAdapter(lines.join("\n")),
  );
}

const user = { role: "viewer" };
let sink = 0;

for (const rules of [10, 1_000, 100_000]) {
  const casbin = await enforcerOf(SEED, rules, "p, viewer, /posts, read");
  const indexed = IndexedEnforcer.from(casbin);
  const cached = IndexedEnforcer.from(casbin, { cache: true });
  if (!indexed.indexed) throw new Error("the seed model is not indexed");
  const group = `seed model, ${rules.toLocaleString("en")} rules`;
  // casbin at 100k rules takes a tenth of a second per decision.
  const slow = rules >= 100_000 ? { n: 20, warmup: 2 } : {};
  Deno.bench({
    name: `casbin enforce() ${rules}`,
    group,
    baseline: true,
    ...slow,
    async fn(): Promise<void> {
      if (await casbin.enforce(user, "/posts", "read")) sink++;
    },
  });
  Deno.bench({
    name: `casbin enforceSync() ${rules}`,
    group,
    ...slow,
    fn(): void {
      if (casbin.enforceSync(user, "/posts", "read")) sink++;
    },
  });
  Deno.bench({
    name: `IndexedEnforcer ${rules}`,
    group,
    fn(): void {
      if (indexed.enforce(user, "/posts", "read") === true) sink++;
    },
  });
  const flat = compileEnforcerIndex(casbin);
  if (typeof flat === "string") throw new Error(flat);
  const compiled = new CompiledEnforcer(flat, () => Promise.resolve(casbin));
  Deno.bench({
    name: `flat index (worker-loaded) ${rules}`,
    group,
    fn(): void {
      if (compiled.enforce(user, "/posts", "read") === true) sink++;
    },
  });
  if (rules === 100_000) {
    Deno.bench({
      name: "compileEnforcerIndex() 100000 (in the worker)",
      group: "index build, 100,000 rules",
      n: 20,
      warmup: 2,
      fn(): void {
        if (typeof compileEnforcerIndex(casbin) !== "string") sink++;
      },
    });
    // What a reload pays on top of building the casbin enforcer.
    Deno.bench({
      name: "IndexedEnforcer.from() 100000 (build the index)",
      group: "index build, 100,000 rules",
      n: 20,
      warmup: 2,
      fn(): void {
        if (IndexedEnforcer.from(casbin).indexed) sink++;
      },
    });
  }
  Deno.bench({
    name: `IndexedEnforcer + cache ${rules}`,
    group,
    fn(): void {
      if (cached.enforce(user, "/posts", "read") === true) sink++;
    },
  });
}

{
  const rules = 1_000;
  const casbin = await enforcerOf(
    KEY_MATCH,
    rules,
    "p, viewer, /posts/:id, read",
  );
  const indexed = IndexedEnforcer.from(casbin);
  const cached = IndexedEnforcer.from(casbin, { cache: true });
  const syncCached = IndexedEnforcer.from(casbin, {
    cache: true,
    fallback: "enforceSync",
  });
  if (indexed.indexed) throw new Error("keyMatch2 must not be indexed");
  const group = "keyMatch2 model (not indexed), 1,000 rules";
  Deno.bench({
    name: "casbin enforce() keyMatch2",
    group,
    baseline: true,
    async fn(): Promise<void> {
      if (await casbin.enforce(user, "/posts/1", "read")) sink++;
    },
  });
  Deno.bench({
    name: "casbin enforceSync() keyMatch2",
    group,
    fn(): void {
      if (casbin.enforceSync(user, "/posts/1", "read")) sink++;
    },
  });
  Deno.bench({
    name: "IndexedEnforcer (falls back) keyMatch2",
    group,
    async fn(): Promise<void> {
      if (await indexed.enforce(user, "/posts/1", "read")) sink++;
    },
  });
  Deno.bench({
    name: "IndexedEnforcer + cache keyMatch2",
    group,
    async fn(): Promise<void> {
      if (await cached.enforce(user, "/posts/1", "read")) sink++;
    },
  });
  Deno.bench({
    name: "IndexedEnforcer + cache, sync keyMatch2",
    group,
    fn(): void {
      if (syncCached.enforce(user, "/posts/1", "read") === true) sink++;
    },
  });
}

{
  // RBAC with role links: user -> team -> role, 100,000 rules.
  const rules = 100_000;
  const rbac = SEED.replace("r.sub.role == p.sub", "g(r.sub, p.sub)")
    .replace("[policy_effect]", "[role_definition]\ng = _, _\n[policy_effect]");
  const casbin = await enforcerOf(rbac, rules, "p, viewer, /posts, read", [
    "g, alice, team",
    "g, team, viewer",
  ]);
  const indexed = IndexedEnforcer.from(casbin);
  if (!indexed.indexed) throw new Error("the RBAC model is not indexed");
  const group = "g(r.sub, p.sub) model, 100,000 rules, 2 role levels";
  Deno.bench({
    name: "casbin enforceSync() g()",
    group,
    baseline: true,
    n: 20,
    warmup: 2,
    fn(): void {
      if (casbin.enforceSync("alice", "/posts", "read")) sink++;
    },
  });
  Deno.bench({
    name: "IndexedEnforcer g()",
    group,
    fn(): void {
      if (indexed.enforce("alice", "/posts", "read") === true) sink++;
    },
  });
  const flat = compileEnforcerIndex(casbin);
  if (typeof flat === "string") throw new Error(flat);
  const compiled = new CompiledEnforcer(flat, () => Promise.resolve(casbin));
  Deno.bench({
    name: "flat index (worker-loaded) g()",
    group,
    fn(): void {
      if (compiled.enforce("alice", "/posts", "read") === true) sink++;
    },
  });
}

globalThis.addEventListener("unload", () => {
  if (sink < 0) throw new Error("unreachable");
});
