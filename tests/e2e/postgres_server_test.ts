// End-to-end: the reference application on POLICY_DATABASE_URL, two
// instances (Deno and Bun) on one PostgreSQL database, as the two-instance
// setup of docs/postgres.md; an empty table is filled from policy.csv, and a
// rule written by an admin script applies on both.
import assert from "node:assert/strict";
import { PolicyDatabase } from "../../src/guard/postgres/mod.ts";
import {
  freshDatabase,
  POSTGRES_SKIP_REASON,
} from "../guard/postgres/_databases.ts";
import { ServerProcess } from "./_server.ts";

async function status(
  server: ServerProcess,
  role: string,
  method: "GET" | "POST",
): Promise<number> {
  const response = await server.fetch("/posts", {
    method,
    role,
    ...(method === "POST" ? { body: JSON.stringify({ title: "Hi" }) } : {}),
  });
  await response.body?.cancel();
  return response.status;
}

Deno.test({
  name:
    "The reference application serves the policy of POLICY_DATABASE_URL on two instances (Deno and Bun) and follows a write",
  ignore: POSTGRES_SKIP_REASON !== undefined,
  async fn(): Promise<void> {
    await using test = await freshDatabase("postgres");
    const env = { POLICY_DATABASE_URL: test.url };
    await using deno = await ServerProcess.start("deno", env);
    await using bun = await ServerProcess.start("bun", env);
    assert.ok(
      [...deno.lines, ...bun.lines].some((line) =>
        /^Policy table was empty: imported 5 rules$/.test(line)
      ),
    );
    for (const server of [deno, bun]) {
      assert.equal(await status(server, "viewer", "GET"), 200);
      assert.equal(await status(server, "viewer", "POST"), 403);
      assert.equal(await status(server, "editor", "POST"), 201);
    }
    const marks = [deno.lines.length, bun.lines.length];
    await using database = await PolicyDatabase.open(test.url);
    const { revision } = await database.addRules([
      ["p", "viewer", "post", "write"],
    ]);
    for (const [i, server] of [deno, bun].entries()) {
      await server.waitForLine(
        new RegExp(`^Policy reloaded: revision ${revision}, 6 rules`),
        marks[i]!,
      );
      assert.equal(await status(server, "viewer", "POST"), 201);
    }
  },
});
