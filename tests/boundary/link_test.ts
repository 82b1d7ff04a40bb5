import assert from "node:assert/strict";
import fc from "fast-check";
import { addBoundary } from "../../src/boundary/add_boundary.ts";
import { BoundaryGraph, type JsonValue } from "../../src/boundary/graph.ts";
import { makeBoundaryId } from "../../src/boundary/id.ts";
import { linkGraph } from "../../src/boundary/link.ts";

const KEY = "GET /users/{}";
const BOUNDARY = makeBoundaryId("http", KEY);

/** One boundary; ports given as [owner, kind, confidence metadata]. */
function scenario(
  ports: [string, "exposes" | "consumes", JsonValue | undefined][],
): BoundaryGraph {
  const graph = new BoundaryGraph();
  graph.addNode({
    id: BOUNDARY,
    kind: "boundary",
    qualifiedName: `http:${KEY}`,
    name: KEY,
    metadata: { mechanism: "http", key: KEY },
  });
  for (const [owner, kind, confidence] of ports) {
    if (!graph.hasNode(owner)) {
      graph.addNode({
        id: owner,
        kind: "function",
        qualifiedName: owner,
        name: owner,
      });
    }
    graph.addRelation({
      sourceId: owner,
      targetId: BOUNDARY,
      kind,
      metadata: confidence === undefined ? {} : { confidence },
    });
  }
  return graph;
}

function links(graph: BoundaryGraph): [string, string][] {
  return graph.relationsByKind("communicates_with").map((r) => [
    r.sourceId,
    r.targetId,
  ]);
}

Deno.test("linkGraph() links a consumer to a provider with graphlens's metadata", () => {
  const graph = scenario([["srv", "exposes", 1], ["cli", "consumes", 0.9]]);
  const result = linkGraph(graph);
  assert.deepEqual(result, {
    relationsAdded: 1,
    boundariesTotal: 1,
    boundariesLinked: 1,
    cuts: [],
  });
  const [link] = graph.relationsByKind("communicates_with");
  assert.equal(link?.sourceId, "cli");
  assert.equal(link?.targetId, "srv");
  assert.deepEqual(link?.metadata, {
    mechanism: "http",
    boundary_id: BOUNDARY,
    boundary_key: KEY,
    confidence: 0.9,
  });
});

Deno.test("linkGraph() pairs every consumer with every provider", () => {
  const graph = scenario([
    ["c1", "consumes", 1],
    ["c2", "consumes", 1],
    ["p1", "exposes", 1],
    ["p2", "exposes", 1],
  ]);
  assert.equal(linkGraph(graph).relationsAdded, 4);
  assert.deepEqual(links(graph), [
    ["c1", "p1"],
    ["c1", "p2"],
    ["c2", "p1"],
    ["c2", "p2"],
  ]);
});

Deno.test("linkGraph() multiplies confidences; missing or non-numeric is 1", () => {
  const cases: [JsonValue | undefined, JsonValue | undefined, number][] = [
    [0.5, 0.8, 0.4],
    [undefined, 0.7, 0.7],
    ["high", 0.6, 0.6],
    [true, null, 1],
    [1, 1, 1],
  ];
  for (const [c, p, expected] of cases) {
    const graph = scenario([["cli", "consumes", c], ["srv", "exposes", p]]);
    linkGraph(graph);
    const confidence = graph.relationsByKind("communicates_with")[0]?.metadata
      .confidence as number;
    assert.ok(Math.abs(confidence - expected) < 1e-12, `${c} x ${p}`);
  }
});

Deno.test("linkGraph() skips pairs below minConfidence and keeps pairs at it", () => {
  const below = scenario([["cli", "consumes", 0.5], ["srv", "exposes", 0.5]]);
  assert.deepEqual(linkGraph(below, { minConfidence: 0.5 }), {
    relationsAdded: 0,
    boundariesTotal: 1,
    boundariesLinked: 0,
    cuts: [],
  });
  const at = scenario([["cli", "consumes", 0.5], ["srv", "exposes", 1]]);
  assert.equal(linkGraph(at, { minConfidence: 0.5 }).relationsAdded, 1);
});

