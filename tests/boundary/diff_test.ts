import assert from "node:assert/strict";
import fc from "fast-check";
import { addBoundary } from "../../src/boundary/add_boundary.ts";
import { diffGraphs, diffPorts, diffScope } from "../../src/boundary/diff.ts";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { makeBoundaryId } from "../../src/boundary/id.ts";
import type { PortRecord } from "../../src/boundary/port_records.ts";
import type { Mechanism } from "../../src/boundary/types.ts";

/** A port: `owner` in `graph`, at `line` of `<owner>.ts`. */
function port(
  role: "server" | "client",
  graph: string,
  key: string,
  owner: string,
  line = 1,
  mechanism: Mechanism = "http",
): PortRecord {
  return {
    graph,
    boundaryId: makeBoundaryId(mechanism, key),
    mechanism,
    key,
    role,
    ownerId: `${graph}:${owner}`,
    owner,
    service: graph,
    confidence: 1,
    filePath: `${owner}.ts`,
    line,
  };
}

const server = (graph: string, key: string, owner: string, line = 1) =>
  port("server", graph, key, owner, line);
const client = (graph: string, key: string, owner: string, line = 1) =>
  port("client", graph, key, owner, line);

Deno.test("diffPorts() reports a removed route that another repository calls", () => {
  const route = server("users", "GET /users/{}", "get_user", 10);
  const caller = client("web", "GET /users/{}", "load", 4);
  const diff = diffPorts({ base: [route], head: [], others: [caller] });
  assert.deepEqual(diff.breaking, [{
    kind: "removed",
    before: route,
    consumers: [caller],
  }]);
  assert.deepEqual(diff.lostConsumers, [caller]);
  assert.deepEqual(diff.safeChanges, []);
});

Deno.test("diffPorts() names a changed method, path or key on the same owner", async (t) => {
  const cases: [string, PortRecord, PortRecord, string][] = [
    [
      "method",
      server("users", "GET /users/{}", "get_user"),
      server("users", "POST /users/{}", "get_user", 12),
      "GET /users/{}",
    ],
    [
      "path",
      server("users", "GET /users/{}", "get_user"),
      server("users", "GET /users/{}/profile", "get_user"),
      "GET /users/{}",
    ],
    [
      "key",
      port("server", "inv", "inventory.v1.Stock/Get", "Stock", 3, "grpc"),
      port("server", "inv", "inventory.v2.Stock/Get", "Stock", 3, "grpc"),
      "inventory.v1.Stock/Get",
    ],
  ];
  for (const [kind, before, after, key] of cases) {
    await t.step(kind, () => {
      const caller = port(
        "client",
        "web",
        key,
        "load",
        1,
        before.mechanism as Mechanism,
      );
      const diff = diffPorts({
        base: [before],
        head: [after],
        others: [caller],
      });
      assert.equal(diff.breaking.length, 1);
      assert.equal(diff.breaking[0]!.kind, kind);
      assert.deepEqual(diff.breaking[0]!.after, after);
      // the new key is consumed by nobody
      assert.deepEqual(diff.newUnconsumedProviders, [after]);
    });
  }
});

Deno.test("diffPorts() calls a change safe when the consumers are still served", () => {
  const old = server("users", "GET /users/{}", "get_user");
  const twin = server("users", "GET /users/{}", "get_user_v2");
  const caller = client("web", "GET /users/{}", "load");
  const diff = diffPorts({ base: [old, twin], head: [twin], others: [caller] });
  assert.deepEqual(diff.breaking, []);
  assert.deepEqual(diff.lostConsumers, []);
  assert.deepEqual(diff.safeChanges.map((c) => [c.kind, c.before]), [[
    "removed",
    old,
  ]]);
  // a route nobody calls is removed safely too
  const unused = diffPorts({ base: [old], head: [] });
  assert.equal(unused.safeChanges.length, 1);
  assert.deepEqual(unused.breaking, []);
});

