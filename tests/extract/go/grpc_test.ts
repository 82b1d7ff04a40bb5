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
