import assert from "node:assert/strict";
import { BracketAwareCsvParser, newModelFromString } from "casbin";
import {
  formatPolicyLine,
  PolicyRowRenderer,
} from "../../../src/guard/postgres/_policy_rows.ts";
import { parsePolicy } from "../../../src/guard/_policy/build.ts";
import { MODEL } from "../../fixtures/guard/casbin.ts";

const EFFECT_MODEL = MODEL.replace(
  "p = sub, obj, act",
  "p = sub, obj, act, eft",
)
  .replace("[policy_effect]", "[role_definition]\ng = _, _\n\n[policy_effect]");

Deno.test("PolicyRowRenderer renders rows as policy lines that parse back to the same values", async () => {
  const model = newModelFromString(EFFECT_MODEL);
  const renderer = new PolicyRowRenderer(model, "casbin_rule");
  const rows = [
    [1, "p", "alice", "post", "read", "allow", null, null],
    [2, "p", "a,b", 'say "hi"', "(GET)|(POST)", "deny", "", null],
    [5, "g", " bob ", "editor", null, null, null, null],
    [7, "p", "x", "keyMatch(/a, /b)", "", "allow", null, null],
  ];
  renderer.add(rows.slice(0, 2));
  renderer.add(rows.slice(2));
  const { bytes, ids } = renderer.finish();
  assert.deepEqual(ids, [1, 2, 5, 7]);
  const { rules } = await parsePolicy(new TextDecoder().decode(bytes), model);
  assert.deepEqual(rules.get("p"), [
    ["alice", "post", "read", "allow"],
    ["a,b", 'say "hi"', "(GET)|(POST)", "deny"],
    ["x", "keyMatch(/a, /b)", "", "allow"],
  ]);
  assert.deepEqual(rules.get("g"), [["bob", "editor"]]);
});

Deno.test("PolicyRowRenderer refuses rows a policy file could not hold, naming the row", () => {
  const model = newModelFromString(EFFECT_MODEL);
  const cases: [unknown[], RegExp][] = [
    [[3, null, "a", "b", "c", "allow"], /row id 3 has unknown policy type ""/],
    [
      [3, "p2", "a", "b", "c", "allow"],
      /unknown policy type "p2" \(the model defines p, g\)/,
    ],
    [[3, "p", "a", "b", "c"], /has 3 values after "p", expected 4/],
    [
      [3, "p", "a", "b", "c", "allow", "extra"],
      /has 5 values after "p", expected 4/,
    ],
    [
      [3, "p", "a", null, "c", "allow"],
      /has no value in v1 \(a NULL before v3\)/,
    ],
    [
      [3, "p", "a", "b", "c", "Allow"],
      /has effect "Allow", expected "allow" or "deny"/,
    ],
    [[3, "p", "a\r", "b", "c", "allow"], /has a line break in v0/],
    [[3, "g", 'x"(', "y", null], /cannot carry unchanged/],
  ];
  for (const [row, message] of cases) {
    const renderer = new PolicyRowRenderer(model, "casbin_rule");
    assert.throws(
      () => renderer.add([row]),
      (error: Error & { code?: string }) =>
        error.name === "EnforcerLoadError" && error.code === "POLICY_INVALID" &&
        message.test(error.message),
      String(row),
    );
  }
});

Deno.test("formatPolicyLine() keeps brackets plain and quotes commas and quotes", () => {
  const parser = new BracketAwareCsvParser();
  assert.equal(
    formatPolicyLine("p", ["alice", "/posts/(.*)", "(GET)|(POST)"], parser),
    "p, alice, /posts/(.*), (GET)|(POST)",
  );
  assert.equal(formatPolicyLine("p", ["a,b", "x"], parser), 'p, "a,b", x');
  assert.equal(formatPolicyLine("p", ['say "hi"'], parser), 'p, say "hi"');
  // casbin drops the quotes around a value: such a value cannot be carried.
  assert.equal(formatPolicyLine("p", ['"q"'], parser), undefined);
  assert.equal(formatPolicyLine("p", ['x"('], parser), undefined);
});
