// Runs under Node and Bun against the installed npm package: the database
// provider on PGlite (in memory), and on the PostgreSQL server of
// PORTCULLIS_POSTGRES_URL when it is set. The drivers are optional peers
// the consumer installs.
import assert from "node:assert/strict";
import process from "node:process";
import {
  importPolicyCsv,
  PolicyDatabase,
  PostgresEnforcerProvider,
} from "portcullis/guard/postgres";
import { addBoundary, BoundaryGraph } from "portcullis-boundary";
import { OrgStore } from "portcullis-boundary/map/store";

const MODEL = `[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
`;

const urls = ["pglite:memory"];
if (process.env.PORTCULLIS_POSTGRES_URL) {
  urls.push(process.env.PORTCULLIS_POSTGRES_URL);
}
const viewer = { role: "viewer" };
for (const url of urls) {
  const database = await PolicyDatabase.open(url, {
    table: `smoke_${process.pid}`,
  });
  try {
    await importPolicyCsv(database, "p, viewer, post, read\n");
    const provider = await PostgresEnforcerProvider.open({
      database,
      model: MODEL,
      loadIn: "worker",
    });
    const decide = async (act) =>
      await (await provider.getEnforcer()).enforce(viewer, "post", act);
    assert.equal(await decide("read"), true);
    assert.equal(await decide("write"), false);
    await database.addRules([["p", "viewer", "post", "write"]]);
    assert.equal(await decide("write"), true);
    await provider.close();
    await database.update(async (tx) => {
      await tx.replace([]);
    });
  } finally {
    await database.close();
  }
}
// The organisation store: two repositories linked by a join.
const repo = (owner, role) => {
  const graph = new BoundaryGraph();
  graph.addNode({ id: owner, kind: "function", qualifiedName: owner, name: owner });
  addBoundary(graph, owner, { mechanism: "http", role, key: "GET /users/{}", line: 1, col: 1, confidence: 1, detail: {} });
  return graph;
};
for (const url of urls) {
  const store = await OrgStore.open(url);
  try {
    const users = `smoke_users_${process.pid}`;
    const web = `smoke_web_${process.pid}`;
    await store.publish(users, repo("get_user", "server"));
    await store.publish(web, repo("load_user", "client"));
    assert.deepEqual(await store.dependencies(web), [{ repo: users, links: 1, boundaries: 1 }]);
    await store.unpublish(users);
    await store.unpublish(web);
  } finally {
    await store.close();
  }
}
console.log(`the organisation store publishes and links (${urls.map((u) => u.split(":")[0]).join(", ")})`);
console.log(`the database provider serves and follows writes (${urls.map((u) => u.split(":")[0]).join(", ")})`);
