import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import {
  exportPolicyCsv,
  importPolicyCsv,
  PolicyDatabase,
} from "../../../src/guard/postgres/mod.ts";
import { freshDatabase, KINDS } from "./_databases.ts";

const RBAC_POLICY = await readFile(
  new URL("../../fixtures/policy/rbac_policy.csv", import.meta.url),
  "utf8",
);

for (const { kind, ignore } of KINDS) {
  Deno.test({
    name:
      `importPolicyCsv() and exportPolicyCsv() (${kind}) move a policy file into the table and back`,
    ignore,
    async fn(): Promise<void> {
      await using test = await freshDatabase(kind);
      await using database = await PolicyDatabase.open(test.url);
      const text = [
        "# a comment",
        "p, admin, post, write",
        "",
        'p, "a,b", post, read',
        "p, viewer, /posts/(.*), (GET)|(POST)",
        "g, alice, admin\r",
        "",
      ].join("\n");
      const imported = await importPolicyCsv(database, text);
      assert.equal(imported.rules, 4);
      assert.equal(imported.changed, true);
      assert.deepEqual(await database.rules(), [
        ["p", "admin", "post", "write"],
        ["p", "a,b", "post", "read"],
        ["p", "viewer", "/posts/(.*)", "(GET)|(POST)"],
        ["g", "alice", "admin"],
      ]);
      const exported = await exportPolicyCsv(database);
      assert.equal(
        exported,
        'p, admin, post, write\np, "a,b", post, read\np, viewer, /posts/(.*), (GET)|(POST)\ng, alice, admin\n',
      );
      // Importing the export changes nothing.
      const again = await importPolicyCsv(database, exported);
      assert.equal(again.changed, false);
      assert.equal(again.revision, imported.revision);

      const added = await importPolicyCsv(database, RBAC_POLICY, {
        mode: "add",
      });
      assert.equal(added.changed, true);
      assert.equal((await database.rules()).length >= 4, true);
      await importPolicyCsv(database, RBAC_POLICY);
      // Quotes that casbin would drop are dropped.
      assert.equal(
        await exportPolicyCsv(database),
        RBAC_POLICY.replace(
          '"writer", "/posts/*", "POST"',
          "writer, /posts/*, POST",
        ),
      );
    },
  });

  Deno.test({
    name:
      `importPolicyCsv() (${kind}) refuses a file with a broken line and leaves the table as it was`,
    ignore,
    async fn(): Promise<void> {
      await using test = await freshDatabase(kind);
      await using database = await PolicyDatabase.open(test.url);
      await importPolicyCsv(database, "p, admin, post, write\n");
      await assert.rejects(
        importPolicyCsv(database, "p, admin, post, read\np\n"),
        (error) =>
          error instanceof SyntaxError && /line 2 needs/.test(error.message),
      );
      await assert.rejects(
        importPolicyCsv(database, "p, a, b, c, d, e, f, g, h\n"),
        RangeError,
      );
      await assert.rejects(
        importPolicyCsv(database, "p, a\n", {
          mode: "merge" as "add",
        }),
        RangeError,
      );
      assert.deepEqual(await database.rules(), [[
        "p",
        "admin",
        "post",
        "write",
      ]]);
    },
  });
}
