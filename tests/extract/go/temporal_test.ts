import assert from "node:assert/strict";
import { temporalExtractor } from "../../../src/extract/temporal/mod.ts";
import { loadFixture, portLines } from "../_fixtures.ts";

Deno.test("Go Temporal workflows: registrations serve workflow:<type>, ExecuteWorkflow and child workflows call it", async () => {
  const { ports } = await temporalExtractor.extract(
    await loadFixture("go/temporal_workflows", temporalExtractor.accepts),
  );
  assert.deepEqual(portLines(ports), [
    "client workflow:Fulfil orders/api.go:16",
    "client workflow:Invoice orders/api.go:25",
    "client workflow:refund-v2 orders/api.go:30",
    "server workflow:Invoice billing/worker.go:15",
    "server workflow:refund-v2 billing/worker.go:16",
  ]);
});