Deno.test("linkGraph() never links a node to itself", () => {
  const graph = scenario([["proxy", "exposes", 1], ["proxy", "consumes", 1]]);
  assert.deepEqual(linkGraph(graph), {
    relationsAdded: 0,
    boundariesTotal: 1,
    boundariesLinked: 0,
    cuts: [],
  });
});

Deno.test("linkGraph() is idempotent", () => {
  const graph = scenario([
    ["c1", "consumes", 1],
    ["p1", "exposes", 1],
    ["p2", "exposes", 1],
  ]);
  const first = linkGraph(graph);
  const count = graph.relations.length;
  const second = linkGraph(graph);
  assert.equal(first.relationsAdded, 2);
  assert.deepEqual(second, { ...first, relationsAdded: 0 });
  assert.equal(graph.relations.length, count);
});

Deno.test("linkGraph() adds only the missing links after new ports appear", () => {
  const graph = scenario([["c1", "consumes", 1], ["p1", "exposes", 1]]);
  linkGraph(graph);
  graph.addNode({
    id: "c2",
    kind: "function",
    qualifiedName: "c2",
    name: "c2",
  });
  graph.addRelation({ sourceId: "c2", targetId: BOUNDARY, kind: "consumes" });
  assert.equal(linkGraph(graph).relationsAdded, 1);
  assert.deepEqual(links(graph), [["c1", "p1"], ["c2", "p1"]]);
});

Deno.test("linkGraph() links one pair once, with its best port confidence", () => {
  const graph = scenario([
    ["cli", "consumes", 0.4],
    ["cli", "consumes", 0.9],
    ["srv", "exposes", 1],
  ]);
  assert.equal(linkGraph(graph).relationsAdded, 1);
  assert.equal(
    graph.relationsByKind("communicates_with")[0]?.metadata.confidence,
    0.9,
  );
});

Deno.test("linkGraph() gives two boundaries between one pair two links", () => {
  const graph = new BoundaryGraph();
  for (const id of ["pub", "sub"]) {
    graph.addNode({ id, kind: "function", qualifiedName: id, name: id });
  }
  for (const key of ["orders.created", "orders.shipped"]) {
    const port = {
      mechanism: "queue",
      key,
      line: 1,
      col: 1,
      confidence: 1,
      detail: {},
    } as const;
    addBoundary(graph, "sub", { ...port, role: "server" });
    addBoundary(graph, "pub", { ...port, role: "client" });
  }
  assert.deepEqual(linkGraph(graph), {
    relationsAdded: 2,
    boundariesTotal: 2,
    boundariesLinked: 2,
    cuts: [],
  });
  assert.deepEqual(
    graph.relationsByKind("communicates_with").map((r) =>
      r.metadata.boundary_key
    ),
    ["orders.created", "orders.shipped"],
  );
});

Deno.test("linkGraph() does nothing without both sides or without boundaries", () => {
  assert.deepEqual(linkGraph(scenario([["c", "consumes", 1]])), {
    relationsAdded: 0,
    boundariesTotal: 1,
    boundariesLinked: 0,
    cuts: [],
  });
  assert.deepEqual(linkGraph(new BoundaryGraph()), {
    relationsAdded: 0,
    boundariesTotal: 0,
    boundariesLinked: 0,
    cuts: [],
  });
});

Deno.test("linkGraph() rejects a bad minConfidence with RangeError", () => {
  for (
    const minConfidence of [-0.1, 1.1, Number.NaN, "0.5" as unknown as number]
  ) {
    assert.throws(() => linkGraph(new BoundaryGraph(), { minConfidence }), {
      name: "RangeError",
      message: /Cannot link graph: minConfidence/,
    });
  }
});

// Random ports over a few owners and boundaries.
const portArb = fc.record({
  owner: fc.constantFrom("a", "b", "c", "d"),
  key: fc.constantFrom("k1", "k2", "k3"),
  role: fc.constantFrom("server" as const, "client" as const),
  confidence: fc.constantFrom(0.25, 0.5, 0.8, 1),
});

interface Port {
  owner: string;
  key: string;
  role: "server" | "client";
  confidence: number;
}

