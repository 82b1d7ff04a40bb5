import assert from "node:assert/strict";
import type {
  Enforcer,
  EnforcerProvider,
  EnforcerSource,
} from "../../src/guard/enforcer.ts";
import { makeEnforcer } from "../fixtures/guard/casbin.ts";

Deno.test("Enforcer is satisfied by a casbin Enforcer and by plain objects", async () => {
  const casbin: Enforcer = await makeEnforcer();
  const sync: Enforcer = { enforce: () => true };
  const remote: Enforcer = { enforce: () => Promise.resolve(false) };
  assert.equal(await casbin.enforce({ role: "viewer" }, "post", "read"), true);
  assert.equal(
    await casbin.enforce({ role: "viewer" }, "post", "write"),
    false,
  );
  assert.equal(sync.enforce(), true);
  assert.equal(await remote.enforce(), false);
});

Deno.test("EnforcerProvider accepts a function or an object with getEnforcer()", async () => {
  const enforcer: Enforcer = { enforce: () => true };
  class Source implements EnforcerSource {
    readonly #enforcer = enforcer;
    getEnforcer(): Enforcer {
      return this.#enforcer;
    }
  }
  const providers: EnforcerProvider[] = [
    () => enforcer,
    async () => await Promise.resolve(enforcer),
    new Source(),
    { getEnforcer: () => Promise.resolve(enforcer) },
  ];
  for (const provider of providers) {
    const got = typeof provider === "function"
      ? await provider()
      : await provider.getEnforcer();
    assert.equal(got, enforcer);
  }
});
