import assert from "node:assert/strict";
import { addBoundary } from "../../src/boundary/add_boundary.ts";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { openApiDocuments } from "../../src/map/openapi.ts";
import { serviceMap } from "../../src/map/service_map.ts";
import { hostileGraph, polyglotGraph } from "./_graphs.ts";
import { openApiProblems } from "./_validators.ts";

Deno.test("openApiDocuments() of the polyglot fixture are valid OpenAPI 3.1", async () => {
  const documents = openApiDocuments(serviceMap(await polyglotGraph()), {
    version: "1.2.3",
  });
  assert.deepEqual(Object.keys(documents), ["users-api"]);
  for (const [service, document] of Object.entries(documents)) {
    assert.deepEqual(await openApiProblems(document), { valid: true }, service);
    assert.equal(document.info.version, "1.2.3");
  }
  // the validator does reject what is not OpenAPI
  const bad = await openApiProblems({ ...documents["users-api"], info: {} });
  assert.equal(bad.valid, false);
});

Deno.test("openApiDocuments() declares each parameter, lists ANY under the usual methods, keeps what the guard requires", async () => {
  const graph = new BoundaryGraph();
  graph.addNode({
    id: "h",
    kind: "function",
    qualifiedName: "app.ts::h",
    name: "h",
    metadata: { root: "api" },
  });
  const port = {
    mechanism: "http",
    role: "server",
    line: 1,
    col: 1,
    confidence: 1,
  } as const;
  addBoundary(graph, "h", {
    ...port,
    key: "GET /users/{}/posts/{}",
    detail: { permission: "post:read" },
  }, { filePath: "app.ts" });
  addBoundary(graph, "h", {
    ...port,
    key: "GET /users/{}/posts/{}",
    line: 9,
    detail: {},
  }, { filePath: "app.ts" });
  addBoundary(graph, "h", { ...port, key: "ANY /hook", detail: {} });
  addBoundary(graph, "h", { ...port, key: "PURGE /cache", detail: {} });
  addBoundary(graph, "h", { ...port, key: "GET /a/{", detail: {} });
  const { api } = openApiDocuments(serviceMap(graph));
  assert.ok(api);
  assert.deepEqual(await openApiProblems(api), { valid: true });
  const get = api.paths["/users/{p1}/posts/{p2}"]!["get"] as Record<
    string,
    unknown
  >;
  assert.deepEqual(
    (get["parameters"] as { name: string }[]).map((p) => p.name),
    ["p1", "p2"],
  );
  assert.equal(get["x-portcullis-requires"], "post:read");
  assert.deepEqual(get["x-portcullis-sources"], ["app.ts:1", "app.ts:9"]);
  assert.deepEqual(Object.keys(api.paths["/hook"]!), [
    "get",
    "put",
    "post",
    "delete",
    "patch",
  ]);
  assert.equal(api.paths["/cache"], undefined);
  assert.ok(api.paths["/a/%7B"]);
});

Deno.test("openApiDocuments() of hostile names are valid, one per service", async () => {
  const documents = openApiDocuments(serviceMap(hostileGraph()));
  assert.ok(Object.hasOwn(documents, "__proto__"));
  assert.equal(Object.getPrototypeOf(documents), Object.prototype);
  for (const document of Object.values(documents)) {
    assert.deepEqual(
      await openApiProblems(document),
      { valid: true },
      document.info.title,
    );
  }
});
