import assert from "node:assert/strict";
import { runCli } from "../../src/extract/run_cli.ts";
import { freshDatabase, KINDS } from "../_postgres/_databases.ts";
import { memoryIo } from "./_cli_memory.ts";
import { publishOrg } from "./_org_graphs.ts";

for (const { kind, ignore } of KINDS) {
  Deno.test({
    name:
      `query (${kind}) answers consumers, providers, dependencies, dependents, unmatched and links`,
    ignore,
    async fn(): Promise<void> {
      await using db = await freshDatabase(kind);
      await publishOrg(db.url);
      const ask = async (...args: string[]): Promise<string> => {
        const out = memoryIo();
        const code = await runCli(["query", "--db", db.url, ...args], out);
        assert.equal(code, 0, out.err());
        return out.out();
      };
      assert.match(
        await ask("consumers", "http", "GET /users/{}"),
        /^web {2}.*loadUser {2}.*api\.ts:4 {2}http GET \/users\/\{\}\n$/,
      );
      const providers = JSON.parse(
        await ask("--format", "json", "providers", "http", "GET /users/{}"),
      ) as { graph: string; boundaryId: string }[];
      assert.deepEqual(providers.map((p) => p.graph), ["users"]);
      // The same by boundary id.
      assert.match(await ask("consumers", providers[0]!.boundaryId), /^web /);
      assert.match(
        await ask("dependencies", "web"),
        /^users {2}\d+ links {2}\d+ boundaries\n$/,
      );
      assert.match(await ask("dependents", "users"), /^web /);
      assert.equal(await ask("dependents", "web"), "");
      const links = await ask("links", "--repo", "web");
      assert.match(
        links,
        /^web \S+ -> users \S+ {2}http GET \/users\/\{\} {2}[\d.]+\n/,
      );
      assert.equal(
        await ask("links", "--limit", "1"),
        links.split("\n")[0] + "\n",
      );
      const unmatched = JSON.parse(
        await ask("unmatched", "--format=json"),
      ) as unknown[];
      assert.ok(Array.isArray(unmatched));
    },
  });
}

Deno.test("query exits 2 on an unknown query, wrong arguments or a bad boundary", async () => {
  const cases: [string[], RegExp][] = [
    [["query"], /expected one of repos, consumers/],
    [["query", "everything"], /got "everything"/],
    [["query", "dependencies"], /expected 1 argument\(s\), got 0/],
    [["query", "--format", "xml", "repos"], /--format must be text or json/],
    [["query", "--limit", "0", "repos"], /--limit must be a number from 1/],
    [
      ["query", "--db", "pglite:memory", "consumers", "nothex"],
      /16 lower-case hex digits/,
    ],
  ];
  for (const [args, message] of cases) {
    const io = memoryIo();
    assert.equal(await runCli(args, io), 2, args.join(" "));
    assert.match(io.err(), message);
  }
});
