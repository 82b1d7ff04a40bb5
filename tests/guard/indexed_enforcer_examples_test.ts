// Every stock model + policy pair casbin 5.51.1 ships, through
// IndexedEnforcer and the worker's compiled index, against casbin itself:
// requests built from the policy's own values (each rule's values, its
// patterns filled in, every subject of a role link) and from values no
// rule holds, each compared with casbin's answer or error. Also counts how
// many of the stock models the index answers itself.
import assert from "node:assert/strict";
import { type Model, newEnforcer } from "casbin";
import { CASBIN_EXAMPLES, examplePath } from "../fixtures/casbin_examples.ts";
import { IndexedEnforcer } from "../../src/guard/indexed_enforcer.ts";
import {
  casbinEnforce,
  casbinEnforceSync,
  compiledOf,
  settle,
} from "./_index_reference.ts";

// Models that need a custom function casbin's tests add (the index leaves
// custom functions to casbin: any definition does here).
const CUSTOM = (...args: unknown[]): boolean =>
  String(args[0]).startsWith(String(args[1]).split(":")[0]!);

/** Each value a rule holds, and its patterns with parameters filled in. */
function valuesOf(model: Model): Set<string> {
  const values = new Set<string>([
    "",
    "nobody",
    "/nowhere",
    "192.168.2.1",
    "10.0.0.5",
    "::1",
    "GET",
    "POST",
  ]);
  for (const sec of ["p", "g"]) {
    for (const assertion of model.model.get(sec)?.values() ?? []) {
      for (const rule of assertion.policy) {
        for (const cell of rule) {
          values.add(cell);
          values.add(cell.replace(/:[^/]+|\{[^/}]+\}|\*|\.\*/g, "1"));
          values.add(cell.replace(/\/[^/]*$/, "/x/y"));
          values.add(`${cell}?page=2`);
        }
      }
    }
  }
  return values;
}

/**
 * Requests: each rule's values at the request positions of the same
 * names, the same with the subject of every role link, and a deterministic
 * spread over all values.
 */
function requestsOf(model: Model): unknown[][] {
  const rTokens = (model.model.get("r")?.get("r")?.tokens ?? []).map((t) =>
    t.slice(2)
  );
  const pTokens = (model.model.get("p")?.get("p")?.tokens ?? []).map((t) =>
    t.slice(2)
  );
  const values = [...valuesOf(model)];
  const subjects = new Set<string>();
  for (const assertion of model.model.get("g")?.values() ?? []) {
    for (const rule of assertion.policy) subjects.add(rule[0]!);
  }
  const requests: unknown[][] = [];
  for (const rule of model.model.get("p")?.get("p")?.policy ?? []) {
    const base = rTokens.map((token, i) => {
      const at = pTokens.indexOf(token);
      return at === -1 ? values[i % values.length]! : rule[at]!;
    });
    requests.push(base);
    requests.push(
      base.map((v) => v.replace(/:[^/]+|\{[^/}]+\}|\*|\.\*/g, "1")),
    );
    for (const subject of subjects) requests.push([subject, ...base.slice(1)]);
  }
  let seed = 7;
  for (let n = 0; n < 600; n++) {
    requests.push(rTokens.map(() => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return values[seed % values.length]!;
    }));
  }
  return requests;
}

Deno.test("IndexedEnforcer and the compiled index answer casbin's stock examples as casbin does, and index most of them", async () => {
  const enforce = casbinEnforce;
  const enforceSync = casbinEnforceSync;
  const models = new Map<string, string | undefined>();
  let decisions = 0;
  let allowed = 0;
  for (const example of CASBIN_EXAMPLES) {
    const casbin = await newEnforcer(
      examplePath(example.model),
      examplePath(example.policy),
    );
    for (const name of example.functions ?? []) {
      casbin.addFunction(name, CUSTOM);
    }
    const ours = IndexedEnforcer.from(casbin);
    const oursSync = IndexedEnforcer.from(casbin, { fallback: "enforceSync" });
    const compiled = compiledOf(casbin);
    assert.equal(compiled !== undefined, ours.indexed, ours.reason);
    // A model counts as answered when the index answers it with each of
    // the policies casbin pairs it with.
    const before = models.get(example.model);
    models.set(
      example.model,
      models.has(example.model) && before !== undefined
        ? before
        : ours.indexed
        ? undefined
        : ours.reason,
    );
    for (const request of requestsOf(casbin.getModel())) {
      const context = `${example.model} + ${example.policy}: ${
        JSON.stringify(request)
      }`;
      const expected = await settle(() => enforce.apply(casbin, request));
      assert.deepEqual(
        await settle(() => ours.enforce(...request)),
        expected,
        context,
      );
      assert.deepEqual(
        await settle(() => oursSync.enforce(...request)),
        await settle(() => enforceSync.apply(casbin, request)),
        context,
      );
      if (compiled !== undefined) {
        assert.deepEqual(
          await settle(() => compiled.enforce(...request)),
          expected,
          `compiled index, ${context}`,
        );
      }
      decisions++;
      if ((expected as { value?: unknown }).value === true) allowed++;
    }
  }
  const answered = [...models.values()].filter((r) => r === undefined).length;
  const left = [...models].filter(([, reason]) => reason !== undefined)
    .map(([model, reason]) => `${model}: ${reason}`);
  // The figure of BENCHMARKS.md: stock models the index answers itself.
  assert.ok(
    answered >= 22,
    `the index answers ${answered} of ${models.size} stock models; casbin decides:\n${
      left.join("\n")
    }`,
  );
  assert.ok(allowed > decisions / 40, `${allowed} of ${decisions} allowed`);
});
