import assert from "node:assert/strict";
import { openapiExtractor } from "../../../src/extract/openapi/mod.ts";
import { loadFixture, portLines } from "../_fixtures.ts";

Deno.test("openapiExtractor gives one server port per operation under the servers' base path", async () => {
  const files = await loadFixture("openapi", openapiExtractor.accepts);
  const { ports, diagnostics } = await openapiExtractor.extract(files);
  assert.deepEqual(portLines(ports), [
    "server DELETE /api/orders/{} swagger.json:7",
    "server GET /health petstore.yaml:39",
    "server GET /v1/pets petstore.yaml:14",
    "server GET /v1/pets/{} petstore.yaml:31",
    "server POST /v1/pets petstore.yaml:19",
  ]);
  assert.deepEqual(diagnostics.map((d) => [d.filePath, d.severity]), [
    ["broken.yaml", "error"],
  ]);
  assert.match(diagnostics[0]!.message, /^Cannot parse: .* at 5:1$/);
});

Deno.test("openapiExtractor names owners after operationId and keeps the raw path", async () => {
  const files = await loadFixture("openapi", openapiExtractor.accepts);
  const { ports } = await openapiExtractor.extract(files);
  const show = ports.find((p) => p.ref.key === "GET /v1/pets/{}")!;
  assert.equal(show.owner.qualifiedName, "petstore.yaml::showPetById");
  assert.equal(show.owner.span?.startLine, 31);
  assert.deepEqual(show.ref.detail, {
    method: "GET",
    path: "/v1/pets/{petId}",
    framework: "openapi",
    operationId: "showPetById",
  });
  assert.equal(show.ref.confidence, 0.95);
  const health = ports.find((p) => p.ref.key === "GET /health")!;
  assert.equal(health.ref.confidence, 1);
  assert.equal(health.owner.name, "GET /health");
});

Deno.test("openapiExtractor lets operation servers override path and document servers", async () => {
  const text = [
    "openapi: 3.1.0",
    "servers: [{ url: 'https://a.example.com/root' }]",
    "paths:",
    "  /x:",
    "    servers: [{ url: /path-level }]",
    "    get:",
    "      servers: [{ url: 'http://b/op-level/' }]",
    "    put: {}",
  ].join("\n");
  const { ports } = await openapiExtractor.extract([{
    path: "api.yaml",
    text,
  }]);
  assert.deepEqual(portLines(ports), [
    "server GET /op-level/x api.yaml:6",
    "server PUT /path-level/x api.yaml:8",
  ]);
});

Deno.test("openapiExtractor ignores JSON and YAML files that are not API documents", async () => {
  const { ports, diagnostics } = await openapiExtractor.extract([
    { path: "compose.yaml", text: "services:\n  web:\n    image: nginx\n" },
    { path: "tsconfig.json", text: '{ "compilerOptions": {} }' },
  ]);
  assert.deepEqual(ports, []);
  assert.deepEqual(diagnostics, []);
  assert.ok(!openapiExtractor.accepts("package.json"));
  assert.ok(openapiExtractor.accepts("docs/openapi.yml"));
});
