// End-to-end: four application instances, Deno and Bun, on one PostgreSQL
// database, while 1,000 policy changes are committed and requests flow.
import assert from "node:assert/strict";
import {
  freshDatabase,
  POSTGRES_SKIP_REASON,
} from "../guard/postgres/_databases.ts";
import { quantile, runChanges } from "./_policy_instances.ts";

Deno.test({
  name:
    "Four instances (Deno and Bun) answer every request with a committed policy state while 1,000 changes are committed, and all converge",
  ignore: POSTGRES_SKIP_REASON !== undefined,
  async fn(): Promise<void> {
    await using test = await freshDatabase("postgres");
    const result = await runChanges({
      url: test.url,
      runtimes: ["deno", "bun", "deno", "bun"],
      changes: 1000,
      paceMs: 0,
    });
    assert.equal(
      result.inconsistent.length,
      0,
      `answers matching no committed state:\n${
        result.inconsistent.slice(0, 10).join("\n")
      }`,
    );
    assert.equal(result.failed, 0);
    assert.deepEqual(result.finalStates, [1000, 1000, 1000, 1000]);
    for (const instance of result.instances) {
      assert.deepEqual(
        instance.output.filter((line) => line.startsWith("[stderr]")),
        [],
        `${instance.runtime} reported errors`,
      );
    }
    // deno-lint-ignore no-console
    console.log(
      `${result.answers} answers; convergence p50 ${
        quantile(result.convergenceMs, 0.5).toFixed(1)
      } ms, p99 ${quantile(result.convergenceMs, 0.99).toFixed(1)} ms`,
    );
  },
});
