import assert from "node:assert/strict";
import { queueExtractor } from "../../../src/extract/queue/mod.ts";
import { loadFixture, portLines } from "../_fixtures.ts";

Deno.test("Go RabbitMQ: publishes keyed by the exchange (or the queue of the default one), bindings and consumers", async () => {
  const { ports } = await queueExtractor.extract(
    await loadFixture("go/amqp", queueExtractor.accepts),
  );
  assert.deepEqual(portLines(ports), [
    "client audit-log main.go:21",
    "client billing main.go:20",
    "client notifications main.go:25",
    "server billing main.go:18",
    "server invoices main.go:19",
  ]);
});
