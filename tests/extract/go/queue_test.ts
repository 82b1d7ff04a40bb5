import assert from "node:assert/strict";
import { queueExtractor } from "../../../src/extract/queue/mod.ts";
import { goExtractor } from "../../../src/extract/go/mod.ts";
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

Deno.test("Go RabbitMQ wrappers configured by functional options: the option naming the exchange a publish or a binding uses", async () => {
  const { ports } = await goExtractor.extract(
    await loadFixture("go/queue_options", goExtractor.accepts),
  );
  assert.deepEqual(portLines(ports), [
    "client invoices cmd/billing/main.go:10",
    "server payments cmd/billing/main.go:14",
  ]);
});
