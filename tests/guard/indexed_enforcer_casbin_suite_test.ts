// Replays every decision of node-casbin's own test suite (recorded against
// casbin 5.51.1 by scripts/casbin_enforce_calls/record.ts, with the
// enforcer's state at each call) against IndexedEnforcer and the worker's
// compiled index: each answer and each error must be casbin's.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import {
  DefaultRoleManager,
  EnforceContext,
  type Enforcer as CasbinEnforcer,
  type Model,
  newEnforcer,
  newModel,
  Util,
} from "casbin";
import { IndexedEnforcer } from "../../src/guard/indexed_enforcer.ts";
import {
  casbinEnforce,
  casbinEnforceSync,
  compiledOf,
  settle,
} from "./_index_reference.ts";

interface RoleManagerInfo {
  kind: string;
  maxLevel: unknown;
  matching: string | null;
  domainMatching: string | null;
  domainHierarchy: string | null;
}

type Result = { value: boolean } | { error: string };

interface Case {
  tests: string[];
  model: number;
  policy: number;
  roleManagers: [string, RoleManagerInfo][];
  functions: string[];
  enabled: boolean;
  acceptJsonRequest: boolean;
  calls: { args: unknown[]; context: string[] | null; result: Result }[];
}

const fixture = JSON.parse(
  await readFile(
    new URL("../fixtures/guard/casbin_enforce_calls.json", import.meta.url),
    "utf8",
  ),
) as {
  decisions: number;
  models: string[];
  policies: [string, string, string[][]][][];
  cases: Case[];
};

// The custom functions casbin's tests add, restated by what they answer.
const CUSTOM: Record<string, (...args: unknown[]) => boolean> = {
  // TestKeyMatchCustomModel: true for two (request, pattern) pairs only.
  keyMatchCustom: (...args) => {
    const key1 = String(args[0]);
    const key2 = String(args[1]);
    return key1 === "/alice_data2/myid/using/res_id" &&
      (key2 === "/alice_data/:resource" ||
        key2 === "/alice_data2/:id/using/:resId");
  },
};

function deserialize(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const tagged = value as Record<string, unknown>;
  if ("$undefined" in tagged) return undefined;
  if ("$array" in tagged) return (tagged.$array as unknown[]).map(deserialize);
  if ("$object" in tagged) {
    return Object.fromEntries(
      Object.entries(tagged.$object as Record<string, unknown>).map((
        [key, v],
      ) => [key, deserialize(v)]),
    );
  }
  throw new Error(`cannot replay the value ${JSON.stringify(value)}`);
}

const SECTIONS = new Map([
  ["request_definition", "r"],
  ["policy_definition", "p"],
  ["role_definition", "g"],
  ["policy_effect", "e"],
  ["matchers", "m"],
]);

/**
 * The recorded model, definition by definition (some tests build models
 * casbin's text loader would refuse, such as one with only `r2`, `p2`...).
 */
function modelFrom(text: string): Model {
  const model = newModel();
  let sec = "";
  for (const line of text.split("\n")) {
    const header = /^\[(\w+)\]$/.exec(line);
    if (header !== null) sec = SECTIONS.get(header[1]!)!;
    const def = /^(\w+) = (.*)$/.exec(line);
    if (def !== null) model.addDef(sec, def[1]!, def[2]!);
  }
  return model;
}

