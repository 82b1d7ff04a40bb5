import assert from "node:assert/strict";
import { grpcExtractor } from "../../../src/extract/grpc/mod.ts";
import { queueExtractor } from "../../../src/extract/queue/mod.ts";
import { loadFixture, portLines } from "../_fixtures.ts";

Deno.test("Go kit gRPC clients name the service and the method as strings", async () => {
  const { ports } = await grpcExtractor.extract(
    await loadFixture("go/gokit_transports", grpcExtractor.accepts),
  );
  assert.deepEqual(portLines(ports), [
    "client ledger.v1.Ledger/Balance client.go:12",
    "client ledger.v1.Ledger/Post client.go:11",
  ]);
});

Deno.test("Go kit NATS publishers request their subject", async () => {
  const { ports } = await queueExtractor.extract(
    await loadFixture("go/gokit_transports", queueExtractor.accepts),
  );
  assert.deepEqual(portLines(ports), [
    "client ledger.post client.go:15",
    "server ledger.post client.go:16",
  ]);
});
