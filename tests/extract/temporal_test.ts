import assert from "node:assert/strict";
import { temporalExtractor } from "../../src/extract/temporal.ts";
import type { SourceFile } from "../../src/extract/_extractor.ts";
import { loadFixture, portSummary as summary } from "./_fixtures.ts";

function load(dir: string): Promise<SourceFile[]> {
  return loadFixture(`temporal/${dir}`, temporalExtractor.accepts);
}

Deno.test("temporalExtractor pairs Python activity definitions and workflow calls by registered name", async () => {
  const { ports } = await temporalExtractor.extract(await load("python"));
  assert.deepEqual(summary(ports), [
    "activities.py:4 server charge_card 1",
    "activities.py:9 server send_receipt 1",
    "workflows.py:13 client charge_card 1",
    "workflows.py:14 client send_receipt 1",
    "workflows.py:15 client ship_order 1",
  ]);
  const charge = ports.find((p) => p.ref.role === "server");
  assert.equal(charge?.ref.mechanism, "temporal");
  assert.equal(charge?.owner.qualifiedName, "activities.py::charge");
});

Deno.test("temporalExtractor reads Go worker registrations (functions, structs of any package, options) and ExecuteActivity", async () => {
  const { ports } = await temporalExtractor.extract(await load("go"));
  assert.deepEqual(summary(ports), [
    "worker.go:24 server Notify 1",
    "worker.go:25 server ShipOrder 1",
    "worker.go:26 server notify_v2 1",
    "worker.go:27 server Invoice 1",
    "workflow.go:12 client charge_card 1",
    "workflow.go:13 client Notify 1",
    "workflow.go:14 client ShipOrder 1",
  ]);
});

Deno.test("temporalExtractor reads TypeScript worker activities modules and proxyActivities calls", async () => {
  const { ports } = await temporalExtractor.extract(await load("ts"));
  assert.deepEqual(summary(ports), [
    "src/activities.ts:1 server reserveStock 1",
    "src/activities.ts:5 server releaseStock 1",
    "src/workflows.ts:10 client releaseStock 1",
    "src/workflows.ts:9 client reserveStock 1",
  ]);
});

Deno.test("temporalExtractor reads activities returned by a factory passed to Worker.create", async () => {
  const { ports } = await temporalExtractor.extract(await load("ts-factory"));
  assert.deepEqual(summary(ports), [
    "src/activities.ts:3 server saveOrder 1",
    "src/activities.ts:6 server notifyCustomer 1",
  ]);
  assert.equal(
    ports[0]?.owner.qualifiedName,
    "src/activities.ts::createActivities.saveOrder",
  );
});

Deno.test("temporalExtractor ignores decorators and registries that are not Temporal's", async () => {
  const { ports } = await temporalExtractor.extract(await load("negative"));
  assert.deepEqual(summary(ports), []);
});