/** casbin's enforcer in the state a recorded case was decided in. */
async function enforcerOf(c: Case): Promise<CasbinEnforcer> {
  const rules = fixture.policies[c.policy]!;
  const adapter = {
    loadPolicy(model: Model): Promise<void> {
      for (const [sec, key, list] of rules) {
        model.model.get(sec)?.get(key)?.policy.push(...list.map((r) => [...r]));
      }
      return Promise.resolve();
    },
    savePolicy: () => Promise.resolve(true),
    addPolicy: () => Promise.resolve(),
    removePolicy: () => Promise.resolve(),
    removeFilteredPolicy: () => Promise.resolve(),
  };
  const casbin = await newEnforcer(
    modelFrom(fixture.models[c.model]!),
    adapter as never,
  );
  for (const [key, info] of c.roleManagers) {
    assert.equal(info.kind, "DefaultRoleManager");
    if (info.maxLevel !== 10) {
      casbin.setNamedRoleManager(
        key,
        new DefaultRoleManager(info.maxLevel as number),
      );
    }
  }
  await casbin.loadPolicy();
  const util = Util as unknown as Record<
    string,
    (...args: unknown[]) => boolean
  >;
  for (const [key, info] of c.roleManagers) {
    if (info.matching !== null) {
      await casbin.addNamedMatchingFunc(key, util[info.matching]!);
    }
    if (info.domainMatching !== null) {
      await casbin.addNamedDomainMatchingFunc(key, util[info.domainMatching]!);
    }
    if (info.domainHierarchy !== null) {
      await (casbin.getNamedRoleManager(key) as DefaultRoleManager)
        .addDomainHierarchy(casbin.getNamedRoleManager(info.domainHierarchy)!);
    }
  }
  for (const name of c.functions) {
    const fn = CUSTOM[name];
    assert.ok(fn !== undefined, `no restated custom function ${name}`);
    casbin.addFunction(name, fn);
  }
  if (!c.enabled) casbin.enableEnforce(false);
  if (c.acceptJsonRequest) casbin.enableAcceptJsonRequest(true);
  return casbin;
}

Deno.test("IndexedEnforcer and the compiled index answer every decision of casbin's own test suite as casbin does", async () => {
  const enforce = casbinEnforce;
  const enforceSync = casbinEnforceSync;
  let replayed = 0;
  let byIndex = 0;
  let indexedStates = 0;
  for (const c of fixture.cases) {
    const casbin = await enforcerOf(c);
    const ours = IndexedEnforcer.from(casbin);
    const oursSync = IndexedEnforcer.from(casbin, { fallback: "enforceSync" });
    const compiled = compiledOf(casbin);
    assert.equal(compiled !== undefined, ours.indexed, ours.reason);
    if (ours.indexed) indexedStates++;
    let calls = 0;
    casbin.enforce = (...rvals: unknown[]) => {
      calls++;
      return enforce.apply(casbin, rvals);
    };
    for (const call of c.calls) {
      const args = call.args.map(deserialize);
      const request = call.context === null ? args : [
        new EnforceContext(
          ...(call.context as [string, string, string, string]),
        ),
        ...args,
      ];
      const context = `${c.tests.join(", ")}\n${fixture.models[c.model]}\n${
        JSON.stringify(fixture.policies[c.policy])
      }\nrequest: ${Deno.inspect(request)}`;
      // The replay reproduces the state the test decided in.
      const expected = await settle(() => enforce.apply(casbin, request));
      assert.deepEqual(expected, call.result, `casbin itself\n${context}`);
      const before = calls;
      assert.deepEqual(
        await settle(() => ours.enforce(...request)),
        expected,
        context,
      );
      if (calls === before && ours.indexed) byIndex++;
      assert.deepEqual(
        await settle(() => oursSync.enforce(...request)),
        await settle(() => enforceSync.apply(casbin, request)),
        `enforceSync\n${context}`,
      );
      if (compiled !== undefined) {
        assert.deepEqual(
          await settle(() => compiled.enforce(...request)),
          expected,
          `compiled index\n${context}`,
        );
      }
      replayed++;
    }
  }
  assert.equal(replayed, fixture.decisions);
  // Most of the suite's decisions are the index's own: the comparison
  // must exercise it.
  assert.ok(
    byIndex > replayed / 2,
    `the index answered ${byIndex} of ${replayed}`,
  );
  assert.ok(indexedStates > fixture.cases.length / 2);
});
