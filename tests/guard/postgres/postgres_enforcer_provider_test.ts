// The database provider's conformance suite: the same cases against PGlite
// and a real PostgreSQL server.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  PolicyDatabase,
  type PolicyReloadEvent,
  PostgresEnforcerProvider,
  type PostgresEnforcerProviderOptions,
} from "../../../src/guard/postgres/mod.ts";
import { internalsOf } from "../../../src/guard/postgres/policy_database.ts";
import type { EnforcerLoadError } from "../../../src/guard/_policy/error.ts";
import { MODEL } from "../../fixtures/guard/casbin.ts";
import { freshDatabase, KINDS, type TestDatabase } from "./_databases.ts";

const VIEWER = { role: "viewer" };
const EDITOR = { role: "editor" };
const RULES = [
  ["p", "editor", "post", "read"],
  ["p", "editor", "post", "write"],
  ["p", "viewer", "post", "read"],
];

/** Collects hook calls and lets a test wait for them without sleeping. */
class Events {
  readonly reloads: PolicyReloadEvent[] = [];
  readonly errors: EnforcerLoadError[] = [];
  #wake: (() => void)[] = [];

  readonly onReload = (event: PolicyReloadEvent): void => {
    this.reloads.push(event);
    this.#notify();
  };
  readonly onError = (error: EnforcerLoadError): void => {
    this.errors.push(error);
    this.#notify();
  };