Deno.test("diffPorts() finds consumers of the same repository that lost their provider", () => {
  const route = server("shop", "GET /cart", "cart_route", 5);
  const call = client("shop", "GET /cart", "cart_view", 20);
  const moved = client("shop", "GET /cart", "cart_view", 25);
  const diff = diffPorts({ base: [route, call], head: [moved] });
  assert.deepEqual(diff.lostConsumers, [moved]);
  assert.deepEqual(diff.breaking[0]?.consumers, [moved]);
});

Deno.test("diffPorts() lists only new unmatched consumers and new unconsumed providers", () => {
  const oldOrphan = client("web", "GET /gone", "legacy");
  const newOrphan = client("web", "GET /typo", "fresh", 7);
  const served = client("web", "GET /users", "list");
  const route = server("api", "GET /users", "users");
  const newRoute = server("web", "GET /health", "health");
  const calledRoute = server("web", "GET /status", "status");
  const statusCaller = client("ops", "GET /status", "probe");
  const diff = diffPorts({
    base: [oldOrphan],
    head: [oldOrphan, newOrphan, served, newRoute, calledRoute],
    others: [route, statusCaller],
  });
  assert.deepEqual(diff.newUnmatchedConsumers, [newOrphan]);
  assert.deepEqual(diff.newUnconsumedProviders, [newRoute]);
  assert.deepEqual(diff.lostConsumers, []);
});

Deno.test("diffPorts() matches HTTP ports across methods when one side is ANY", () => {
  const anyRoute = server("api", "ANY /x", "handler");
  const getCall = client("web", "GET /x", "load");
  const removed = diffPorts({ base: [anyRoute], head: [], others: [getCall] });
  assert.deepEqual(removed.lostConsumers, [getCall]);
  // a call of unknown method is served by a route of any method
  const postRoute = server("api", "POST /x", "create");
  const anyCall = client("web", "ANY /x", "send");
  const kept = diffPorts({
    base: [postRoute],
    head: [postRoute],
    others: [anyCall],
  });
  assert.deepEqual(kept.lostConsumers, []);
  assert.deepEqual(kept.newUnconsumedProviders, []);
  // but a GET call is not served by a POST route
  const other = diffPorts({
    base: [],
    head: [client("api", "GET /x", "get")],
    others: [postRoute],
  });
  assert.equal(other.newUnmatchedConsumers.length, 1);
});

Deno.test("diffPorts() never lets an owner serve its own call", () => {
  const both = [
    server("api", "GET /self", "loop"),
    client("api", "GET /self", "loop"),
  ];
  const diff = diffPorts({ base: [], head: both });
  assert.deepEqual(diff.newUnmatchedConsumers, [both[1]]);
  assert.deepEqual(diff.newUnconsumedProviders, [both[0]]);
});

Deno.test("diffPorts() sees no change when only lines moved", () => {
  const base = [
    server("api", "GET /a", "a", 1),
    client("web", "GET /a", "b", 1),
  ];
  const head = [
    server("api", "GET /a", "a", 40),
    client("web", "GET /a", "b", 9),
  ];
  const diff = diffPorts({ base, head });
  assert.deepEqual(
    [
      diff.breaking,
      diff.safeChanges,
      diff.lostConsumers,
      diff.newUnmatchedConsumers,
      diff.newUnconsumedProviders,
    ],
    [[], [], [], [], []],
  );
});

Deno.test("diffPorts() leaves out ports below minConfidence", () => {
  const weak = { ...client("web", "GET /maybe", "guess"), confidence: 0.3 };
  assert.equal(
    diffPorts({ base: [], head: [weak] }).newUnmatchedConsumers.length,
    1,
  );
  const diff = diffPorts({ base: [], head: [weak] }, { minConfidence: 0.5 });
  assert.deepEqual(diff.newUnmatchedConsumers, []);
  assert.equal(diff.counts.head, 0);
  assert.throws(() => diffPorts({ base: [], head: [] }, { minConfidence: 2 }), {
    name: "RangeError",
    message: /minConfidence must be a number from 0 to 1/,
  });
});

