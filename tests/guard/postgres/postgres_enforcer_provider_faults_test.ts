// The database provider under faults, on a PostgreSQL server of its own
// that the tests stop, restart and cut connections of.
import assert from "node:assert/strict";
import postgres from "postgres";
import { PostgresCluster } from "../../../scripts/postgres_cluster.ts";
import { bearerUserProvider } from "../../../src/guard/bearer_user_provider.ts";
import { PermissionGuard } from "../../../src/guard/permission_guard.ts";
import type { EnforcerLoadError } from "../../../src/guard/_policy/error.ts";
import {
  PolicyDatabase,
  PolicyDatabaseError,
  PostgresEnforcerProvider,
} from "../../../src/guard/postgres/mod.ts";
import { MODEL } from "../../fixtures/guard/casbin.ts";
import { freshDatabase, POSTGRES_SKIP_REASON } from "./_databases.ts";

const ignore = POSTGRES_SKIP_REASON !== undefined;
const RULES = [
  ["p", "editor", "post", "write"],
  ["p", "viewer", "post", "read"],
];

/** Resolves once `check` holds, looking every 10 ms (bounded). */
async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) {
      throw new Error(`Timed out waiting until ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** GET /posts (post, read) and POST /posts (post, write) behind a guard. */
function app(
  provider: PostgresEnforcerProvider,
): (role: string, method: "GET" | "POST") => Promise<number> {
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: provider,
  });
  const read = guard.requirePermission("post", "read")(() =>
    new Response("read")
  );
  const write = guard.requirePermission("post", "write")(() =>
    new Response("written")
  );
  return async (role: string, method: "GET" | "POST"): Promise<number> => {
    const request = new Request("http://localhost/posts", {
      method,
      headers: { authorization: `Bearer ${role}` },
    });
    const response = await (method === "GET" ? read : write)(request);
    await response.body?.cancel();
    return response.status;
  };
}

Deno.test({
  name:
    "PostgresEnforcerProvider keeps the last good policy while the database is down, reports it once, and resyncs after a restart",
  ignore,
  async fn(): Promise<void> {
    await using cluster = await PostgresCluster.start();
    const errors: EnforcerLoadError[] = [];
    const database = await PolicyDatabase.open(cluster.url, {
      connectTimeoutSeconds: 2,
    });
    await database.replaceRules(RULES);
    const provider = await PostgresEnforcerProvider.open({
      database,
      model: MODEL,
      pollIntervalMs: 100,
      reconnectMinMs: 50,
      reconnectMaxMs: 200,
      onError: (error) => errors.push(error),
    });
    try {
      const call = app(provider);
      assert.equal(await call("viewer", "GET"), 200);
      assert.equal(await call("viewer", "POST"), 403);

      await cluster.stopServer();
      await eventually(() => errors.length > 0, "the outage is reported");
      assert.equal(errors[0]!.code, "READ_FAILED");
      assert.match(errors[0]!.message, /Cannot listen for policy changes/);
      // Requests keep their answers: no 5xx, no fail-open.
      for (let i = 0; i < 50; i++) {
        assert.equal(await call("viewer", "GET"), 200);
        assert.equal(await call("viewer", "POST"), 403);
        assert.equal(await call("editor", "POST"), 200);
        assert.equal(await call("stranger", "GET"), 403);
      }
      await assert.rejects(
        database.addRules([["p", "viewer", "post", "write"]]),
        (error) =>
          error instanceof PolicyDatabaseError &&
          error.code === "WRITE_FAILED",
      );
      // Many reconnection attempts later, still one report.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal(errors.length, 1, errors.map((e) => e.message).join("\n"));
      assert.equal(await call("viewer", "GET"), 200);

      await cluster.restart();
      // Another instance writes before this one is listening again.
      const other = postgres(cluster.url, { max: 1, onnotice: () => {} });
      await other.unsafe(
        "INSERT INTO casbin_rule (ptype, v0, v1, v2) VALUES ('p', 'viewer', 'post', 'write')",
      );
      await other.end();
      await eventually(
        async () => await call("viewer", "POST") === 200,
        "the write made during the outage applies",
      );
      // Back to normal: this process's writes apply on its next request.
      await database.removeRules([["p", "viewer", "post", "write"]]);
      assert.equal(await call("viewer", "POST"), 403);
      assert.equal(errors.length, 1, errors.map((e) => e.message).join("\n"));
    } finally {
      await provider.close();
      await database.close();
    }
  },
});

Deno.test({
  name:
    "PostgresEnforcerProvider relistens after its connection is cut and catches the changes made meanwhile, without the poll",
  ignore,
  async fn(): Promise<void> {
    await using test = await freshDatabase("postgres");
    const errors: EnforcerLoadError[] = [];
    const database = await PolicyDatabase.open(test.url);
    await database.replaceRules(RULES);
    const provider = await PostgresEnforcerProvider.open({
      database,
      model: MODEL,
      pollIntervalMs: 0,
      reconnectMinMs: 200,
      onError: (error) => errors.push(error),
    });
    try {
      const before = provider.revision;
      // Cut the listening connection, then write at once: the notification
      // is sent while nobody listens.
      const [[killed]] = await test.sql(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
      ) as [[string]];
      assert.equal(Number(killed), 1);
      await test.sql(
        "INSERT INTO casbin_rule (ptype, v0, v1, v2) VALUES ('p', 'viewer', 'post', 'write')",
      );
      await eventually(
        () => provider.revision > before,
        "the change made while not listening applies",
      );
      const enforcer = await provider.getEnforcer();
      assert.equal(
        await enforcer.enforce({ role: "viewer" }, "post", "write"),
        true,
      );
      assert.equal(errors.length, 1, errors.map((e) => e.message).join("\n"));
      assert.match(errors[0]!.message, /Cannot listen for policy changes/);
    } finally {
      await provider.close();
      await database.close();
    }
  },
});

Deno.test({
  name:
    "PostgresEnforcerProvider never sees a transaction that has not committed, and nothing of one rolled back",
  ignore,
  async fn(): Promise<void> {
    await using test = await freshDatabase("postgres");
    const database = await PolicyDatabase.open(test.url);
    await database.replaceRules(RULES);
    const reloads: number[] = [];
    const provider = await PostgresEnforcerProvider.open({
      database,
      model: MODEL,
      pollIntervalMs: 20,
      onReload: (event) => reloads.push(event.revision),
    });
    const writer = postgres(test.url, { max: 1, onnotice: () => {} });
    try {
      const inserted = Promise.withResolvers<void>();
      const finish = Promise.withResolvers<void>();
      const transaction = writer.begin(async (tx) => {
        await tx.unsafe(
          "INSERT INTO casbin_rule (ptype, v0, v1, v2) VALUES ('p', 'viewer', 'post', 'write')",
        );
        await tx.unsafe("DELETE FROM casbin_rule WHERE v0 = 'editor'");
        inserted.resolve();
        await finish.promise;
        throw new Error("roll back");
      }).catch(() => "rolled back");
      await inserted.promise;
      // Polls run meanwhile, and a new provider reads the table.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const fresh = await PostgresEnforcerProvider.open({
        database,
        model: MODEL,
      });
      for (const p of [provider, fresh]) {
        const enforcer = await p.getEnforcer();
        assert.equal(
          await enforcer.enforce({ role: "viewer" }, "post", "write"),
          false,
        );
        assert.equal(
          await enforcer.enforce({ role: "editor" }, "post", "write"),
          true,
        );
      }
      await fresh.close();
      const revision = await database.revision();
      finish.resolve();
      assert.equal(await transaction, "rolled back");
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(await database.revision(), revision);
      assert.deepEqual(reloads, []);
    } finally {
      await writer.end();
      await provider.close();
      await database.close();
    }
  },
});

Deno.test({
  name:
    "PolicyDatabase.open() fails with CONNECT_FAILED when the server is down, and no provider opens",
  ignore,
  async fn(): Promise<void> {
    await using cluster = await PostgresCluster.start();
    await cluster.stopServer();
    await assert.rejects(
      PolicyDatabase.open(cluster.url, { connectTimeoutSeconds: 2 }),
      (error) =>
        error instanceof PolicyDatabaseError &&
        error.code === "CONNECT_FAILED" &&
        !error.message.includes("password"),
    );
    await assert.rejects(
      PostgresEnforcerProvider.open({
        database: cluster.url,
        databaseOptions: { connectTimeoutSeconds: 2 },
        model: MODEL,
      }),
      PolicyDatabaseError,
    );
  },
});
