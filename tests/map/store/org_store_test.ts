import assert from "node:assert/strict";
import { linkGraph } from "../../../src/boundary/link.ts";
import { portRecords } from "../../../src/boundary/port_records.ts";
import { gateDiff } from "../../../src/map/gate.ts";
import { OrgStore, OrgStoreError } from "../../../src/map/store/mod.ts";
import { openPglite } from "../../../src/_postgres/_pglite_client.ts";
import {
  freshDatabase,
  KINDS,
  type TestDatabase,
} from "../../_postgres/_databases.ts";
import { hostileGraph, polyglotGraph } from "../_graphs.ts";
import {
  baseLinked,
  fixturesGraph,
  graphLinks,
  linkText,
  repoGraph,
  splitByService,
} from "./_org.ts";

/**
 * Asserts that the store's links are the in-memory linker's: the same links
 * on one boundary, and across methods (`ANY`) the same consumer, provider
 * and provider boundary, where the store keeps one link per consumer
 * boundary and the scan's pass one per provider boundary (the first).
 */
function assertSameLinks(actual: string[], expected: string[]): void {
  const fields = (text: string): string[] => text.split(" | ");
  const exact = (texts: string[]): string[] =>
    texts.filter((t) => fields(t)[2] === fields(t)[3]).sort();
  const across = (texts: string[]): string[] =>
    [
      ...new Set(
        texts.filter((t) => fields(t)[2] !== fields(t)[3])
          .map((t) => [0, 1, 3].map((i) => fields(t)[i]).join(" | ")),
      ),
    ].sort();
  assert.deepEqual(exact(actual), exact(expected));
  assert.deepEqual(across(actual), across(expected));
  for (const link of expected) assert.ok(actual.includes(link), link);
}

/** Runs SQL as another client (PGlite: with the store closed). */
async function rawSql(test: TestDatabase, text: string): Promise<void> {
  if (test.kind === "postgres") {
    await test.sql(text);
    return;
  }
  const client = await openPglite(test.url.slice("pglite:".length));
  try {
    await client.query(text);
  } finally {
    await client.close();
  }
}

Deno.test("OrgStore.open() refuses other URLs and reports a server it cannot reach", async () => {
  await assert.rejects(
    OrgStore.open("mysql://root:secret@db/map"),
    (error) =>
      error instanceof RangeError && /postgres:\/\//.test(error.message) &&
      !error.message.includes("secret"),
  );
  await assert.rejects(
    OrgStore.open("postgres://map:secret@127.0.0.1:1/map", {
      connectTimeoutSeconds: 2,
    }),
    (error) =>
      error instanceof OrgStoreError && error.code === "CONNECT_FAILED" &&
      !error.message.includes("secret"),
  );
});

