import assert from "node:assert/strict";
import { queueExtractor } from "../../../src/extract/queue/mod.ts";
import type { ExtractedPort } from "../../../src/extract/types.ts";
import {
  assertRobust,
  loadFixture,
  only,
  portAt,
  summarize,
} from "../_fixtures.ts";

async function portsOf(prefix: string): Promise<ExtractedPort[]> {
  const files = only(await loadFixture("queue"), prefix);
  const result = await queueExtractor.extract(files);
  assert.deepEqual(result.diagnostics, []);
  return result.ports;
}

Deno.test("queueExtractor finds kafkajs, amqplib, nats, redis and Dapr ports in JavaScript", async () => {
  const ports = await portsOf("node/");
  assert.deepEqual(summarize(ports), [
    "node/dapr_routes.js:8 server orders.refunded",
    "node/legacy_amqp.js:8 server invoices",
    "node/legacy_amqp.js:13 client invoices",
    "node/order_consumer.ts:10 server orders.created",
    "node/order_consumer.ts:17 server audit.{}",
    "node/order_consumer.ts:17 server orders.created",
    "node/publisher.js:10 client orders.created",
    "node/publisher.js:11 client orders.audit",
    "node/publisher.js:15 client emails",
    "node/publisher.js:16 client sms",
    "node/publisher.js:17 client events",
    "node/publisher.js:20 client orders.shipped",
    "node/publisher.js:23 client cache-invalidate",
    "node/publisher.js:26 client orders.paid",
    "node/worker.mjs:10 server emails",
    "node/worker.mjs:11 server events",
    "node/worker.mjs:12 server order-events",
    "node/worker.mjs:15 server orders.shipped",
    "node/worker.mjs:18 server cache-invalidate",
    "node/worker.mjs:18 server cache-warm",
    "node/worker.mjs:21 server orders.paid",
  ]);
  const fromEnv = portAt(ports, "order_consumer.ts", 10)!;
  assert.equal(fromEnv.ref.confidence, 0.95);
  assert.equal(fromEnv.ref.col, 11);
  assert.equal(fromEnv.ref.mechanism, "queue");
  assert.equal(
    fromEnv.owner.qualifiedName,
    "node/order_consumer.ts::OrderConsumer.start",
  );
  const exchange = portAt(ports, "publisher.js", 17)!;
  assert.deepEqual(exchange.ref.detail, {
    topic: "events",
    system: "rabbitmq",
    library: "amqplib",
    operation: "publish",
    exchange: "events",
    routingKey: "order.created",
  });
  const partial = ports.find((p) => p.ref.key === "audit.{}")!;
  assert.equal(partial.ref.confidence, 0.8);
});

Deno.test("queueExtractor finds confluent-kafka, pika, nats, redis, kafka-python and Dapr ports in Python", async () => {
  const ports = await portsOf("python/");
  assert.deepEqual(summarize(ports), [
    "python/aio.py:7 client emails",
    "python/aio.py:9 client events",
    "python/aio.py:11 server events",
    "python/aio.py:12 server order-events",
    "python/dapr_routes.py:8 server orders.refunded",
    "python/misc.py:13 server orders.paid",
    "python/misc.py:16 server cache-invalidate",
    "python/misc.py:17 client cache-warm",
    "python/misc.py:22 client orders.shipped",
    "python/misc.py:23 server orders.returned",
    "python/misc.py:25 client orders.paid",
    "python/misc.py:27 client clicks",
    "python/misc.py:28 server clicks",
    "python/misc.py:28 server views",
    "python/producer.py:13 client orders.created",
    "python/producer.py:14 client orders.audit",
    "python/producer.py:19 server orders.created",
    "python/producer.py:19 server orders.extra",
    "python/rabbit.py:6 client emails",
    "python/rabbit.py:7 client events",
    "python/rabbit.py:8 server events",
    "python/rabbit.py:9 server emails",
    "python/rabbit.py:10 server order-events",
  ]);
  const produced = portAt(ports, "producer.py", 13)!;
  assert.equal(produced.ref.confidence, 0.95);
  assert.equal(
    produced.owner.qualifiedName,
    "python/producer.py::OrderPublisher.publish",
  );
  const decorator = portAt(ports, "misc.py", 13)!;
  assert.equal(decorator.ref.col, 1);
  assert.equal(decorator.owner.qualifiedName, "python/misc.py::paid");
  assert.equal(decorator.ref.detail.pubsub, "pubsub");
});

Deno.test("queueExtractor finds sarama, nats.go, go-redis and kafka-go ports in Go", async () => {
  const ports = await portsOf("go/");
  assert.deepEqual(summarize(ports), [
    "go/misc.go:15 client orders.shipped",
    "go/misc.go:16 server orders.returned",
    "go/misc.go:19 client cache-invalidate",
    "go/misc.go:20 server cache-warm",
    "go/misc.go:23 client clicks",
    "go/misc.go:25 server views",
    "go/misc.go:31 client orders.paid",
    "go/misc.go:32 server orders.paid",
    "go/sarama.go:24 client orders.created",
    "go/sarama.go:31 server orders.audit",
    "go/sarama.go:37 server orders.created",
    "go/sarama.go:37 server orders.paid",
  ]);
  assert.equal(portAt(ports, "sarama.go", 31)!.ref.confidence, 0.95);
  assert.equal(portAt(ports, "misc.go", 32)!.ref.detail.pubsub, "pubsub");
  assert.equal(
    portAt(ports, "sarama.go", 37)!.owner.qualifiedName,
    "go/sarama.go::Worker.Run",
  );
});

