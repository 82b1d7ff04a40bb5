import assert from "node:assert/strict";
import { runCli } from "../../src/extract/run_cli.ts";
import { freshDatabase, KINDS } from "../_postgres/_databases.ts";
import { memoryIo } from "./_cli_memory.ts";
import { ORG_GRAPHS } from "./_org_graphs.ts";

for (const { kind, ignore } of KINDS) {
  Deno.test({
    name:
      `publish (${kind}) replaces a repository's part of the store, named by its graph or --repo`,
    ignore,
    async fn(): Promise<void> {
      await using db = await freshDatabase(kind);
      const io = memoryIo(ORG_GRAPHS);
      assert.equal(
        await runCli(["publish", "--db", db.url, "users.json"], io),
        0,
      );
      assert.equal(
        await runCli(
          ["publish", "--db", db.url, "--commit", "abc", "web.json"],
          io,
        ),
        0,
      );
      assert.equal(
        await runCli(
          ["publish", "--db", db.url, "web.json", "--commit=abc"],
          io,
        ),
        0,
      );
      assert.equal(
        await runCli(
          ["publish", "--db", db.url, "--repo", "web2", "web.json"],
          io,
        ),
        0,
      );
      assert.match(
        io.out(),
        /^Published users: \d+ ports, \d+ owners\nPublished web: .*\nPublished web: .* \(unchanged\)\nPublished web2: /,
      );
      assert.equal(io.err(), "");
      const json = memoryIo();
      assert.equal(
        await runCli(
          ["query", "--db", db.url, "--format", "json", "repos"],
          json,
        ),
        0,
      );
      const repos = JSON.parse(json.out()) as {
        repo: string;
        commit?: string;
      }[];
      assert.deepEqual(repos.map((r) => [r.repo, r.commit]), [
        ["users", undefined],
        ["web", "abc"],
        ["web2", undefined],
      ]);
    },
  });
}

Deno.test("publish exits 2 on bad arguments, an unreadable graph or a store it cannot open", async () => {
  const cases: [string[], RegExp][] = [
    [["publish"], /expected one <graph\.json>, got 0/],
    [["publish", "a.json", "b.json"], /got 2/],
    [
      ["publish", "--db", "pglite:memory", "missing.json"],
      /Cannot read "missing\.json"/,
    ],
    [["publish", "--db", "mysql://x", "web.json"], /expected a postgres:\/\//],
    [
      ["publish", "--db", "pglite:memory", "--repo", "bad name", "web.json"],
      /repository name/,
    ],
  ];
  for (const [args, message] of cases) {
    const io = memoryIo({ "web.json": ORG_GRAPHS["web.json"]! });
    assert.equal(await runCli(args, io), 2, args.join(" "));
    assert.match(io.err(), message);
  }
  const help = memoryIo();
  assert.equal(await runCli(["publish", "--help"], help), 0);
  assert.match(help.out(), /^Usage: portcullis-scan publish/);
});
