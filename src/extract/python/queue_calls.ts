// The queue calls of a Python file, by the kind of their receiver:
// confluent-kafka, kafka-python, aiokafka, pika, nats-py, redis-py and
// Dapr; and Dapr's programmatic subscriptions.
import { namedChildren } from "../_syntax/tree.ts";
import { exactText, keyText, literal } from "../_value/mod.ts";

import {
  argument,
  keyword,
  positional,
  type PyQueueFile,
  unwrap,
} from "./queue.ts";
import type { Node } from "web-tree-sitter";
import { amqpTarget } from "../_port/queue.ts";

/** A Dapr subscription dict: `{"pubsubname": ..., "topic": ...}`. */
export function daprSubscription(
  c: PyQueueFile,
  n: Node,
): { pubsub: Node; topic: Node } | undefined {
  if (n.type !== "dictionary") return undefined;
  let pubsub: Node | undefined;
  let topic: Node | undefined;
  for (const pair of namedChildren(n)) {
    if (pair.type !== "pair") continue;
    const key = pair.childForFieldName("key");
    const name = key ? exactText(c.value(key)) : undefined;
    const value = pair.childForFieldName("value") ?? undefined;
    if (name === "pubsubname" || name === "pubsubName") pubsub = value;
    if (name === "topic") topic = value;
  }
  return pubsub && topic ? { pubsub, topic } : undefined;
}

/** The topics a kafka-python `KafkaConsumer(...)` subscribes to. */
export function consumerTopics(
  c: PyQueueFile,
  call: Node,
  topics: Iterable<Node>,
): void {
  const emit = c.callEmitter(call, "KafkaConsumer");
  for (const t of topics) {
    emit("server", t, "kafka", "kafka-python");
  }
}

export function queueCall(
  c: PyQueueFile,
  call: Node,
): void {
  const fn = call.childForFieldName("function");
  if (!fn) return;
  // `KafkaConsumer("a", "b", ...)` subscribes at construction.
  if (fn.type !== "attribute") {
    if (c.kindOf(fn) === "kp.ConsumerClass") {
      consumerTopics(c, call, positional(call));
      consumerTopics(c, call, listItems(keyword(call, "topics")));
    }
    return;
  }
  const object = fn.childForFieldName("object");
  const method = fn.childForFieldName("attribute")?.text ?? "";
  const kind = object ? c.kindOf(object) : undefined;
  if (!kind) {
    if (c.kindOf(fn) === "kp.ConsumerClass") {
      consumerTopics(c, call, positional(call));
    }
    return;
  }
  // A decorator belongs to the function it decorates.
  const decorator = call.parent?.type === "decorator" ? call.parent : undefined;
  const emit = c.callEmitter(
    decorator ?? call,
    method,
    decorator?.parent?.childForFieldName("definition") ?? call,
  );
  // the topic is the argument at `index` (else the keyword `name`)
  const emitArgument = (
    role: "server" | "client",
    index: number,
    name: string,
    system: string,
    library: string,
    extra?: Record<string, string>,
  ): void => emit(role, argument(call, index, name), system, library, extra);
  switch (kind) {
    case "ck.producer":
      if (method === "produce") {
        emitArgument("client", 0, "topic", "kafka", "confluent-kafka");
      }
      return;
    case "ck.consumer":
    case "kp.consumer":
      if (method === "subscribe") {
        const library = kind === "ck.consumer"
          ? "confluent-kafka"
          : "kafka-python";
        for (const t of listItems(argument(call, 0, "topics"))) {
          emit("server", t, "kafka", library);
        }
      }
      return;
    case "kp.producer":
      if (method === "send" || method === "send_and_wait") {
        emitArgument("client", 0, "topic", "kafka", "kafka-python");
      }
      return;
    case "pika.channel":
      if (method === "basic_publish" || method === "queue_bind") {
        const publish = method === "basic_publish";
        const exchangeNode = publish
          ? argument(call, 0, "exchange")
          : argument(call, 1, "exchange");
        const keyNode = publish
          ? argument(call, 1, "routing_key")
          : argument(call, 2, "routing_key");
        const target = amqpTarget(
          exchangeNode ? c.value(exchangeNode) : literal(""),
          keyNode ? c.value(keyNode) : literal(""),
        );
        if (publish) {
          emit("client", target.topic, "rabbitmq", "pika", target.extra);
        } else if (!target.isDefault) {
          emit("server", target.topic, "rabbitmq", "pika", target.extra);
        }
      } else if (method === "basic_consume") {
        emitArgument("server", 0, "queue", "rabbitmq", "pika");
      }
      return;
    case "nats.conn":
    case "nats.js":
      if (method === "publish" || method === "request") {
        emitArgument("client", 0, "subject", "nats", "nats-py");
      } else if (method === "subscribe") {
        emitArgument("server", 0, "subject", "nats", "nats-py");
      }
      return;
    case "redis.client":
      if (method === "publish") {
        emitArgument("client", 0, "channel", "redis", "redis-py");
      }
      return;
    case "redis.pubsub":
      if (method === "subscribe") {
        for (const t of positional(call)) {
          emit("server", t, "redis", "redis-py");
        }
        const args = call.childForFieldName("arguments");
        for (const a of args ? namedChildren(args) : []) {
          if (a.type !== "keyword_argument") continue;
          const name = a.childForFieldName("name")?.text;
          if (name) emit("server", literal(name), "redis", "redis-py");
        }
      }
      return;
    case "aiopika.defaultExchange":
      if (method === "publish") {
        emitArgument("client", 1, "routing_key", "rabbitmq", "aio-pika", {
          exchange: "",
        });
      }
      return;
    case "aiopika.exchange":
      if (method === "publish") {
        const name = object ? c.declaredName(object) : undefined;
        const key = argument(call, 1, "routing_key");
        emit("client", name, "rabbitmq", "aio-pika", {
          exchange: name ? keyText(name) : "",
          routingKey: key ? keyText(c.value(key)) : "",
        });
      }
      return;
    case "aiopika.queue":
      if (method === "consume" || method === "iterator") {
        const name = object ? c.declaredName(object) : undefined;
        emit("server", name, "rabbitmq", "aio-pika");
      } else if (method === "bind") {
        const exchange = argument(call, 0, "exchange");
        if (!exchange) return;
        const name = c.kindOf(exchange) === "aiopika.exchange"
          ? c.declaredName(exchange)
          : c.value(exchange);
        if (name && exactText(name) !== "") {
          emit("server", name, "rabbitmq", "aio-pika", {
            exchange: keyText(name),
          });
        }
      }
      return;
    case "dapr.client":
      if (method === "publish_event") {
        const pubsub = argument(call, 0, "pubsub_name");
        emitArgument("client", 1, "topic_name", "dapr", "dapr", {
          pubsub: pubsub ? keyText(c.value(pubsub)) : "",
        });
      }
      return;
    case "dapr.app":
      if (method === "subscribe") {
        const pubsub = keyword(call, "pubsub") ??
          keyword(call, "pubsub_name") ??
          positional(call)[0];
        const topic = keyword(call, "topic") ?? positional(call)[1];
        emit("server", topic, "dapr", "dapr", {
          pubsub: pubsub ? keyText(c.value(pubsub)) : "",
        });
      }
      return;
  }
}

export function listItems(node: Node | undefined): Node[] {
  if (!node) return [];
  const n = unwrap(node);
  return n.type === "list" || n.type === "tuple" || n.type === "set"
    ? namedChildren(n)
    : [n];
}
