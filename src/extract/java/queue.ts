// Queue producers and consumers in Java: Spring Kafka, Spring AMQP, the
// Kafka clients and Dapr.
import type { Node } from "web-tree-sitter";
import type { ExtractedPort } from "../types.ts";
import {
  exactText,
  hole,
  keyText,
  literal,
  type Value,
} from "../_value/mod.ts";
import { queueEmitter } from "../_port/queue.ts";
import { namedChildren, statementsText, walk } from "../_syntax/tree.ts";
import { JavaFile } from "./project.ts";
import { javaAnnotations } from "./annotations.ts";
import type { SourceFile } from "../extractor.ts";
import { rabbitTemplateSend } from "../_spring/amqp.ts";

/**
 * A Spring property placeholder `${name:default}` gives its default; one
 * without a default is unknown.
 */
function placeholder(value: Value): Value {
  const text = exactText(value);
  if (text === undefined || !text.startsWith("${") || !text.endsWith("}")) {
    return value;
  }
  const colon = text.indexOf(":");
  if (colon < 0) return hole(text);
  return literal(text.slice(colon + 1, -1), true);
}

/** Topic nodes of `List.of(..)`, `Arrays.asList(..)`, `{..}`, or one string. */
function javaList(node: Node | undefined): Node[] {
  if (!node) return [];
  if (node.type === "method_invocation") {
    const name = node.childForFieldName("name")?.text ?? "";
    if (/^(of|asList|singletonList|singleton)$/.test(name)) {
      return namedChildren(node.childForFieldName("arguments") ?? node);
    }
    return [];
  }
  if (node.type === "array_creation_expression") {
    const init = namedChildren(node).find((c) =>
      c.type === "array_initializer"
    );
    return init ? namedChildren(init) : [];
  }
  return [node];
}

/** Finds queue ports in one parsed Java file. */
export function javaQueuePorts(
  root: Node,
  file: SourceFile,
  constants: Map<string, Value>,
  ports: ExtractedPort[],
): void {
  const imports = statementsText(root, "import_declaration");
  const springKafka = imports.includes("org.springframework.kafka");
  const springAmqp = imports.includes("org.springframework.amqp");
  const kafkaClients = imports.includes("org.apache.kafka.clients");
  const dapr = imports.includes("io.dapr");
  if (!springKafka && !springAmqp && !kafkaClients && !dapr) return;
  const java = new JavaFile(file, constants, []);
  const emit = queueEmitter(
    ports,
    file.path,
    "java",
    (topic) => placeholder("parts" in topic ? topic : java.evaluate(topic)),
  );
  walk(root, (node) => {
    if (
      node.type === "method_declaration" || node.type === "class_declaration"
    ) {
      for (const a of javaAnnotations(node)) {
        const at = a.node;
        if (a.name === "KafkaListener" && springKafka) {
          for (const t of a.values(["topics"])) {
            emit(at, "server", t, "kafka", "spring-kafka", "@KafkaListener");
          }
        } else if (a.name === "RabbitListener" && springAmqp) {
          for (const t of a.values(["queues"])) {
            emit(at, "server", t, "rabbitmq", "spring-amqp", "@RabbitListener");
          }
        } else if (a.name === "Topic" && dapr) {
          const pubsub = a.element(["pubsubName"]);
          emit(
            at,
            "server",
            a.element(["name"]),
            "dapr",
            "dapr-java",
            "@Topic",
            {
              pubsub: pubsub ? keyText(placeholder(java.evaluate(pubsub))) : "",
            },
          );
        }
      }
      return;
    }
    if (node.type === "object_creation_expression" && kafkaClients) {
      const type = node.childForFieldName("type")?.text ?? "";
      if (/^ProducerRecord\b/.test(type)) {
        const first = node.childForFieldName("arguments")?.namedChild(0);
        emit(
          node,
          "client",
          first ?? undefined,
          "kafka",
          "kafka-clients",
          "ProducerRecord",
        );
      }
      return;
    }
    if (node.type !== "method_invocation") return;
    const method = node.childForFieldName("name")?.text ?? "";
    const object = node.childForFieldName("object");
    if (!object) return;
    const args = namedChildren(node.childForFieldName("arguments") ?? node);
    const type = java.receiverType(object);
    if (!type) return;
    if (type === "KafkaTemplate" && springKafka && method === "send") {
      if (args[0]?.type === "object_creation_expression") return;
      emit(node, "client", args[0], "kafka", "spring-kafka", method);
    } else if (
      (type === "KafkaConsumer" || type === "Consumer") && kafkaClients &&
      method === "subscribe"
    ) {
      for (const t of javaList(args[0])) {
        emit(node, "server", t, "kafka", "kafka-clients", method);
      }
    } else if (
      (type === "RabbitTemplate" || type === "AmqpTemplate") && springAmqp &&
      /^convertAndSend|^send$/.test(method)
    ) {
      rabbitTemplateSend(
        emit,
        node,
        method,
        args.length,
        (i) => args[i] ? java.evaluate(args[i]) : hole("?"),
      );
    } else if (
      (type === "DaprClient" || type === "DaprPreviewClient") && dapr &&
      method === "publishEvent"
    ) {
      emit(node, "client", args[1], "dapr", "dapr-java", method, {
        pubsub: args[0] ? keyText(java.evaluate(args[0])) : "",
      });
    }
  });
}
