// The queue calls of a JavaScript/TypeScript file, by the kind of their
// receiver: kafkajs producers and consumers, amqplib channels, NATS, Redis
// pub/sub and Dapr; and Dapr's programmatic subscriptions.
import { namedChildren, stringValue } from "../_syntax/tree.ts";
import { keyText, literal } from "../_value/mod.ts";
import { type JsQueueFile, unwrap } from "./queue.ts";
import type { Node } from "web-tree-sitter";
import { amqpTarget } from "../_port/queue.ts";

/** A Dapr subscription object: `{ pubsubname, topic, route }`. */
export function daprSubscription(
  n: Node,
): { pubsub: Node; topic: Node } | undefined {
  if (n.type !== "object") return undefined;
  const pubsub = property(n, "pubsubname") ?? property(n, "pubsubName");
  const topic = property(n, "topic");
  return pubsub && topic ? { pubsub, topic } : undefined;
}

/** A property of an object literal argument. */
export function property(
  object: Node | undefined,
  key: string,
): Node | undefined {
  if (!object || unwrap(object).type !== "object") return undefined;
  for (const p of namedChildren(unwrap(object))) {
    if (p.type === "pair" && propertyKey(p) === key) {
      return p.childForFieldName("value") ?? undefined;
    }
    if (p.type === "shorthand_property_identifier" && p.text === key) {
      return p;
    }
  }
  return undefined;
}

export function queueCall(
  c: JsQueueFile,
  call: Node,
): void {
  const fn = call.childForFieldName("function");
  if (fn?.type !== "member_expression") return;
  const object = fn.childForFieldName("object");
  const method = fn.childForFieldName("property")?.text ?? "";
  const kind = object ? c.kindOf(object) : undefined;
  if (!kind) return;
  const args = namedChildren(call.childForFieldName("arguments") ?? call)
    .filter((a) => a.type !== "comment");
  const emit = c.callEmitter(call, method);
  switch (kind) {
    case "kafkajs.producer":
      if (method === "send") {
        emit("client", property(args[0], "topic"), "kafka", "kafkajs");
      } else if (method === "sendBatch") {
        const list = property(args[0], "topicMessages");
        for (
          const item of list?.type === "array" ? namedChildren(list) : []
        ) {
          emit("client", property(item, "topic"), "kafka", "kafkajs");
        }
      }
      return;
    case "kafkajs.consumer":
      if (method !== "subscribe") return;
      emit("server", property(args[0], "topic"), "kafka", "kafkajs");
      for (const t of arrayItems(property(args[0], "topics"))) {
        emit("server", t, "kafka", "kafkajs");
      }
      return;
    case "amqp.channel":
      if (method === "sendToQueue") {
        emit("client", args[0], "rabbitmq", "amqplib");
      } else if (method === "consume") {
        emit("server", args[0], "rabbitmq", "amqplib");
      } else if (method === "publish" || method === "bindQueue") {
        const [exchangeNode, keyNode] = method === "publish"
          ? [args[0], args[1]]
          : [args[1], args[2]];
        if (!exchangeNode) return;
        const target = amqpTarget(
          c.value(exchangeNode),
          keyNode ? c.value(keyNode) : literal(""),
        );
        if (method === "publish") {
          emit("client", target.topic, "rabbitmq", "amqplib", target.extra);
        } else if (!target.isDefault) {
          emit("server", target.topic, "rabbitmq", "amqplib", target.extra);
        }
      }
      return;
    case "nats.conn":
    case "nats.js":
      if (method === "publish" || method === "request") {
        emit("client", args[0], "nats", "nats");
      } else if (method === "subscribe") {
        emit("server", args[0], "nats", "nats");
      }
      return;
    case "redis.client":
      if (
        method === "publish" || method === "sPublish" || method === "spublish"
      ) {
        emit("client", args[0], "redis", "redis");
      } else if (
        method === "subscribe" || method === "sSubscribe" ||
        method === "ssubscribe"
      ) {
        for (const a of args) {
          if (a.type === "array") {
            for (const t of namedChildren(a)) {
              emit("server", t, "redis", "redis");
            }
          } else if (isStringish(a)) emit("server", a, "redis", "redis");
        }
      }
      return;
    case "dapr.client.pubsub":
      if (method === "publish") {
        emit("client", args[1], "dapr", "@dapr/dapr", {
          pubsub: keyText(c.value(args[0])),
        });
      }
      return;
    case "dapr.server.pubsub":
      if (method === "subscribe" || method === "subscribeWithOptions") {
        emit("server", args[1], "dapr", "@dapr/dapr", {
          pubsub: keyText(c.value(args[0])),
        });
      }
      return;
  }
}

export function propertyKey(pair: Node): string {
  const key = pair.childForFieldName("key");
  if (!key) return "";
  return stringValue(key) ?? key.text;
}

export function arrayItems(node: Node | undefined): Node[] {
  if (!node) return [];
  const n = unwrap(node);
  return n.type === "array" ? namedChildren(n) : [n];
}

export function isStringish(node: Node): boolean {
  return node.type === "string" || node.type === "template_string" ||
    node.type === "identifier" || node.type === "binary_expression" ||
    node.type === "member_expression";
}
