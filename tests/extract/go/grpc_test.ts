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

Deno.test("Go connect-go handlers serve the RPCs their implementation defines, over gRPC and over HTTP; connect clients call them", async () => {
  const { ports } = await grpcExtractor.extract(
    await loadFixture("go/connect", grpcExtractor.accepts),
  );
  assert.deepEqual(
    ports.map((p) =>
      `${p.ref.mechanism} ${p.ref.role} ${p.ref.key} ${p.filePath}:${p.ref.line}`
    ).sort(),
    [
      "grpc client greet.v1.GreetService/Greet main.go:19",
      "grpc server greet.v1.GreetService/Greet main.go:12",
      // the Connect protocol: the same RPC over plain HTTP
      "http server POST /greet.v1.GreetService/Greet main.go:12",
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

Deno.test("Go connect-go handlers without a .proto serve the procedures of the generated handler constructor", async () => {
  const files = await loadFixture(
    "go/connect_generated",
    grpcExtractor.accepts,
  );
  const { ports, diagnostics } = await grpcExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    ports.map((p) =>
      `${p.ref.mechanism} ${p.ref.role} ${p.ref.key} ${p.filePath}:${p.ref.line} ${p.ref.confidence}`
    ).sort(),
    [
      "grpc server shop.cart.v1.CartService/AddItem main.go:12 1",
      "http server POST /shop.cart.v1.CartService/AddItem main.go:12 1",
    ],
  );
});
