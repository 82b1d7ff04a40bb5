import assert from "node:assert/strict";
import {
  type Enforcer as CasbinEnforcer,
  newEnforcer,
  newModelFromString,
  StringAdapter,
} from "casbin";
import { compileEnforcerIndex } from "../../../src/guard/_index/mod.ts";
import { CompiledEnforcer } from "../../../src/guard/_index/compiled_enforcer.ts";
import { PolicyWorker } from "../../../src/guard/_policy/worker_client.ts";

const RBAC = `[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act
[role_definition]
g = _, _
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act
`;

/** casbin's enforcer and the compiled one over the same model and policy. */
async function both(
  model: string,
  policy: string,
): Promise<{ casbin: CasbinEnforcer; compiled: CompiledEnforcer }> {
  const casbin = await newEnforcer(
    newModelFromString(model),
    new StringAdapter(policy),
  );
  const flat = compileEnforcerIndex(casbin);
  assert.notEqual(typeof flat, "string", String(flat));
  const compiled = new CompiledEnforcer(
    structuredClone(flat as Exclude<typeof flat, string>),
    () => Promise.reject(new Error("casbin must not be needed")),
  );
  return { casbin, compiled };
}

Deno.test("compiled index follows role chains exactly as far as casbin does", async () => {
  // u0 -> u1 -> ... -> u14; the rule is on u14. casbin follows at most
  // maxHierarchyLevel (10) links.
  const links = Array.from(
    { length: 14 },
    (_, i) => `g, u${i}, u${i + 1}`,
  );
  const policy = ["p, u14, doc, read", ...links].join("\n");
  const { casbin, compiled } = await both(RBAC, policy);
  let allowed = 0;
  for (let i = 0; i <= 14; i++) {
    const expected = await casbin.enforce(`u${i}`, "doc", "read");
    assert.equal(compiled.enforce(`u${i}`, "doc", "read"), expected, `u${i}`);
    if (expected) allowed++;
  }
  assert.ok(allowed > 1 && allowed < 15, `${allowed} allowed`);
  // Cycles end.
  const cyclic = await both(
    RBAC,
    "p, c, doc, read\ng, a, b\ng, b, a\ng, b, c",
  );
  assert.equal(cyclic.compiled.enforce("a", "doc", "read"), true);
  assert.equal(cyclic.compiled.enforce("c", "doc", "write"), false);
});

Deno.test("compiled index compares strings code unit by code unit", async () => {
  const model = RBAC.replace("g(r.sub, p.sub)", "r.sub == p.sub");
  const names = ["", "é", "e\u0301", "😀", "a\u0000b", "ＡＢ", "a b"];
  const policy = names.map((name, i) => `p, "${name}", doc${i}, read`).join(
    "\n",
  );
  const { casbin, compiled } = await both(model, policy);
  for (const i of names.keys()) {
    for (const [j, other] of names.entries()) {
      assert.equal(
        compiled.enforce(other, `doc${i}`, "read"),
        await casbin.enforce(other, `doc${i}`, "read"),
        `${JSON.stringify(other)} on doc${i}`,
      );
      assert.equal(compiled.enforce(other, `doc${i}`, "read"), i === j);
    }
  }
});

Deno.test("compiled index finds every rule of a large policy and nothing else", async () => {
  const model = RBAC.replace("g(r.sub, p.sub)", "r.sub == p.sub");
  const rows: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    rows.push(`p, user${i % 997}, doc${i}, ${i % 3 === 0 ? "write" : "read"}`);
  }
  const { compiled } = await both(model, rows.join("\n"));
  for (let i = 0; i < 20_000; i += 7) {
    const act = i % 3 === 0 ? "write" : "read";
    const other = act === "read" ? "write" : "read";
    assert.equal(compiled.enforce(`user${i % 997}`, `doc${i}`, act), true);
    assert.equal(compiled.enforce(`user${i % 997}`, `doc${i}`, other), false);
    assert.equal(
      compiled.enforce(`user${(i + 1) % 997}`, `doc${i}`, act),
      false,
    );
    assert.equal(
      compiled.enforce(`user${i % 997}`, `doc${i + 20_000}`, act),
      false,
    );
  }
});

Deno.test("compiled index answers a request whose getter decides another request meanwhile", async () => {
  const model = RBAC.replace("r.act == p.act", "r.act.value == p.act");
  const casbin = await newEnforcer(
    newModelFromString(model),
    new StringAdapter(
      "p, reader, doc, read\np, writer, doc, write\ng, alice, reader",
    ),
  );
  const flat = compileEnforcerIndex(casbin);
  assert.notEqual(typeof flat, "string", String(flat));
  const compiled = new CompiledEnforcer(
    flat as Exclude<typeof flat, string>,
    () => Promise.resolve(casbin),
  );
  const nested: (boolean | Promise<boolean>)[] = [];
  // Reading the action decides another request on the same enforcer, in
  // the middle of the outer lookup.
  const outer = compiled.enforce("alice", "doc", {
    get value(): string {
      nested.push(compiled.enforce("writer", "doc", { value: "write" }));
      return "read";
    },
  });
  assert.equal(outer, true);
  assert.equal(nested.length, 1);
  assert.equal(await nested[0], true);
  assert.equal(compiled.enforce("alice", "doc", { value: "write" }), false);
  assert.equal(compiled.enforce("alice", "doc", { value: "read" }), true);
});

Deno.test("the policy worker compiles a RESTful policy whose transferred index decides as casbin does", async () => {
  const model = RBAC.replace("r.obj == p.obj", "keyMatch2(r.obj, p.obj)")
    .replace("r.act == p.act", "regexMatch(r.act, p.act)");
  const rows: string[] = [];
  for (let i = 0; i < 1_000; i++) {
    rows.push(`p, role${i % 50}, /api/svc${i}/items/:id, (GET)|(POST)`);
  }
  rows.push("g, alice, role7", "g, bob, role8");
  const policy = rows.join("\n");
  const worker = await PolicyWorker.start();
  try {
    const result = await worker.compile({
      modelText: model,
      policyBytes: new TextEncoder().encode(policy),
      functionNames: [],
      allowEmptyPolicy: false,
    });
    assert.equal(result.kind, "compiled");
    const index = (result as Extract<typeof result, { kind: "compiled" }>)
      .index;
    // The buffers were moved, not copied: the index is the worker's.
    assert.ok(index.trie !== null);
    const compiled = new CompiledEnforcer(
      index,
      () => Promise.reject(new Error("casbin must not be needed")),
    );
    const casbin = await newEnforcer(
      newModelFromString(model),
      new StringAdapter(policy),
    );
    let allowed = 0;
    // The rules of alice's and bob's roles, and of two others.
    for (let i = 0; i < 1_000; i++) {
      if (![7, 8, 9, 30].includes(i % 50)) continue;
      for (const user of ["alice", "bob"]) {
        for (
          const request of [
            [user, `/api/svc${i}/items/1`, "GET"],
            [user, `/api/svc${i}/items/1`, "DELETE"],
            [user, `/api/svc${i}/items`, "POST"],
          ]
        ) {
          const expected = await casbin.enforce(...request);
          assert.equal(compiled.enforce(...request), expected, `${request}`);
          if (expected) allowed++;
        }
      }
    }
    assert.equal(allowed, 40);
  } finally {
    worker.terminate();
  }
});