Deno.test("queueExtractor finds Spring Kafka, Spring AMQP, Kafka client and Dapr ports in Java", async () => {
  const ports = await portsOf("java/");
  assert.deepEqual(summarize(ports), [
    "java/OrderEvents.java:18 client orders.created",
    "java/OrderEvents.java:19 client emails",
    "java/OrderEvents.java:20 client events",
    "java/OrderEvents.java:21 client orders.paid",
    "java/OrderEvents.java:24 server orders.audit",
    "java/OrderEvents.java:24 server orders.created",
    "java/OrderEvents.java:27 server emails",
    "java/OrderEvents.java:30 server orders.paid",
    "java/PlainKafka.java:12 client clicks",
    "java/PlainKafka.java:14 server clicks",
    "java/PlainKafka.java:14 server views",
  ]);
  const audit = ports.find((p) => p.ref.key === "orders.audit")!;
  assert.equal(audit.ref.confidence, 0.95);
  assert.equal(
    audit.owner.qualifiedName,
    "java/OrderEvents.java::OrderEvents.onOrder",
  );
});

Deno.test("queueExtractor finds Dapr and Confluent.Kafka ports in C#", async () => {
  const ports = await portsOf("csharp/");
  assert.deepEqual(summarize(ports), [
    "csharp/Subscriber.cs:10 server orders.paid",
    "csharp/Subscriber.cs:16 client orders.shipped",
    "csharp/Subscriber.cs:17 client clicks",
    "csharp/Subscriber.cs:19 server clicks",
    "csharp/Subscriber.cs:19 server views",
  ]);
  assert.equal(portAt(ports, "Subscriber.cs", 10)!.ref.confidence, 0.95);
});

Deno.test("queueExtractor finds Dapr declarative subscriptions in YAML", async () => {
  const ports = await portsOf("deploy/");
  assert.deepEqual(summarize(ports), [
    "deploy/subscriptions.yaml:6 server orders.created",
  ]);
  assert.equal(ports[0]!.ref.col, 10);
  assert.equal(ports[0]!.ref.detail.pubsub, "pubsub");
});

Deno.test("queueExtractor reports a YAML file it cannot parse and goes on", async () => {
  const { ports, diagnostics } = await queueExtractor.extract([
    {
      path: "bad.yaml",
      text: "kind: Subscription\napiVersion: dapr.io/v1\nspec: [unclosed\n",
    },
    {
      path: "ok.py",
      text:
        'import pika\nch = pika.BlockingConnection().channel()\nch.basic_consume(queue="q")\n',
    },
  ]);
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0]!.filePath, "bad.yaml");
  assert.match(diagnostics[0]!.message, /^Cannot parse YAML/);
  assert.deepEqual(summarize(ports), ["ok.py:3 server q"]);
});

Deno.test("queueExtractor ignores event emitters, look-alike methods, maps and logging", async () => {
  const files = (await loadFixture("queue")).filter((f) =>
    /lookalikes\.|Lookalikes\./.test(f.path)
  );
  assert.equal(files.length, 5);
  const { ports } = await queueExtractor.extract(files);
  assert.deepEqual(ports, []);
});

Deno.test("queueExtractor resolves topic constants and clients imported from sibling modules", async () => {
  const ports = await portsOf("modules/");
  assert.deepEqual(summarize(ports), [
    "modules/js/src/billing.ts:5 client payments.completed",
    "modules/js/src/consumer.ts:7 server payments.completed",
    "modules/js/src/consumer.ts:7 server payments.refunded",
    "modules/py/app/publisher.py:10 client payments.completed",
    "modules/py/app/publisher.py:11 client payments.refunded",
    "modules/py/app/refunds.py:6 client payments.refunded",
  ]);
  assert.ok(ports.every((p) => p.ref.confidence === 0.95));
});

Deno.test("queueExtractor gives a Python producer and a Node consumer the same key", async () => {
  const files = (await loadFixture("queue")).filter((f) =>
    f.path === "python/producer.py" || f.path === "node/order_consumer.ts"
  );
  const { ports } = await queueExtractor.extract(files);
  const producer = ports.find((p) =>
    p.filePath === "python/producer.py" && p.ref.role === "client"
  )!;
  const consumer = ports.find((p) =>
    p.filePath === "node/order_consumer.ts" && p.ref.role === "server"
  )!;
  assert.equal(producer.ref.key, "orders.created");
  assert.equal(consumer.ref.key, producer.ref.key);
  assert.equal(producer.ref.mechanism, consumer.ref.mechanism);
});

Deno.test("queueExtractor never rejects on malformed input", async () => {
  await assertRobust(queueExtractor, "a.ts", [
    'import { Kafka } from "kafkajs";',
    "const k = new Kafka({});",
    "const p = k.producer();",
    'p.send({ topic: "t" });',
    "amqp.connect().then((c) => c.createChannel())",
    'import amqp from "amqplib";',
    "{",
    "}",
    "(",
    ")",
    "`${",
    "\n",
  ]);
  await assertRobust(queueExtractor, "a.py", [
    "from confluent_kafka import Producer\n",
    "p = Producer({})\n",
    'p.produce("t")\n',
    "import pika\n",
    'ch.basic_publish(exchange="", routing_key="q")\n',
    "def f(",
    "):\n",
    "    ",
    '"',
  ]);
});
