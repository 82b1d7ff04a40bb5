import assert from "node:assert/strict";
import { addBoundary } from "../../src/boundary/add_boundary.ts";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { linkGraph } from "../../src/boundary/link.ts";
import { cyclonedxBom } from "../../src/map/cyclonedx.ts";
import { serviceMap } from "../../src/map/service_map.ts";
import { hostileGraph, polyglotGraph } from "./_graphs.ts";
import { cyclonedxProblems } from "./_validators.ts";

const SERIAL = "urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79";

Deno.test("cyclonedxBom() of the polyglot fixture is a valid CycloneDX 1.6 BOM", async () => {
  const bom = cyclonedxBom(
    serviceMap(await polyglotGraph(), { name: "shop" }),
    {
      serialNumber: SERIAL,
      timestamp: "2026-01-02T03:04:05Z",
    },
  );
  assert.equal(await cyclonedxProblems(JSON.stringify(bom)), null);
  assert.equal(bom.services.length, 6);
  const users = bom.services.find((s) => s.name === "users-api")!;
  assert.ok((users.endpoints as string[]).includes("/api/v1/users/%7B%7D"));
  const inbound = (users.data as { flow: string; source?: string[] }[])
    .filter((d) => d.flow === "inbound");
  assert.deepEqual(inbound.map((d) => d.source), [[
    "urn:portcullis:service:web",
  ]]);
  const ordering = bom.services.find((s) => s.name === "ordering-go")!;
  assert.deepEqual(
    (ordering.data as { name: string }[]).find((d) =>
      d.name === "grpc to inventory-java"
    ),
    {
      flow: "outbound",
      classification: "unclassified",
      name: "grpc to inventory-java",
      description: "inventory.v1.InventoryService/GetItem",
      destination: ["urn:portcullis:service:inventory-java"],
    },
  );
  const inventory = bom.services.find((s) => s.name === "inventory-java")!;
  assert.ok(
    (inventory.endpoints as string[]).some((e) => e.startsWith("grpc:")),
  );
  // the validator does reject what the schema refuses
  assert.notEqual(
    await cyclonedxProblems(
      JSON.stringify({ ...bom, services: [{ endpoints: [] }] }),
    ),
    null,
  );
});

Deno.test("cyclonedxBom() says authenticated only when the guard requires something of every route", async () => {
  const graph = new BoundaryGraph();
  for (const root of ["locked", "mixed"]) {
    graph.addNode({
      id: root,
      kind: "function",
      qualifiedName: root,
      name: root,
      metadata: { root },
    });
  }
  const port = {
    mechanism: "http",
    role: "server",
    line: 1,
    col: 1,
    confidence: 1,
  } as const;
  addBoundary(graph, "locked", {
    ...port,
    key: "GET /a",
    detail: { permission: "a:read" },
  });
  addBoundary(graph, "locked", {
    ...port,
    key: "GET /b",
    detail: { auth: "required" },
  });
  addBoundary(graph, "mixed", {
    ...port,
    key: "GET /c",
    detail: { permission: "c:read" },
  });
  addBoundary(graph, "mixed", { ...port, key: "GET /d", detail: {} });
  linkGraph(graph);
  const bom = cyclonedxBom(serviceMap(graph), { serialNumber: SERIAL });
  assert.equal(await cyclonedxProblems(JSON.stringify(bom)), null);
  const [locked, mixed] = bom.services;
  assert.equal(locked?.authenticated, true);
  assert.equal(locked?.["x-trust-boundary"], true);
  assert.equal(mixed?.authenticated, undefined);
  assert.equal(mixed?.["x-trust-boundary"], true);
});

Deno.test("cyclonedxBom() of hostile names is valid: endpoints and references are encoded URIs", async () => {
  const bom = cyclonedxBom(serviceMap(hostileGraph()), {
    serialNumber: SERIAL,
  });
  assert.equal(await cyclonedxProblems(JSON.stringify(bom)), null);
  const refs = bom.services.map((s) => s["bom-ref"]);
  assert.equal(new Set(refs).size, refs.length);
  for (const service of bom.services) {
    for (const endpoint of service.endpoints as string[]) {
      assert.match(endpoint, /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]+$/);
    }
  }
  assert.throws(
    () => cyclonedxBom(serviceMap(hostileGraph()), { serialNumber: "x" }),
    SyntaxError,
  );
  assert.match(
    cyclonedxBom(serviceMap(new BoundaryGraph())).serialNumber,
    /^urn:uuid:/,
  );
});
