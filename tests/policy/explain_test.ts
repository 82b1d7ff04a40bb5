import assert from "node:assert/strict";
import {
  EnforceContext,
  newEnforcer,
  newModelFromString,
  StringAdapter,
} from "casbin";
import { readFile } from "node:fs/promises";
import { CachedFileEnforcerProvider } from "../../src/guard/cached_file_enforcer_provider.ts";
import { IndexedEnforcer } from "../../src/guard/indexed_enforcer.ts";
import { explain } from "../../src/policy/explain.ts";
import { formatExplanation } from "../../src/policy/format_explanation.ts";
import { CASBIN_EXAMPLES, examplePath } from "../fixtures/casbin_examples.ts";
import {
  decide,
  keyMatchCustom,
  requestsFor,
} from "../fixtures/casbin_example_requests.ts";
import { MODEL, POLICY } from "../fixtures/guard/casbin.ts";

async function example(
  model: string,
  policy: string,
): Promise<Awaited<ReturnType<typeof newEnforcer>>> {
  return await newEnforcer(examplePath(model), examplePath(policy));
}

// The decision of every explanation equals casbin's, on every stock example
// and the requests the index is checked with, through the enforcer the
// guard serves (the index over casbin) for models the index answers and
// for those it hands to casbin; the deciding rule is the one casbin's
// enforceEx names.
for (const entry of CASBIN_EXAMPLES) {
  if (entry.refused !== undefined) continue;
  Deno.test(`explain() decides casbin's ${entry.model} with ${entry.policy} as casbin does`, async () => {
    const functions = Object.fromEntries(
      (entry.functions ?? []).map((name) => [name, keyMatchCustom]),
    );
    const casbin = await example(entry.model, entry.policy);
    for (const [name, fn] of Object.entries(functions)) {
      await casbin.addFunction(name, fn);
    }
    await using provider = await CachedFileEnforcerProvider.open({
      modelPath: examplePath(entry.model),
      policyPath: examplePath(entry.policy),
      functions,
      loadIn: "main",
      watch: false,
      pollIntervalMs: 0,
    });
    const served = await provider.getEnforcer();
    assert.ok(served instanceof IndexedEnforcer);
    const modelText = await readFile(examplePath(entry.model), "utf8");
    const policyText = await readFile(examplePath(entry.policy), "utf8");
    const requests = requestsFor(entry, modelText, policyText);
    for (const values of requests) {
      const expected = await decide((...v) => casbin.enforce(...v), values);
      let actual: boolean | "throws";
      let deciding: readonly string[] | undefined;
      try {
        const explanation = await explain(served, ...values);
        actual = explanation.allowed;
        deciding = explanation.deciding?.rule.values;
      } catch {
        actual = "throws";
      }
      const label = JSON.stringify(values);
      assert.equal(actual, expected, label);
      if (expected === "throws") continue;
      const [, rule] = await casbin.enforceEx(...values);
      // enforceEx names the first rule when the matcher reads no rule.
      if (/\bp\d*\./.test(modelText.split("[matchers]")[1]!)) {
        assert.deepEqual(deciding ?? [], rule, label);
      }
    }
  });
}

Deno.test("explain() covers models the index answers and models casbin answers", async () => {
  let indexed = 0;
  let casbinOnly = 0;
  for (const entry of CASBIN_EXAMPLES) {
    if (entry.refused !== undefined || entry.functions !== undefined) continue;
    const enforcer = IndexedEnforcer.from(
      await example(entry.model, entry.policy),
    );
    if (enforcer.indexed) indexed++;
    else casbinOnly++;
  }
  assert.ok(indexed >= 5, `${indexed} indexed`);
  assert.ok(casbinOnly >= 5, `${casbinOnly} for casbin`);
});

Deno.test("explain() names the role path of a role check through a hierarchy", async () => {
  const enforcer = await example(
    "rbac_model.conf",
    "rbac_with_hierarchy_policy.csv",
  );
  const explanation = await explain(enforcer, "alice", "data2", "write");
  assert.equal(explanation.allowed, true);
  assert.equal(explanation.deciding?.rule.text, "p, data2_admin, data2, write");
  const links = explanation.deciding?.roles[0]?.links;
  assert.deepEqual(
    links?.map((link) => [link.from, link.to, link.rule?.text]),
    [
      ["alice", "admin", "g, alice, admin"],
      ["admin", "data2_admin", "g, admin, data2_admin"],
    ],
  );
  assert.match(
    formatExplanation(explanation),
    /decided by: p, data2_admin, data2, write through alice -> admin -> data2_admin \(g, alice, admin; g, admin, data2_admin\)/,
  );
});

Deno.test("explain() reports the deny rule that beat an allow through a role", async () => {
  const enforcer = await example(
    "rbac_with_deny_model.conf",
    "rbac_with_deny_policy.csv",
  );
  const explanation = await explain(enforcer, "alice", "data2", "write");
  assert.equal(explanation.allowed, false);
  assert.equal(explanation.deciding?.rule.text, "p, alice, data2, write, deny");
  assert.deepEqual(explanation.nearest, [], "the deny rule is the reason");
  assert.deepEqual(
    explanation.matched.map((m) => [m.effect, m.rule.text, m.counted]),
    [
      ["allow", "p, data2_admin, data2, write, allow", true],
      ["deny", "p, alice, data2, write, deny", true],
    ],
  );
  assert.equal(
    formatExplanation(explanation).split("\n").slice(0, 5).join("\n"),
    [
      "deny: alice, data2, write",
      "  effect: some(where (p.eft == allow)) && !some(where (p.eft == deny))",
      "  decided by: p, alice, data2, write, deny",
      "  also matched:",
      "    allow p, data2_admin, data2, write, allow through alice -> data2_admin (g, alice, data2_admin)",
    ].join("\n"),
  );
});