const portArb = fc.record({
  role: fc.constantFrom("server" as const, "client" as const),
  graph: fc.constantFrom("repo", "other"),
  key: fc.constantFrom("GET /a", "POST /a", "ANY /a", "GET /b"),
  owner: fc.constantFrom("f", "g", "h"),
}).map((p) => port(p.role, p.graph, p.key, p.owner));

Deno.test("diffPorts() finds nothing between a repository and itself, and attributes every lost consumer (property)", () => {
  fc.assert(
    fc.property(
      fc.array(portArb, { maxLength: 8 }),
      fc.array(portArb, { maxLength: 8 }),
      fc.array(portArb, { maxLength: 6 }),
      (baseRaw, headRaw, othersRaw) => {
        const mine = (p: PortRecord) => ({
          ...p,
          graph: "repo",
          ownerId: `repo:${p.owner}`,
        });
        const base = baseRaw.map(mine);
        const head = headRaw.map(mine);
        const others = othersRaw.map((p) => ({
          ...p,
          graph: "other",
          ownerId: `other:${p.owner}`,
        }));
        const same = diffPorts({ base, head: base, others });
        assert.deepEqual(
          [
            same.breaking,
            same.safeChanges,
            same.lostConsumers,
            same.newUnmatchedConsumers,
            same.newUnconsumedProviders,
          ],
          [[], [], [], [], []],
        );
        const diff = diffPorts({ base, head, others });
        const attributed = new Set(diff.breaking.flatMap((c) => c.consumers));
        for (const lost of diff.lostConsumers) assert.ok(attributed.has(lost));
        for (const change of diff.breaking) {
          assert.ok(change.consumers.length > 0);
        }
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("diffScope() lists the boundaries and HTTP paths of both sides", () => {
  const scope = diffScope(
    [server("a", "GET /x/{}", "f")],
    [port("client", "a", "orders.created", "g", 1, "queue")],
  );
  assert.deepEqual(scope, {
    boundaryIds: [
      makeBoundaryId("http", "GET /x/{}"),
      makeBoundaryId("queue", "orders.created"),
    ].sort(),
    httpPaths: ["/x/{}"],
  });
});

function usersGraph(path: string, budgetsHit = false): BoundaryGraph {
  const graph = new BoundaryGraph({
    metadata: budgetsHit
      ? { budgets_hit: [{ budget: "maxFilesPerRoot" }] }
      : {},
  });
  graph.addNode({
    id: "users:app.py::get_user",
    kind: "function",
    qualifiedName: "app.py::get_user",
    name: "get_user",
    metadata: { root: "users" },
  });
  addBoundary(graph, "users:app.py::get_user", {
    mechanism: "http",
    role: "server",
    key: `GET ${path}`,
    line: 3,
    col: 1,
    confidence: 1,
    detail: {},
  }, { filePath: "app.py" });
  return graph;
}

Deno.test("diffGraphs() diffs two graphs of a repository against the others, partial when a scan was", () => {
  const web = new BoundaryGraph();
  web.addNode({
    id: "w",
    kind: "function",
    qualifiedName: "api.ts::load",
    name: "load",
    metadata: { root: "web" },
  });
  addBoundary(web, "w", {
    mechanism: "http",
    role: "client",
    key: "GET /users/{}",
    line: 2,
    col: 1,
    confidence: 1,
    detail: {},
  }, { filePath: "api.ts" });
  const diff = diffGraphs(
    usersGraph("/users/{}"),
    usersGraph("/people/{}", true),
    {
      name: "users-repo",
      others: [{ name: "web-repo", graph: web }],
    },
  );
  assert.equal(diff.breaking[0]?.kind, "path");
  assert.equal(diff.breaking[0]?.before.service, "users");
  assert.deepEqual(
    diff.lostConsumers.map((c) => [c.graph, c.service, c.filePath, c.line]),
    [["web-repo", "web", "api.ts", 2]],
  );
  assert.deepEqual(diff.partial, [
    "users-repo: the scan hit 1 budget (budgets_hit), so its graph is partial",
  ]);
  assert.deepEqual(diff.counts, { base: 1, head: 1, others: 1 });
});
