import assert from "node:assert/strict";
import {
  PolicyDatabase,
  PolicyDatabaseError,
  type PolicyWriteResult,
} from "../../../src/guard/postgres/mod.ts";
import { internalsOf } from "../../../src/guard/postgres/policy_database.ts";
import { freshDatabase, KINDS } from "./_databases.ts";

Deno.test("PolicyDatabase.open() refuses other URLs and bad table names", async () => {
  await assert.rejects(
    PolicyDatabase.open("mysql://root:secret@db/app"),
    (error) =>
      error instanceof RangeError && /postgres:\/\//.test(error.message) &&
      !error.message.includes("secret"),
  );
  await assert.rejects(
    PolicyDatabase.open("pglite:memory", { table: "rules; DROP TABLE x" }),
    RangeError,
  );
  await assert.rejects(
    PolicyDatabase.open("postgres://a@127.0.0.1:1/x", { maxConnections: 0 }),
    RangeError,
  );
});

for (const { kind, ignore } of KINDS) {
  Deno.test({
    name:
      `PolicyDatabase (${kind}) adds, removes and replaces rules, bumping the revision only on a change`,
    ignore,
    async fn(): Promise<void> {
      await using test = await freshDatabase(kind);
      await using database = await PolicyDatabase.open(test.url);
      assert.equal(database.kind, kind);
      assert.equal(database.table, "casbin_rule");
      const start = await database.revision();
      let result = await database.addRules([
        ["p", "alice", "post", "read"],
        ["p", "alice", "post", "read"],
        ["g", "alice", "editor"],
      ]);
      assert.equal(result.changed, 2);
      assert.ok(result.revision > start);
      assert.deepEqual(await database.rules(), [
        ["p", "alice", "post", "read"],
        ["g", "alice", "editor"],
      ]);
      // Already there: nothing written, the revision stays.
      const same = await database.addRules([["p", "alice", "post", "read"]]);
      assert.deepEqual(same, { revision: result.revision, changed: 0 });
      result = await database.removeRules([
        ["g", "alice", "editor"],
        ["g", "nobody", "editor"],
      ]);
      assert.equal(result.changed, 1);
      assert.deepEqual(
        await database.removeRules([["g", "alice", "editor"]]),
        { revision: result.revision, changed: 0 },
      );
      const replaced = await database.replaceRules([
        ["p", "bob", "post", "write"],
        ["p", "bob", "", "read"],
      ]);
      assert.equal(replaced.changed, true);
      assert.deepEqual(await database.rules(), [
        ["p", "bob", "post", "write"],
        ["p", "bob", "", "read"],
      ]);
      assert.deepEqual(
        await database.replaceRules([
          ["p", "bob", "", "read"],
          ["p", "bob", "post", "write", ""],
        ]),
        { revision: replaced.revision, changed: false },
      );
    },
  });

  Deno.test({
    name:
      `PolicyDatabase (${kind}) loses no update when writers run read-modify-write concurrently`,
    ignore,
    async fn(): Promise<void> {
      await using test = await freshDatabase(kind);
      await using first = await PolicyDatabase.open(test.url);
      // A second pool on a server (another instance); PGlite has one client.
      await using second = kind === "postgres"
        ? await PolicyDatabase.open(test.url)
        : undefined;
      await first.replaceRules([["p", "counter", "post", "0"]]);
      const increment = (
        database: PolicyDatabase,
      ): Promise<PolicyWriteResult<string>> =>
        database.update(async (tx) => {
          const rule = (await tx.rules()).find((r) => r[1] === "counter")!;
          const next = String(Number(rule[3]) + 1);
          await tx.remove([rule]);
          await tx.add([["p", "counter", "post", next]]);
          return next;
        });
      const writers = Array.from(
        { length: 20 },
        (_, i) => increment(i % 2 === 0 || !second ? first : second),
      );
      const results = await Promise.all(writers);
      assert.deepEqual(
        results.map((r) => Number(r.changed)).sort((a, b) => a - b),
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
      assert.deepEqual(await first.rules(), [["p", "counter", "post", "20"]]);
    },
  });

  Deno.test({
    name:
      `PolicyDatabase (${kind}) rolls a failed update back and rethrows its error`,
    ignore,
    async fn(): Promise<void> {
      await using test = await freshDatabase(kind);
      await using database = await PolicyDatabase.open(test.url);
      await database.replaceRules([["p", "alice", "post", "read"]]);
      const revision = await database.revision();
      const failure = new Error("changed my mind");
      await assert.rejects(
        database.update(async (tx) => {
          await tx.add([["p", "mallory", "post", "write"]]);
          throw failure;
        }),
        (error) => error === failure,
      );
      await assert.rejects(
        database.addRules([["p"]]),
        (error) => error instanceof RangeError,
      );
      await assert.rejects(
        database.addRules([["p", "a", "b", "c", "d", "e", "f", "g"]]),
        /has 7 values, the table has 6 value columns/,
      );
      await assert.rejects(
        database.addRules([["p", "a\nb"]]),
        /line break/,
      );
      await assert.rejects(
        database.addRules([["p", 1 as unknown as string]]),
        TypeError,
      );
      // A database error is a PolicyDatabaseError with its cause.
      await assert.rejects(
        database.update(async (tx) => {
          // Longer than the column allows.
          await tx.add([["p", "x".repeat(300), "post", "read"]]);
        }),
        (error) =>
          error instanceof PolicyDatabaseError &&
          error.code === "WRITE_FAILED",
      );
      assert.equal(await database.revision(), revision);
      assert.deepEqual(await database.rules(), [[
        "p",
        "alice",
        "post",
        "read",
      ]]);
    },
  });

  Deno.test({
    name:
      `PolicyDatabase (${kind}) uses another table when asked, and does not create one when told not to`,
    ignore,
    async fn(): Promise<void> {
      await using test = await freshDatabase(kind);
      await assert.rejects(
        PolicyDatabase.open(test.url, {
          table: "app_rules",
          createSchema: false,
        }),
        (error) =>
          error instanceof PolicyDatabaseError &&
          error.code === "SCHEMA_FAILED",
      );
      await using database = await PolicyDatabase.open(test.url, {
        table: "app_rules",
      });
      assert.equal(database.table, "app_rules");
      await database.addRules([["p", "a", "b", "c"]]);
      const { client } = internalsOf(database);
      assert.deepEqual(
        await client.query("SELECT ptype, v0 FROM app_rules"),
        [["p", "a"]],
      );
      assert.deepEqual(
        await client.query("SELECT to_regclass('casbin_rule') IS NULL"),
        [[true]],
      );
      await database.close();
      await database.close();
      await assert.rejects(database.rules(), /closed/);
    },
  });
}