Deno.test("explain() gives each near miss of a denial the term that differed", async (t) => {
  await t.step("a role the subject lacks", async () => {
    const enforcer = await newEnforcer(
      newModelFromString(
        MODEL.replace(
          /^m = .*$/m,
          "m = g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act",
        )
          .replace(
            "[policy_effect]",
            "[role_definition]\ng = _, _\n\n[policy_effect]",
          ),
      ),
      new StringAdapter(
        "p, editor, post, write\np, viewer, post, read\ng, ana, viewer",
      ),
    );
    const explanation = await explain(enforcer, "ana", "post", "write");
    assert.equal(explanation.allowed, false);
    assert.deepEqual(
      explanation.nearest.map((miss) =>
        `${miss.rule.text}: ${miss.reasons.join("; ")}`
      ),
      [
        "p, editor, post, write: subject ana is not editor and has no role link to it",
        "p, viewer, post, read: act write is not read",
      ],
    );
  });
  await t.step("an attribute of the subject", async () => {
    const enforcer = await newEnforcer(
      newModelFromString(MODEL),
      new StringAdapter(POLICY),
    );
    const explanation = await explain(
      enforcer,
      { role: "viewer" },
      "post",
      "write",
    );
    assert.deepEqual(explanation.nearest.map((miss) => miss.reasons), [
      ["subject role viewer is not admin"],
      ["subject role viewer is not editor"],
      ["act write is not read"],
    ]);
  });
  await t.step("key and regex patterns", async () => {
    const enforcer = await example(
      "keymatch_model.conf",
      "keymatch_policy.csv",
    );
    const explanation = await explain(
      enforcer,
      "cathy",
      "/cathy_data",
      "DELETE",
    );
    assert.equal(
      explanation.nearest[0]?.reasons[0],
      "act DELETE does not match (GET)|(POST) (regexMatch)",
    );
    const elsewhere = await explain(enforcer, "alice", "/bob_data/1", "GET");
    assert.equal(
      elsewhere.nearest[0]?.reasons[0],
      "obj /bob_data/1 does not match /alice_data/* (keyMatch)",
    );
  });
  await t.step("a role in another domain", async () => {
    const enforcer = await example(
      "rbac_with_domains_model.conf",
      "rbac_with_domains_policy.csv",
    );
    const explanation = await explain(
      enforcer,
      "alice",
      "domain2",
      "data2",
      "read",
    );
    assert.equal(
      `${explanation.nearest[0]?.rule.text}: ${
        explanation.nearest[0]?.reasons[0]
      }`,
      "p, admin, domain2, data2, read: subject alice is not admin and has no role link to it in domain domain2",
    );
    const allowed = await explain(
      enforcer,
      "alice",
      "domain1",
      "data1",
      "read",
    );
    assert.deepEqual(
      allowed.deciding?.roles[0]?.links?.map((l) => l.rule?.text),
      [
        "g, alice, admin, domain1",
      ],
    );
  });
  await t.step("alternatives of a disjunction", async () => {
    const enforcer = await example(
      "basic_with_root_model.conf",
      "basic_policy.csv",
    );
    const explanation = await explain(enforcer, "bob", "data1", "read");
    assert.deepEqual(explanation.nearest[0]?.reasons, [
      "subject bob is not alice and subject bob is not root",
    ]);
  });
  await t.step("a rule evaluated with eval()", async () => {
    const enforcer = await example(
      "abac_rule_model.conf",
      "abac_rule_policy.csv",
    );
    const explanation = await explain(enforcer, { Age: 10 }, "/data1", "read");
    assert.equal(explanation.allowed, false);
    assert.deepEqual(explanation.nearest[0]?.reasons, [
      "r.sub.Age > 18 is false (r.sub.Age is 10)",
    ]);
  });
});

Deno.test("explain() marks the rules that matched after a priority decision as not counted", async () => {
  const enforcer = await example("priority_model.conf", "priority_policy.csv");
  const explanation = await explain(enforcer, "alice", "data1", "read");
  assert.equal(explanation.allowed, true);
  assert.deepEqual(
    explanation.matched.map((m) => [m.rule.text, m.effect, m.counted]),
    [
      ["p, alice, data1, read, allow", "allow", true],
      ["p, data1_deny_group, data1, read, deny", "deny", false],
    ],
  );
  assert.match(
    formatExplanation(explanation),
    /\(after the decision was made\)/,
  );
});

Deno.test("explain() takes an EnforceContext for a second matcher", async () => {
  const enforcer = await example(
    "multiple_policy_definitions_model.conf",
    "multiple_policy_definitions_policy.csv",
  );
  const context = new EnforceContext("r2", "p2", "e", "m2");
  const old = await explain(enforcer, context, { Age: 70 }, "/data1", "read");
  assert.equal(
    old.allowed,
    await enforcer.enforce(context, { Age: 70 }, "/data1", "read"),
  );
  assert.equal(old.matched[0]?.rule.type, "p2");
  assert.equal(old.matched[0]?.effect, "deny");
});

Deno.test("explain() throws what casbin throws, and refuses an enforcer without casbin", async () => {
  const enforcer = await newEnforcer(
    newModelFromString(MODEL),
    new StringAdapter(POLICY),
  );
  await assert.rejects(
    explain(enforcer, { role: "viewer" }, "post"),
    /invalid request size/,
  );
  await assert.rejects(explain({ enforce: () => true }, "x"), {
    name: "TypeError",
    message:
      /Cannot explain: the enforcer is neither a casbin Enforcer nor an IndexedEnforcer/,
  });
});