for (const { kind, ignore } of KINDS) {
  const test = (name: string, fn: (db: TestDatabase) => Promise<void>): void =>
    Deno.test({
      name: `OrgStore (${kind}) ${name}`,
      ignore,
      async fn(): Promise<void> {
        await using db = await freshDatabase(kind);
        await fn(db);
      },
    });

  test("links the fixtures' services across repositories as the in-memory linker links them", async (db) => {
    await using store = await OrgStore.open(db.url);
    for (const graph of [await polyglotGraph(), await fixturesGraph()]) {
      assert.deepEqual(graph.metadata["budgets_hit"] ?? [], []);
      const expected = graphLinks(baseLinked(graph));
      assert.ok(expected.length > 0);
      const repos = splitByService(graph);
      assert.ok(repos.size > 1);
      for (const [name, repo] of repos) await store.publish(name, repo);
      const links = await store.links();
      assertSameLinks(links.map(linkText), expected);
      // Each link joins the repositories the owners were split into.
      for (const link of links) {
        assert.ok(link.consumer.ownerId.startsWith(`${link.consumer.repo}:`));
        assert.ok(link.provider.ownerId.startsWith(`${link.provider.repo}:`));
      }
      // One repository holding the whole graph links the same.
      for (const name of repos.keys()) await store.unpublish(name);
      await store.publish("all", graph);
      assertSameLinks((await store.links()).map(linkText), expected);
      await store.unpublish("all");
    }
  });

  test("answers consumers, providers, unmatched consumers, dependencies and dependents", async (db) => {
    await using store = await OrgStore.open(db.url);
    await store.publish(
      "users",
      repoGraph([
        { owner: "get_user", role: "server", key: "GET /users/{}" },
        { owner: "any_admin", role: "server", key: "ANY /admin" },
        {
          owner: "notify",
          role: "client",
          key: "users.changed",
          mechanism: "queue",
        },
      ]),
    );
    await store.publish(
      "web",
      repoGraph([
        {
          owner: "load",
          role: "client",
          key: "GET /users/{}",
          confidence: 0.8,
        },
        { owner: "admin", role: "client", key: "POST /admin" },
        { owner: "typo", role: "client", key: "GET /userz" },
      ]),
    );
    await store.publish(
      "mail",
      repoGraph([
        {
          owner: "on_change",
          role: "server",
          key: "users.changed",
          mechanism: "queue",
        },
        { owner: "profile", role: "client", key: "GET /users/{}" },
      ]),
    );

    const route = { mechanism: "http", key: "GET /users/{}" };
    const consumers = await store.consumers(route);
    assert.deepEqual(consumers.map((p) => [p.graph, p.owner, p.confidence]), [
      ["mail", "profile.ts::profile", 1],
      ["web", "load.ts::load", 0.8],
    ]);
    const providers = await store.providers(consumers[0]!.boundaryId);
    assert.deepEqual(providers.map((p) => [p.graph, p.ownerId]), [[
      "users",
      "get_user",
    ]]);
    assert.equal(providers[0]?.filePath, "get_user.ts");
    // The ANY rule: POST /admin is served by ANY /admin, and the reverse.
    assert.deepEqual(
      (await store.providers({ mechanism: "http", key: "POST /admin" })).map((
        p,
      ) => p.ownerId),
      ["any_admin"],
    );
    assert.deepEqual(
      (await store.consumers({ mechanism: "http", key: "ANY /admin" })).map((
        p,
      ) => p.ownerId),
      ["admin"],
    );
    assert.deepEqual(await store.consumers("0123456789abcdef"), []);
    assert.equal((await store.consumers(route, { limit: 1 })).length, 1);

    assert.deepEqual(
      (await store.unmatchedConsumers()).map((p) => [p.graph, p.key]),
      [["web", "GET /userz"]],
    );
    assert.deepEqual(await store.unmatchedConsumers({ repo: "mail" }), []);
    assert.deepEqual(await store.dependencies("web"), [
      { repo: "users", links: 2, boundaries: 2 },
    ]);
    assert.deepEqual(await store.dependents("users"), [
      { repo: "web", links: 2, boundaries: 2 },
      { repo: "mail", links: 1, boundaries: 1 },
    ]);
    assert.deepEqual(await store.dependencies("users"), [
      { repo: "mail", links: 1, boundaries: 1 },
    ]);
    assert.deepEqual(await store.dependents("nobody"), []);
    const links = await store.links({ repo: "web", minConfidence: 0.9 });
    assert.deepEqual(
      links.map((l) => [l.consumer.ownerId, l.provider.ownerId]),
      [
        ["admin", "any_admin"],
      ],
    );
    assert.equal(links[0]?.provider.key, "ANY /admin");
    assert.equal(links[0]?.consumer.key, "POST /admin");
  });

  test("publishes idempotently and replaces a repository's ports, owners, metadata and commit", async (db) => {
    await using store = await OrgStore.open(db.url);
    const v1 = repoGraph([
      { owner: "get_user", role: "server", key: "GET /users/{}" },
      { owner: "list", role: "server", key: "GET /users" },
    ], { repository: "users" });
    assert.deepEqual(await store.publish("users", v1, { commit: "a1" }), {
      repo: "users",
      ports: 2,
      owners: 2,
      changed: true,
    });
    const first = await store.repositories();
    assert.equal(
      (await store.publish("users", v1, { commit: "a1" })).changed,
      false,
    );
    assert.deepEqual(await store.repositories(), first);
    assert.deepEqual(
      await store.ports("users"),
      portRecords(v1, "users").sort((a, b) =>
        a.boundaryId < b.boundaryId ? -1 : 1
      ),
    );

    const v2 = repoGraph([{
      owner: "find",
      role: "server",
      key: "GET /people",
    }], {
      repository: "users",
      "budgets_hit": ["max-files"],
    });
    assert.equal(
      (await store.publish("users", v2, { commit: "b2" })).changed,
      true,
    );
    const [repo] = await store.repositories();
    assert.equal(repo?.commit, "b2");
    assert.equal(repo?.ports, 1);
    assert.equal(repo?.owners, 1);
    assert.deepEqual(repo?.metadata, {
      repository: "users",
      "budgets_hit": ["max-files"],
    });
    assert.match(
      repo?.publishedAt ?? "",
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
    );
    assert.deepEqual((await store.ports("users")).map((p) => p.key), [
      "GET /people",
    ]);
    // A new commit alone is a change too.
    assert.equal(
      (await store.publish("users", v2, { commit: "c3" })).changed,
      true,
    );
    assert.equal(await store.unpublish("users"), true);
    assert.equal(await store.unpublish("users"), false);
    assert.deepEqual(await store.repositories(), []);
  });

  test("lands concurrent publishes of two repositories, and of one repository one after the other", async (db) => {
    await using store = await OrgStore.open(db.url);
    // A second pool on a server: the publishes run on two connections.
    await using other = kind === "postgres"
      ? await OrgStore.open(db.url)
      : undefined;
    const ports = (prefix: string) =>
      Array.from({ length: 3000 }, (_, i) => ({
        owner: `${prefix}${i % 50}`,
        role: "server" as const,
        key: `GET /${prefix}/${i}`,
      }));
    const results = await Promise.all([
      store.publish("alpha", repoGraph(ports("a"))),
      (other ?? store).publish("beta", repoGraph(ports("b"))),
      (other ?? store).publish("alpha", repoGraph(ports("a").slice(0, 10))),
    ]);
    assert.deepEqual(results.map((r) => r.ports), [3000, 3000, 10]);
    const repos = await store.repositories();
    assert.deepEqual(repos.map((r) => r.repo), ["alpha", "beta"]);
    const alpha = repos[0]!;
    // Whichever publish of alpha committed last is there, whole.
    assert.ok(alpha.ports === 3000 || alpha.ports === 10);
    assert.equal((await store.ports("alpha")).length, alpha.ports);
    assert.equal((await store.ports("beta")).length, 3000);
  });

  test("rolls a failed publish back, leaving the published ports as they were", async (db) => {
    let store = await OrgStore.open(db.url);
    const good = repoGraph([{
      owner: "get_user",
      role: "server",
      key: "GET /users/{}",
    }]);
    await store.publish("users", good);
    await store.close();
    await rawSql(
      db,
      "ALTER TABLE portcullis_map_ports ADD CONSTRAINT no_evil CHECK (key <> 'GET /evil')",
    );
    store = await OrgStore.open(db.url);
    try {
      const bad = repoGraph(
        Array.from({ length: 2500 }, (_, i) => ({
          owner: `h${i}`,
          role: "server" as const,
          key: i === 2400 ? "GET /evil" : `GET /ok/${i}`,
        })),
      );
      await assert.rejects(
        store.publish("users", bad),
        (error) =>
          error instanceof OrgStoreError && error.code === "PUBLISH_FAILED",
      );
      assert.deepEqual((await store.ports("users")).map((p) => p.key), [
        "GET /users/{}",
      ]);
    } finally {
      await store.close();
    }
  });

  test("records its schema version once and refuses a database a newer library migrated", async (db) => {
    const first = await OrgStore.open(db.url);
    await first.close();
    await using second = await OrgStore.open(db.url);
    await second.close();
    await rawSql(
      db,
      "INSERT INTO portcullis_map_migrations (version, description) VALUES (999, 'future')",
    );
    await assert.rejects(
      OrgStore.open(db.url),
      (error) =>
        error instanceof OrgStoreError && error.code === "SCHEMA_TOO_NEW" &&
        /999/.test(error.message),
    );
  });

  test("diffs a repository's head graph against the organisation for the gate", async (db) => {
    await using store = await OrgStore.open(db.url);
    const users = repoGraph([
      { owner: "get_user", role: "server", key: "GET /users/{}" },
      { owner: "delete_user", role: "server", key: "DELETE /users/{}" },
    ]);
    await store.publish("users", users);
    await store.publish(
      "web",
      repoGraph([
        { owner: "load", role: "client", key: "GET /users/{}" },
      ]),
    );
    // Unrelated ports are not read, and do not matter.
    await store.publish(
      "noise",
      repoGraph([
        { owner: "x", role: "client", key: "GET /other" },
      ]),
    );

    const same = await store.diff("users", users);
    assert.equal(gateDiff(same, "any").exitCode, 0);

    const head = repoGraph([
      { owner: "get_user", role: "server", key: "GET /people/{}" },
      { owner: "delete_user", role: "server", key: "DELETE /users/{}" },
    ]);
    const diff = await store.diff("users", head);
    assert.equal(diff.breaking.length, 1);
    assert.equal(diff.breaking[0]?.kind, "path");
    assert.deepEqual(diff.lostConsumers.map((p) => [p.graph, p.owner]), [[
      "web",
      "load.ts::load",
    ]]);
    assert.equal(diff.counts.others, 1);
    assert.deepEqual(gateDiff(diff, "breaking"), {
      passed: false,
      exitCode: 1,
      reasons: ["1 breaking provider change", "1 consumer lost its provider"],
    });
    // A new repository is compared with nothing published.
    const fresh = await store.diff(
      "search",
      repoGraph([
        { owner: "q", role: "client", key: "GET /nowhere" },
      ]),
    );
    assert.equal(fresh.newUnmatchedConsumers.length, 1);
    // A graph that hit a scan budget makes the gate fail closed.
    await store.publish(
      "web",
      repoGraph([
        { owner: "load", role: "client", key: "GET /users/{}" },
      ], { "budgets_hit": ["max-files"] }),
    );
    assert.equal(
      gateDiff(await store.diff("users", users), "breaking").exitCode,
      3,
    );
  });

  test("keeps hostile names as they are, except what PostgreSQL cannot store", async (db) => {
    await using store = await OrgStore.open(db.url);
    const graph = hostileGraph();
    await store.publish("hostile", graph);
    const expected = portRecords(graph, "hostile").map((p) =>
      JSON.stringify([p.ownerId, p.owner, p.key, p.requires]).replaceAll(
        "\\ud800",
        "\ufffd",
      )
    ).sort();
    const stored = (await store.ports("hostile")).map((p) =>
      JSON.stringify([p.ownerId, p.owner, p.key, p.requires])
    ).sort();
    assert.deepEqual(stored, expected);
    const linked = hostileGraph();
    linkGraph(linked);
    assert.equal((await store.links()).length, graphLinks(linked).length);
  });

  test("refuses bad repository names, boundary ids and limits", async (db) => {
    await using store = await OrgStore.open(db.url);
    const graph = repoGraph([]);
    for (const name of ["", "-x", "a b", "a\nb", "x".repeat(201), "a;drop"]) {
      await assert.rejects(store.publish(name, graph), RangeError);
    }
    await assert.rejects(store.consumers("GET /users"), SyntaxError);
    await assert.rejects(store.links({ limit: 0 }), RangeError);
    await assert.rejects(store.links({ minConfidence: 2 }), RangeError);
    await store.close();
    await assert.rejects(
      store.repositories(),
      (error) => error instanceof OrgStoreError && /closed/.test(error.message),
    );
  });
}
