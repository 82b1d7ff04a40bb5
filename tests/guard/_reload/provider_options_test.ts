// What both enforcer providers make of the options they share.
import assert from "node:assert/strict";
import {
  loaderSettingsOf,
  nonNegative,
} from "../../../src/guard/_reload/provider_options.ts";

Deno.test("loaderSettingsOf() fills in the defaults", () => {
  assert.deepEqual(loaderSettingsOf({}), {
    prepare: undefined,
    loadIn: "auto",
    probe: undefined,
    functions: {},
    allowEmptyPolicy: false,
  });
  const prepare = <E>(enforcer: E): E => enforcer;
  const functions = { isOwner: () => true };
  assert.deepEqual(
    loaderSettingsOf({
      prepare,
      loadIn: "main",
      probe: ["alice"],
      functions,
      allowEmptyPolicy: true,
    }),
    {
      prepare,
      loadIn: "main",
      probe: ["alice"],
      functions,
      allowEmptyPolicy: true,
    },
  );
});

Deno.test("loaderSettingsOf() refuses an unknown loadIn", () => {
  assert.throws(
    () => loaderSettingsOf({ loadIn: "thread" as "auto" }),
    {
      name: "RangeError",
      message:
        'Cannot open enforcer provider: loadIn must be "auto", "worker" or "main", got thread',
    },
  );
});

Deno.test("nonNegative() passes 0 and finite positive numbers, and names the option of the rest", () => {
  assert.equal(nonNegative("debounceMs", 0), 0);
  assert.equal(nonNegative("debounceMs", 2.5), 2.5);
  for (const value of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.throws(() => nonNegative("pollIntervalMs", value), {
      name: "RangeError",
      message:
        `Cannot open enforcer provider: pollIntervalMs must be a finite number >= 0, got ${value}`,
    });
  }
});
