import assert from "node:assert/strict";
import fc from "fast-check";
import {
  BracketAwareCsvParser,
  Helper,
  newEnforcer,
  newModelFromString,
  StringAdapter,
} from "casbin";
import {
  buildEnforcer,
  parsePolicy,
  splitPolicyLine,
} from "../../../src/guard/_policy/build.ts";

const MODEL = `
[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act
p2 = sub, act
[role_definition]
g = _, _
g2 = _, _, _
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act
`;

/** What casbin's own line loader makes of a line: [key, ...values]. */
function casbinFields(line: string): string[] | "throws" | null {
  const model = newModelFromString(MODEL);
  let before = 0;
  for (const assertion of model.model.get("p")!.values()) {
    before += assertion.policy.length;
  }
  try {
    Helper.loadPolicyLine(line, model);
  } catch {
    return "throws";
  }
  for (const section of ["p", "g"]) {
    for (const [key, assertion] of model.model.get(section)!) {
      if (assertion.policy.length > 0) return [key, ...assertion.policy[0]!];
    }
  }
  assert.equal(before, 0);
  return null;
}

/**
 * Lines in which a carriage return outside quotes (other than one at the
 * end) cuts the record short: casbin drops the rest silently, the provider
 * refuses the line.
 */
function cutShortByCarriageReturn(line: string): boolean {
  const body = line.endsWith("\r") ? line.slice(0, -1) : line;
  return body.replace(/"[^"]*("|$)/g, "").includes("\r");
}

Deno.test("splitPolicyLine() splits every line the way casbin's loader does", () => {
  const parser = new BracketAwareCsvParser();
  const unit = fc.constantFrom(
    "a",
    "b",
    "é",
    " ",
    "\t",
    ",",
    '"',
    '""',
    "(",
    ")",
    "\r",
    "#",
    "*",
    "/",
  );
  fc.assert(
    fc.property(
      fc.constantFrom("p", "p2", "g", "g2", " p", '"p"'),
      fc.string({ unit, maxLength: 24 }),
      (key, rest) => {
        const line = `${key},${rest}`;
        const expected = casbinFields(line);
        let actual: string[] | "throws" | null;
        try {
          actual = splitPolicyLine(line, parser);
        } catch {
          actual = "throws";
        }
        if (
          expected === "throws" ||
          (expected !== null && cutShortByCarriageReturn(line))
        ) {
          assert.equal(actual, "throws", JSON.stringify(line));
        } else if (expected !== null) {
          assert.deepEqual(actual, expected, JSON.stringify(line));
        }
      },
    ),
    { numRuns: 3000 },
  );
});

Deno.test("parsePolicy() loads every line the way casbin's loader does", async () => {
  const model = newModelFromString(MODEL);
  const counts: Record<string, number> = { p: 3, p2: 2, g: 2, g2: 3 };
  const unit = fc.constantFrom(
    "a",
    "é",
    " ",
    "\t",
    "\u00a0",
    "\ufeff",
    ",",
    '"',
    "(",
    ")",
    "\r",
    "#",
  );
  await fc.assert(
    fc.asyncProperty(
      fc.string({ unit, maxLength: 4 }),
      fc.constantFrom("p", "p2", "g", "g2", "x"),
      fc.string({ unit, maxLength: 20 }),
      async (before, key, rest) => {
        const line = `${before}${key},${rest}`;
        const expected = casbinFields(line);
        let actual: string[][] | "throws";
        try {
          const { rules } = await parsePolicy(line, model, {
            allowEmptyPolicy: true,
          });
          actual = [...rules].flatMap(([k, list]) =>
            list.map((rule) => [k, ...rule])
          );
        } catch {
          actual = "throws";
        }
        const message = JSON.stringify(line);
        if (
          expected === "throws" ||
          (expected !== null && cutShortByCarriageReturn(line))
        ) {
          assert.equal(actual, "throws", message);
        } else if (
          expected !== null && expected.length - 1 === counts[expected[0]!]
        ) {
          assert.deepEqual(actual, [expected], message);
        } else if (expected !== null) {
          // casbin accepts a wrong field count silently; the provider not.
          assert.equal(actual, "throws", message);
        } else {
          // casbin loads nothing: a blank line, a comment, or an unknown
          // type, which the provider rejects.
          assert.ok(
            actual === "throws" || actual.length === 0,
            message,
          );
        }
      },
    ),
    { numRuns: 3000 },
  );
});

Deno.test("splitPolicyLine() handles quotes, brackets and CRLF like casbin", () => {
  const parser = new BracketAwareCsvParser();
  const lines = [
    "p, alice, /posts/*, GET",
    'p, "alice, the admin", post, read',
    'p, "say ""hi""", post, read',
    "p, keyMatch(a, b), post, read",
    "p, alice, post, read\r",
    "  p ,\talice\t, post , read ",
  ];
  for (const line of lines) {
    assert.deepEqual(splitPolicyLine(line, parser), casbinFields(line), line);
  }
});

Deno.test("parsePolicy() checks field counts of every policy type", async () => {
  const model = newModelFromString(MODEL);
  const { rules, count } = await parsePolicy(
    [
      "# comment",
      "",
      "p, alice, post, read",
      "p2, alice, read",
      "g, alice, admin",
      "g2, alice, admin, tenant1",
      "   ",
    ].join("\n"),
    model,
  );
  assert.equal(count, 4);
  assert.deepEqual(rules.get("p"), [["alice", "post", "read"]]);
  assert.deepEqual(rules.get("p2"), [["alice", "read"]]);
  assert.deepEqual(rules.get("g"), [["alice", "admin"]]);
  assert.deepEqual(rules.get("g2"), [["alice", "admin", "tenant1"]]);
  await assert.rejects(
    parsePolicy("g2, alice, admin\n", model, { policyPath: "policy.csv" }),
    {
      name: "EnforcerLoadError",
      code: "POLICY_INVALID",
      path: "policy.csv",
      line: 1,
      message:
        'Cannot load policy "policy.csv": line 1 has 2 fields after "g2", expected 3',
    },
  );
  await assert.rejects(parsePolicy("p3, a, b\n", model), {
    message:
      /line 1 has unknown policy type "p3" \(the model defines p, p2, g, g2\)/,
  });
});

Deno.test("parsePolicy() lets timers and I/O run while it parses a large policy", async () => {
  const model = newModelFromString(MODEL);
  const text = Array.from(
    { length: 20_000 },
    (_, i) => `p, user${i}, post, read`,
  ).join("\n");
  let timerRan = false;
  const timer = setTimeout(() => timerRan = true, 0);
  let timerRanBeforeEnd = false;
  await parsePolicy(text, model, { sliceMs: 0 }).then(() => {
    timerRanBeforeEnd = timerRan;
  });
  clearTimeout(timer);
  assert.equal(timerRanBeforeEnd, true);
});

Deno.test("parsePolicy() stops when cancelled", async () => {
  const model = newModelFromString(MODEL);
  const text = Array.from({ length: 5_000 }, () => "p, a, b, c").join("\n");
  await assert.rejects(
    parsePolicy(text, model, { sliceMs: 0, isCancelled: () => true }),
    { name: "BuildCancelledError" },
  );
});

Deno.test("buildEnforcer() decides like casbin's own loader", async () => {
  const policy = [
    "p, admin, post, read",
    "p, admin, post, write",
    "g, alice, admin",
    "g, bob, viewer",
    "p, viewer, post, read",
  ].join("\n");
  const { enforcer, rules } = await buildEnforcer(MODEL, policy);
  assert.equal(rules, 5);
  const reference = await newEnforcer(
    newModelFromString(MODEL),
    new StringAdapter(policy),
  );
  for (const sub of ["alice", "bob", "carol", "admin"]) {
    for (const act of ["read", "write", "delete"]) {
      assert.equal(
        await enforcer.enforce(sub, "post", act),
        await reference.enforce(sub, "post", act),
        `${sub} ${act}`,
      );
    }
  }
});

Deno.test("buildEnforcer() makes a read-only enforcer", async () => {
  const { enforcer } = await buildEnforcer(MODEL, "p, admin, post, read\n");
  await assert.rejects(enforcer.addPolicy("admin", "post", "write"), {
    message: /read-only; edit the policy file instead/,
  });
});

Deno.test("buildEnforcer() adds custom functions before the checks", async () => {
  const model = MODEL.replace("r.act == p.act", "sameAction(r.act, p.act)");
  await assert.rejects(buildEnforcer(model, "p, admin, post, read\n"), {
    code: "MODEL_INVALID",
    message: /calls unknown function "sameAction"/,
  });
  const { enforcer } = await buildEnforcer(model, "p, admin, post, read\n", {
    functions: { sameAction: (a: string, b: string) => a === b },
  });
  assert.equal(await enforcer.enforce("admin", "post", "read"), true);
  assert.equal(await enforcer.enforce("admin", "post", "write"), false);
});

Deno.test("buildEnforcer() runs the given probe", async () => {
  const model = MODEL.replace("r.act == p.act", "r.act.name == p.act");
  // With a string action, `r.act.name` is undefined: no throw.
  await buildEnforcer(model, "p, a, b, c\n", { probe: ["a", "b", "c"] });
  await assert.rejects(
    buildEnforcer(model, "p, a, b, c\n", { probe: ["a", "b"] }),
    { code: "PROBE_FAILED", message: /invalid request size/ },
  );
});

const DENY_MODEL = `
[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act, eft
[policy_effect]
e = some(where (p.eft == allow)) && !some(where (p.eft == deny))
[matchers]
m = r.sub == p.sub && keyMatch(r.obj, p.obj) && r.act == p.act
`;

Deno.test("parsePolicy() refuses a line that a carriage return splits in two", async () => {
  // casbin would keep "allow" and drop the deny rule after the CR.
  await assert.rejects(
    () =>
      parsePolicy(
        "p, bob, /*, read, allow\rp, bob, /secret, read, deny\r\n",
        newModelFromString(DENY_MODEL),
      ),
    { name: "EnforcerLoadError", message: /line 1 is not valid CSV/ },
  );
  // A quoted CR is part of one field and stays accepted.
  const { count } = await parsePolicy(
    'p, bob, "/a\rb", read, allow\n',
    newModelFromString(DENY_MODEL),
  );
  assert.equal(count, 1);
});

Deno.test("parsePolicy() refuses an effect other than allow or deny", async () => {
  for (const effect of ["deny # keep bob out", "Deny", "", "denied"]) {
    await assert.rejects(
      () =>
        parsePolicy(
          `p, bob, /*, read, allow\np, bob, /secret, read, ${effect}\n`,
          newModelFromString(DENY_MODEL),
        ),
      {
        name: "EnforcerLoadError",
        message: /line 2 has effect ".*", expected "allow" or "deny"/,
      },
      effect,
    );
  }
  const { count } = await parsePolicy(
    "p, bob, /*, read, allow\np, bob, /secret, read, deny\n",
    newModelFromString(DENY_MODEL),
  );
  assert.equal(count, 2);
});