function build(ports: Port[]): BoundaryGraph {
  const graph = new BoundaryGraph();
  for (const id of ["a", "b", "c", "d"]) {
    graph.addNode({ id, kind: "function", qualifiedName: id, name: id });
  }
  for (const p of ports) {
    addBoundary(graph, p.owner, {
      mechanism: "queue",
      role: p.role,
      key: p.key,
      line: 1,
      col: 1,
      confidence: p.confidence,
      detail: {},
    });
  }
  return graph;
}

Deno.test("linkGraph() invariants (property)", () => {
  fc.assert(
    fc.property(
      fc.array(portArb, { maxLength: 12 }),
      fc.constantFrom(0, 0.3, 0.5, 1),
      fc.constantFrom(1, 2, 3, 1000),
      (ports, minConfidence, maxLinksPerBoundary) => {
        const graph = build(ports);
        const options = { minConfidence, maxLinksPerBoundary };
        const first = linkGraph(graph, options);
        const before = JSON.stringify(graph);
        const second = linkGraph(graph, options);
        // Idempotent.
        assert.equal(second.relationsAdded, 0);
        assert.equal(second.boundariesLinked, first.boundariesLinked);
        assert.equal(JSON.stringify(graph), before);
        const made = graph.relationsByKind("communicates_with");
        assert.equal(made.length, first.relationsAdded);
        const seen = new Set<string>();
        for (const link of made) {
          // No self links, no duplicates, threshold honoured.
          assert.notEqual(link.sourceId, link.targetId);
          const id =
            `${link.sourceId}>${link.targetId}@${link.metadata.boundary_id}`;
          assert.ok(!seen.has(id));
          seen.add(id);
          assert.ok((link.metadata.confidence as number) >= minConfidence);
        }
        // Exactly the expected pairs: a brute-force model of the spec.
        const expected = new Set<string>();
        for (const c of ports) {
          for (const p of ports) {
            if (c.role !== "client" || p.role !== "server") continue;
            if (c.key !== p.key || c.owner === p.owner) continue;
            const best = (owner: string, role: string): number =>
              Math.max(
                ...ports.filter((x) =>
                  x.owner === owner && x.role === role && x.key === c.key
                ).map((x) => x.confidence),
              );
            if (
              best(c.owner, "client") * best(p.owner, "server") < minConfidence
            ) {
              continue;
            }
            expected.add(
              `${c.owner}>${p.owner}@${makeBoundaryId("queue", c.key)}`,
            );
          }
        }
        const cut = new Set(first.cuts.map((c) => c.boundaryId));
        assert.deepEqual(
          second.cuts.map((c) => c.boundaryId),
          first.cuts.map((c) => c.boundaryId),
        );
        for (const id of expected) {
          const boundary = id.slice(id.indexOf("@") + 1);
          if (!cut.has(boundary)) assert.ok(seen.has(id), id);
        }
        for (const id of seen) assert.ok(expected.has(id), id);
        // Under a cut, every consumer and provider with a possible link
        // keeps at least one.
        for (const id of expected) {
          const [pair, boundary] = id.split("@") as [string, string];
          const [consumer, provider] = pair.split(">") as [string, string];
          const has = (pick: (other: string) => boolean): boolean =>
            [...seen].some((s) => s.endsWith(`@${boundary}`) && pick(s));
          assert.ok(has((s) => s.startsWith(`${consumer}>`)), id);
          assert.ok(has((s) => s.split("@")[0]!.endsWith(`>${provider}`)), id);
        }
        for (const c of first.cuts) {
          assert.ok(c.consumers * c.providers > maxLinksPerBoundary);
        }
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("linkGraph() after new ports or a merge links as a pass on a fresh copy would (property)", () => {
  // A later pass only looks at the boundaries that gained relations; a copy
  // read back from JSON has no memory of earlier passes and looks at all.
  const step = fc.oneof(
    fc.record({ port: portArb }),
    fc.record({
      link: fc.record({
        minConfidence: fc.constantFrom(0, 0.5),
        maxLinksPerBoundary: fc.constantFrom(1, 2, 1000),
      }),
    }),
    fc.record({ merge: fc.array(portArb, { maxLength: 4 }) }),
  );
  fc.assert(
    fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
      const graph = build([]);
      for (const s of steps) {
        if ("port" in s) {
          addBoundary(graph, s.port.owner, {
            mechanism: "queue",
            role: s.port.role,
            key: s.port.key,
            line: 1,
            col: 1,
            confidence: s.port.confidence,
            detail: {},
          });
        } else if ("merge" in s) {
          const other = build(s.merge);
          linkGraph(other);
          graph.merge(other, { allowShared: true });
        } else {
          const fresh = BoundaryGraph.fromJSON(JSON.stringify(graph));
          const expected = linkGraph(fresh, s.link);
          assert.deepEqual(linkGraph(graph, s.link), expected);
          assert.equal(JSON.stringify(graph), JSON.stringify(fresh));
        }
      }
    }),
    { numRuns: 500 },
  );
});

Deno.test("linkGraph() stays idempotent on a boundary with many links", () => {
  const ports: [string, "exposes" | "consumes", JsonValue | undefined][] = [];
  for (let i = 0; i < 6; i++) {
    ports.push([`c${i}`, "consumes", 1], [`p${i}`, "exposes", 1]);
  }
  const graph = scenario(ports);
  assert.equal(linkGraph(graph).relationsAdded, 36);
  assert.equal(linkGraph(graph).relationsAdded, 0);
  graph.addNode({
    id: "c6",
    kind: "function",
    qualifiedName: "c6",
    name: "c6",
  });
  graph.addRelation({ sourceId: "c6", targetId: BOUNDARY, kind: "consumes" });
  assert.equal(linkGraph(graph).relationsAdded, 6);
  assert.equal(new Set(links(graph).map((pair) => pair.join(">"))).size, 42);
});

/** One boundary with `consumers` callers and `providers` handlers. */
function crowd(
  consumers: number,
  providers: number,
  confidence: (role: "c" | "p", i: number) => number = () => 1,
): BoundaryGraph {
  const ports: [string, "exposes" | "consumes", JsonValue | undefined][] = [];
  for (let i = 0; i < consumers; i++) {
    ports.push([`c${i}`, "consumes", confidence("c", i)]);
  }
  for (let i = 0; i < providers; i++) {
    ports.push([`p${i}`, "exposes", confidence("p", i)]);
  }
  return scenario(ports);
}

function degrees(graph: BoundaryGraph): {
  out: Map<string, number>;
  in: Map<string, number>;
} {
  const out = new Map<string, number>();
  const into = new Map<string, number>();
  for (const [source, target] of links(graph)) {
    out.set(source, (out.get(source) ?? 0) + 1);
    into.set(target, (into.get(target) ?? 0) + 1);
  }
  return { out, in: into };
}

Deno.test("linkGraph() cuts a boundary over maxLinksPerBoundary: each side linked once to its most confident counterpart, the cut reported", () => {
  const graph = crowd(60, 50, (_role, i) => (i === 7 ? 1 : 0.5));
  const result = linkGraph(graph, { maxLinksPerBoundary: 100 });
  const made = links(graph);
  assert.ok(made.length <= 60 + 50 + 100, `${made.length} links`);
  assert.equal(result.relationsAdded, made.length);
  const { out, in: into } = degrees(graph);
  assert.equal(out.size, 60);
  assert.equal(into.size, 50);
  for (let i = 0; i < 60; i++) {
    assert.ok(made.some(([c, p]) => c === `c${i}` && p === "p7"), `c${i}`);
  }
  for (let i = 0; i < 50; i++) {
    assert.ok(made.some(([c, p]) => c === "c7" && p === `p${i}`), `p${i}`);
  }
  assert.deepEqual(result.cuts, [{
    boundaryId: BOUNDARY,
    mechanism: "http",
    key: KEY,
    consumers: 60,
    providers: 50,
    linksAdded: made.length,
  }]);
  assert.equal(result.boundariesLinked, 1);
  const again = linkGraph(graph, { maxLinksPerBoundary: 100 });
  assert.equal(again.relationsAdded, 0);
  assert.equal(again.cuts[0]?.linksAdded, 0);
});

Deno.test("linkGraph() makes links linear in ports by default: 1,500 consumers x 1,500 providers", () => {
  const graph = crowd(1500, 1500);
  const result = linkGraph(graph);
  assert.ok(result.relationsAdded <= 1500 + 1500 + 1000);
  assert.equal(degrees(graph).out.size, 1500);
  assert.equal(degrees(graph).in.size, 1500);
  assert.equal(result.cuts.length, 1);
});

Deno.test("linkGraph() keeps every pair while pairs fit maxLinksPerBoundary", () => {
  const graph = crowd(10, 10);
  const result = linkGraph(graph, { maxLinksPerBoundary: 100 });
  assert.equal(result.relationsAdded, 100);
  assert.deepEqual(result.cuts, []);
});

Deno.test("linkGraph() honours minConfidence under a cut", () => {
  // c0 is weak: even with the best provider it stays below the threshold
  const graph = crowd(30, 30, (role, i) => (role === "c" && i === 0 ? 0.1 : 1));
  linkGraph(graph, { maxLinksPerBoundary: 10, minConfidence: 0.5 });
  const { out } = degrees(graph);
  assert.equal(out.has("c0"), false);
  assert.equal(out.size, 29);
  for (const link of graph.relationsByKind("communicates_with")) {
    assert.ok((link.metadata.confidence as number) >= 0.5);
  }
});

Deno.test("linkGraph() rejects a bad maxLinksPerBoundary with RangeError", () => {
  for (const maxLinksPerBoundary of [0, -1, 1.5, Number.NaN]) {
    assert.throws(
      () => linkGraph(new BoundaryGraph(), { maxLinksPerBoundary }),
      { name: "RangeError", message: /maxLinksPerBoundary/ },
    );
  }
});

Deno.test("linkGraph() links ports recorded before their boundary node was added", () => {
  const graph = new BoundaryGraph();
  for (const id of ["cli", "srv"]) {
    graph.addNode({ id, kind: "function", qualifiedName: id, name: id });
  }
  graph.addRelation({ sourceId: "cli", targetId: BOUNDARY, kind: "consumes" });
  graph.addRelation({ sourceId: "srv", targetId: BOUNDARY, kind: "exposes" });
  graph.addNode({
    id: BOUNDARY,
    kind: "boundary",
    qualifiedName: `http:${KEY}`,
    name: KEY,
    metadata: { mechanism: "http", key: KEY },
  });
  assert.equal(linkGraph(graph).relationsAdded, 1);
  assert.deepEqual(links(graph), [["cli", "srv"]]);
  assert.deepEqual(graph.incoming("srv").map((r) => r.sourceId), ["cli"]);
});

Deno.test("linkGraph() shares one frozen metadata object among the links of a boundary", () => {
  const graph = scenario([
    ["c1", "consumes", 1],
    ["c2", "consumes", 1],
    ["p1", "exposes", 1],
  ]);
  linkGraph(graph);
  const [a, b] = graph.relationsByKind("communicates_with");
  assert.equal(a?.metadata, b?.metadata);
  assert.ok(Object.isFrozen(a?.metadata));
});

Deno.test("linkGraph() never links a pair accept refuses, within and over the budget", () => {
  for (const maxLinksPerBoundary of [1000, 1]) {
    const graph = scenario([
      ["web", "consumes", 1],
      ["cli", "consumes", 1],
      ["users", "exposes", 1],
      ["admin", "exposes", 1],
    ]);
    const seen: string[] = [];
    const result = linkGraph(graph, {
      maxLinksPerBoundary,
      accept: (consumer, provider, boundary) => {
        seen.push(boundary);
        return !(consumer === "web" && provider === "admin");
      },
    });
    const links = graph.relationsByKind("communicates_with").map((r) =>
      `${r.sourceId}->${r.targetId}`
    ).sort();
    assert.ok(!links.includes("web->admin"), links.join());
    assert.ok(links.includes("web->users"), links.join());
    assert.ok(seen.every((b) => b === BOUNDARY));
    assert.equal(result.boundariesLinked, 1);
  }
});

Deno.test("linkGraph() links nothing on a boundary whose every pair accept refuses", () => {
  const graph = scenario([["web", "consumes", 1], ["users", "exposes", 1]]);
  const result = linkGraph(graph, { accept: () => false });
  assert.deepEqual(
    [result.relationsAdded, result.boundariesLinked],
    [0, 0],
  );
  // a later pass without the filter links the pair
  assert.equal(linkGraph(graph).relationsAdded, 1);
});
