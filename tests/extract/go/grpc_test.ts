import assert from "node:assert/strict";
import { grpcExtractor } from "../../../src/extract/grpc/mod.ts";
import { loadFixture } from "../_fixtures.ts";

Deno.test("Go gateways serve the google.api.http bindings of a service's RPCs at their registration; grpc-gateway also calls each bound RPC", async () => {
  const { ports, diagnostics } = await grpcExtractor.extract(
    await loadFixture("go/gateway", grpcExtractor.accepts),
  );
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    ports.map((p) =>
      `${p.ref.mechanism} ${p.ref.role} ${p.ref.key} ${p.filePath}:${p.ref.line} ${p.ref.detail?.framework}`
    ).sort(),
    [
      "grpc client shop.catalog.v1.Catalog/ListBooks cmd/proxy/main.go:17 grpc-gateway",
      "grpc client shop.catalog.v1.Catalog/UpdateBook cmd/proxy/main.go:17 grpc-gateway",
      "http server GET /v1/books cmd/catalog/http.go:11 kratos",
      "http server GET /v1/books cmd/proxy/main.go:17 grpc-gateway",
      "http server GET /v1/shelves/{}/books cmd/catalog/http.go:11 kratos",
      "http server GET /v1/shelves/{}/books cmd/proxy/main.go:17 grpc-gateway",
      "http server PATCH /v1/{} cmd/catalog/http.go:11 kratos",
      "http server PATCH /v1/{} cmd/proxy/main.go:17 grpc-gateway",
    ],
  );
});

Deno.test("Go connect-go handlers serve the RPCs their implementation defines; connect clients call them", async () => {
  const { ports } = await grpcExtractor.extract(
    await loadFixture("go/connect", grpcExtractor.accepts),
  );
  assert.deepEqual(
    ports.map((p) => `${p.ref.role} ${p.ref.key} ${p.filePath}:${p.ref.line}`)
      .sort(),
    [
      "client greet.v1.GreetService/Greet main.go:19",
      "server greet.v1.GreetService/Greet main.go:12",
    ],
  );
});

Deno.test("Go Kratos registrations serve the routes of the generated RegisterXHTTPServer when the scan root holds it, not those of the .proto again", async () => {
  const files = await loadFixture("go/kratos_generated", grpcExtractor.accepts);
  assert.ok(files.some((f) => f.path.endsWith("_http.pb.go")));
  const { ports, diagnostics } = await grpcExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    ports.map((p) =>
      `${p.ref.mechanism} ${p.ref.role} ${p.ref.key} ${p.filePath}:${p.ref.line} ${p.ref.detail?.framework} ${
        p.ref.detail?.rpc ?? "-"
      }`
    ).sort(),
    [
      "http server DELETE /v1/notes/{} cmd/server/main.go:11 kratos -",
      "http server GET /v1/notes/{} cmd/server/main.go:11 kratos notes.v1.Notes/ShowNote",
      "http server POST /v1/notes cmd/server/main.go:11 kratos notes.v1.Notes/AddNote",
    ],
  );
});