  /** Resolves once `check` holds after some hook call. */
  async until(check: () => boolean): Promise<void> {
    while (!check()) {
      await new Promise<void>((resolve) => this.#wake.push(resolve));
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = [];
    for (const resolve of wake) resolve();
  }
}

interface Setup extends AsyncDisposable {
  readonly test: TestDatabase;
  readonly database: PolicyDatabase;
  readonly provider: PostgresEnforcerProvider;
  readonly events: Events;
  /** SQL outside the write API (no local signal: only NOTIFY or the poll). */
  raw(text: string, params?: unknown[]): Promise<unknown[][]>;
}

async function setup(
  test: TestDatabase,
  options: Partial<PostgresEnforcerProviderOptions> = {},
  rules: string[][] = RULES,
): Promise<Setup> {
  const database = await PolicyDatabase.open(test.url);
  await database.replaceRules(rules);
  const events = new Events();
  const provider = await PostgresEnforcerProvider.open({
    database,
    model: MODEL,
    onReload: events.onReload,
    onError: events.onError,
    ...options,
  });
  const client = internalsOf(database).client;
  return {
    test,
    database,
    provider,
    events,
    raw: (text, params = []) =>
      test.kind === "pglite"
        ? client.query(text, params)
        : test.sql(text, params),
    [Symbol.asyncDispose]: async () => {
      await provider.close();
      await database.close();
    },
  };
}

async function decide(
  provider: PostgresEnforcerProvider,
  user: unknown,
  act: string,
): Promise<boolean> {
  return await (await provider.getEnforcer()).enforce(user, "post", act);
}

for (const { kind, ignore } of KINDS) {
  Deno.test({
    name:
      `PostgresEnforcerProvider (${kind}) serves the table's rules and a writer's next request sees its write`,
    ignore,
    async fn(t): Promise<void> {
      await using test = await freshDatabase(kind);
      for (const loadIn of ["main", "worker"] as const) {
        await t.step(`loaded in ${loadIn}`, async () => {
          await using s = await setup(test, { loadIn });
          assert.equal(s.provider.getEnforcer() instanceof Promise, false);
          assert.equal(await decide(s.provider, VIEWER, "read"), true);
          assert.equal(await decide(s.provider, VIEWER, "write"), false);
          const { revision } = await s.database.addRules([
            ["p", "viewer", "post", "write"],
          ]);
          assert.equal(await decide(s.provider, VIEWER, "write"), true);
          assert.equal(s.provider.revision, revision);
          await s.database.removeRules([["p", "viewer", "post", "write"]]);
          assert.equal(await decide(s.provider, VIEWER, "write"), false);
          assert.equal(s.events.reloads.at(-1)?.loadedIn, loadIn);
          assert.deepEqual(s.events.errors, []);
        });
      }
    },
  });

  Deno.test({
    name:
      `PostgresEnforcerProvider (${kind}) reloads on a change written by another client`,
    ignore,
    async fn(): Promise<void> {
      await using test = await freshDatabase(kind);
      await using s = await setup(test);
      const before = s.provider.revision;
      await s.raw(
        "INSERT INTO casbin_rule (ptype, v0, v1, v2) VALUES ('p', 'viewer', 'post', 'write')",
      );
      await s.events.until(() => s.provider.revision > before);
      assert.equal(await decide(s.provider, VIEWER, "write"), true);
      const event = s.events.reloads.at(-1)!;
      assert.equal(event.previousRevision, before);
      assert.equal(event.rules, 4);
    },
  });

  Deno.test({
    name:
      `PostgresEnforcerProvider (${kind}) catches a lost notification with the revision poll`,
    ignore,
    async fn(): Promise<void> {
      await using test = await freshDatabase(kind);
      await using s = await setup(test, { pollIntervalMs: 50 });
      const before = s.provider.revision;
      // A change whose notification never comes: the trigger is off, the
      // revision is bumped by hand.
      await s.raw(
        "ALTER TABLE casbin_rule DISABLE TRIGGER casbin_rule_revision_bump",
      );
      await s.raw(
        "INSERT INTO casbin_rule (ptype, v0, v1, v2) VALUES ('p', 'viewer', 'post', 'write')",
      );
      await s.raw("UPDATE casbin_rule_revision SET revision = revision + 1");
      await s.events.until(() => s.provider.revision > before);
      assert.equal(await decide(s.provider, VIEWER, "write"), true);
    },
  });

  Deno.test({
    name:
      `PostgresEnforcerProvider (${kind}) refuses a malformed row like a bad policy line and keeps the last good policy`,
    ignore,
    async fn(t): Promise<void> {
      await using test = await freshDatabase(kind);
      await using s = await setup(test);
      const cases: [string, string, RegExp][] = [
        [
          "too few values",
          "INSERT INTO casbin_rule (ptype, v0, v1) VALUES ('p', 'viewer', 'post')",
          /row id \d+ has 2 values after "p", expected 3/,
        ],
        [
          "too many values",
          "INSERT INTO casbin_rule (ptype, v0, v1, v2, v3) VALUES ('p', 'viewer', 'post', 'write', 'x')",
          /row id \d+ has 4 values after "p", expected 3/,
        ],
        [
          "an unknown policy type",
          "INSERT INTO casbin_rule (ptype, v0, v1, v2) VALUES ('p9', 'viewer', 'post', 'write')",
          /row id \d+ has unknown policy type "p9"/,
        ],
        [
          "a NULL between values",
          "INSERT INTO casbin_rule (ptype, v0, v1, v2) VALUES ('p', 'viewer', NULL, 'write')",
          /row id \d+ has no value in v1/,
        ],
        [
          "a line break in a value",
          "INSERT INTO casbin_rule (ptype, v0, v1, v2) VALUES ('p', E'viewer\\np, viewer', 'post', 'write')",
          /row id \d+ has a line break in v0/,
        ],
      ];
      for (const [name, insert, message] of cases) {
        await t.step(name, async () => {
          const errors = s.events.errors.length;
          const good = s.provider.revision;
          const last = (await s.raw("SELECT max(id) FROM casbin_rule"))[0]?.[0];
          // The bad row and a good one in one transaction: neither applies.
          await s.raw(
            `WITH good AS (INSERT INTO casbin_rule (ptype, v0, v1, v2) VALUES ('p', 'viewer', 'post', 'write')) ${insert}`,
          );
          await s.events.until(() => s.events.errors.length > errors);
          assert.match(s.events.errors.at(-1)!.message, message);
          assert.equal(s.events.errors.at(-1)!.code, "POLICY_INVALID");
          assert.equal(s.provider.revision, good);
          assert.equal(await decide(s.provider, VIEWER, "write"), false);
          // Repaired (the bad row goes, the good one stays): it loads again.
          await s.raw(
            "DELETE FROM casbin_rule WHERE id > $1 AND (ptype = 'p' AND v0 = 'viewer' AND v1 = 'post' AND v2 = 'write' AND v3 IS NULL) IS NOT TRUE",
            [last],
          );
          await s.events.until(() => s.provider.revision > good);
          assert.equal(await decide(s.provider, VIEWER, "write"), true);
          await s.database.removeRules([["p", "viewer", "post", "write"]]);
          assert.equal(await decide(s.provider, VIEWER, "write"), false);
          assert.equal(s.events.errors.length, errors + 1);
        });
      }
    },
  });

  Deno.test({
    name:
      `PostgresEnforcerProvider (${kind}) refuses an effect other than allow or deny`,
    ignore,
    async fn(): Promise<void> {
      await using test = await freshDatabase(kind);
      const model = MODEL.replace("p = sub, obj, act", "p = sub, obj, act, eft")
        .replace(
          "some(where (p.eft == allow))",
          "some(where (p.eft == allow)) && !some(where (p.eft == deny))",
        );
      await using s = await setup(test, { model }, [
        ["p", "viewer", "post", "read", "allow"],
      ]);
      const good = s.provider.revision;
      await s.raw(
        "INSERT INTO casbin_rule (ptype, v0, v1, v2, v3) VALUES ('p', 'viewer', 'post', 'read', 'dney')",
      );
      await s.events.until(() => s.events.errors.length > 0);
      assert.match(
        s.events.errors[0]!.message,
        /has effect "dney", expected "allow" or "deny"/,
      );
      assert.equal(s.provider.revision, good);
    },
  });

  Deno.test({
    name:
      `PostgresEnforcerProvider (${kind}) fails to open on an invalid table, with no enforcer`,
    ignore,
    async fn(): Promise<void> {
      await using test = await freshDatabase(kind);
      const database = await PolicyDatabase.open(test.url);
      try {
        await database.addRules([["p", "viewer", "post"]]);
        await assert.rejects(
          PostgresEnforcerProvider.open({ database, model: MODEL }),
          (error: EnforcerLoadError) =>
            error.code === "POLICY_INVALID" &&
            /row id \d+ has 2 values/.test(error.message),
        );
        await database.replaceRules([]);
        await assert.rejects(
          PostgresEnforcerProvider.open({ database, model: MODEL }),
          /it has no rules/,
        );
        const empty = await PostgresEnforcerProvider.open({
          database,
          model: MODEL,
          allowEmptyPolicy: true,
        });
        assert.equal(await decide(empty, EDITOR, "read"), false);
        await empty.close();
      } finally {
        await database.close();
      }
    },
  });

  Deno.test({
    name:
      `PostgresEnforcerProvider (${kind}) opens its own database from a URL and a model file, and closes both`,
    ignore,
    async fn(): Promise<void> {
      await using test = await freshDatabase(kind);
      {
        await using database = await PolicyDatabase.open(test.url);
        await database.replaceRules(RULES);
      }
      const dir = await mkdtemp(join(tmpdir(), "portcullis-model-"));
      try {
        await writeFile(join(dir, "model.conf"), MODEL);
        const provider = await PostgresEnforcerProvider.open({
          database: test.url,
          modelPath: join(dir, "model.conf"),
        });
        assert.equal(await decide(provider, EDITOR, "write"), true);
        const database = provider.database;
        await provider.close();
        assert.throws(() => provider.getEnforcer(), /provider is closed/);
        await assert.rejects(database.rules(), /closed/);
      } finally {
        await rm(dir, { recursive: true });
      }
    },
  });

  Deno.test({
    name:
      `PostgresEnforcerProvider (${kind}) loads rows written by casbin adapters (NULL or empty trailing values, a v6 column)`,
    ignore,
    async fn(): Promise<void> {
      await using test = await freshDatabase(kind);
      // The table typeorm-adapter creates, with rows as it writes them.
      const database = await PolicyDatabase.open(test.url, {
        createSchema: false,
      }).catch(() => undefined);
      await database?.close();
      const setupSql = [
        `CREATE TABLE casbin_rule (id SERIAL PRIMARY KEY, ptype varchar, v0 varchar, v1 varchar, v2 varchar, v3 varchar, v4 varchar, v5 varchar, v6 varchar)`,
        `INSERT INTO casbin_rule (ptype, v0, v1, v2) VALUES ('p', 'editor', 'post', 'write')`,
        `INSERT INTO casbin_rule (ptype, v0, v1, v2, v3, v4, v5, v6) VALUES ('p', 'viewer', 'post', 'read', '', '', '', '')`,
        `INSERT INTO casbin_rule (ptype, v0, v1) VALUES ('g', 'alice', 'editor')`,
      ];
      const model = MODEL.replace(
        "[policy_effect]",
        "[role_definition]\ng = _, _\n\n[policy_effect]",
      ).replace("r.sub.role == p.sub", "g(r.sub.role, p.sub)");
      let s: Setup | undefined;
      if (kind === "postgres") {
        for (const statement of setupSql) await test.sql(statement);
        const database = await PolicyDatabase.open(test.url);
        const events = new Events();
        const provider = await PostgresEnforcerProvider.open({
          database,
          model,
          onError: events.onError,
        });
        s = {
          test,
          database,
          provider,
          events,
          raw: test.sql,
          [Symbol.asyncDispose]: async () => {
            await provider.close();
            await database.close();
          },
        };
      } else {
        const database = await PolicyDatabase.open(test.url, {
          createSchema: false,
        }).catch(() => undefined);
        assert.equal(database, undefined);
        // PGlite has one client: create the adapter's table through a
        // database opened on another table, then open the real one.
        const bootstrap = await PolicyDatabase.open(test.url, {
          table: "bootstrap_rule",
        });
        for (const statement of setupSql) {
          await internalsOf(bootstrap).client.query(statement);
        }
        await bootstrap.close();
        const opened = await PolicyDatabase.open(test.url);
        const provider = await PostgresEnforcerProvider.open({
          database: opened,
          model,
        });
        s = {
          test,
          database: opened,
          provider,
          events: new Events(),
          raw: (text, params = []) =>
            internalsOf(opened).client.query(text, params),
          [Symbol.asyncDispose]: async () => {
            await provider.close();
            await opened.close();
          },
        };
      }
      await using _ = s;
      assert.equal(await decide(s.provider, { role: "alice" }, "write"), true);
      assert.equal(await decide(s.provider, VIEWER, "read"), true);
      assert.equal(await decide(s.provider, VIEWER, "write"), false);
      // The write API fills the same table, v6 included.
      await s.database.addRules([["p", "viewer", "post", "write"]]);
      assert.equal(await decide(s.provider, VIEWER, "write"), true);
    },
  });

  Deno.test({
    name:
      `PostgresEnforcerProvider (${kind}) serves values with commas, quotes and brackets unchanged`,
    ignore,
    async fn(): Promise<void> {
      await using test = await freshDatabase(kind);
      const rules = [
        ["p", "a,b", "post", "read"],
        ["p", 'say "hi"', "post", "read"],
        ["p", "viewer", "/posts/(.*)", "(GET)|(POST)"],
        ["p", "viewer", "post", "read"],
      ];
      await using s = await setup(test, {}, rules);
      const enforcer = await s.provider.getEnforcer();
      assert.equal(
        await enforcer.enforce({ role: "a,b" }, "post", "read"),
        true,
      );
      assert.equal(
        await enforcer.enforce({ role: "a" }, "post", "read"),
        false,
      );
      assert.equal(
        await enforcer.enforce({ role: 'say "hi"' }, "post", "read"),
        true,
      );
      assert.equal(
        await enforcer.enforce(VIEWER, "/posts/(.*)", "(GET)|(POST)"),
        true,
      );
    },
  });
}

Deno.test("PostgresEnforcerProvider.open() refuses a missing, doubled or invalid model before connecting", async () => {
  // The URL is never used: the model is checked first.
  const database = "postgres://nobody@127.0.0.1:1/none";
  await assert.rejects(
    PostgresEnforcerProvider.open({
      database,
      modelPath: "/nonexistent/model.conf",
    }),
    (error: EnforcerLoadError) => error.code === "NOT_FOUND",
  );
  await assert.rejects(
    PostgresEnforcerProvider.open({ database, model: MODEL, modelPath: "x" }),
    TypeError,
  );
  await assert.rejects(
    PostgresEnforcerProvider.open({ database, model: "[matchers]\nm = (" }),
    (error: EnforcerLoadError) => error.code === "MODEL_INVALID",
  );
  await assert.rejects(
    PostgresEnforcerProvider.open({
      database,
      model: MODEL,
      pollIntervalMs: -1,
    }),
    RangeError,
  );
});
