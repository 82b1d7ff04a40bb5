// Queue producers and consumers in Java (Spring Kafka, Spring AMQP, the
// Kafka clients, Dapr) and C# (Dapr, Confluent.Kafka).
import type { Node } from "web-tree-sitter";
import type { ExtractedPort } from "../types.ts";
import {
  type EvaluatedString,
  exactText,
  hole,
  keyText,
  literal,
  queueEmitter,
} from "../_value/more_common.ts";
import { namedChildren, walk } from "../_syntax/tree.ts";
import {
  annotationElement,
  annotationName,
  annotationsOf,
  elements,
  JavaFile,
} from "./mod.ts";
import {
  attributeArgs,
  attributesOf,
  callArgs,
  CSharpFile,
  simpleName,
} from "../csharp/mod.ts";
import type { SourceFile } from "../extractor.ts";

/**
 * A Spring property placeholder `${name:default}` gives its default; one
 * without a default is unknown.
 */
function placeholder(value: EvaluatedString): EvaluatedString {
  const text = exactText(value);
  if (text === undefined || !text.startsWith("${") || !text.endsWith("}")) {
    return value;
  }
  const colon = text.indexOf(":");
  if (colon < 0) return hole(text);
  return { ...literal(text.slice(colon + 1, -1)), resolved: true };
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

/** The text of a file's top-level statements of one type, one per line. */
function statementsText(root: Node, type: string): string {
  return namedChildren(root)
    .filter((n) => n.type === type)
    .map((n) => n.text)
    .join("\n");
}

/** Finds queue ports in one parsed Java file. */
export function javaQueuePorts(
  root: Node,
  file: SourceFile,
  constants: Map<string, EvaluatedString>,
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
    (topic) => placeholder("pieces" in topic ? topic : java.evaluate(topic)),
  );
  walk(root, (node) => {
    if (
      node.type === "method_declaration" || node.type === "class_declaration"
    ) {
      for (const a of annotationsOf(node)) {
        const name = annotationName(a);
        if (name === "KafkaListener" && springKafka) {
          for (const t of elements(annotationElement(a, ["topics"]))) {
            emit(a, "server", t, "kafka", "spring-kafka", "@KafkaListener");
          }
        } else if (name === "RabbitListener" && springAmqp) {
          for (const t of elements(annotationElement(a, ["queues"]))) {
            emit(a, "server", t, "rabbitmq", "spring-amqp", "@RabbitListener");
          }
        } else if (name === "Topic" && dapr) {
          const pubsub = annotationElement(a, ["pubsubName"]);
          emit(
            a,
            "server",
            annotationElement(a, ["name"]),
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
      if (args.length <= 2) {
        emit(node, "client", args[0], "rabbitmq", "spring-amqp", method, {
          exchange: "",
          routingKey: keyText(args[0] ? java.evaluate(args[0]) : hole("?")),
        });
      } else {
        const exchange = java.evaluate(args[0]!);
        const routingKey = java.evaluate(args[1]!);
        const isDefault = exactText(exchange) === "";
        emit(
          node,
          "client",
          isDefault ? routingKey : exchange,
          "rabbitmq",
          "spring-amqp",
          method,
          {
            exchange: keyText(exchange),
            routingKey: keyText(routingKey),
          },
        );
      }
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

/** Finds queue ports in one parsed C# file. */
export function csharpQueuePorts(
  root: Node,
  file: SourceFile,
  constants: Map<string, EvaluatedString>,
  ports: ExtractedPort[],
): void {
  const usings = statementsText(root, "using_directive");
  const dapr = usings.includes("Dapr");
  const confluent = usings.includes("Confluent.Kafka");
  if (!dapr && !confluent) return;
  const cs = new CSharpFile(file, constants, []);
  const emit = queueEmitter(
    ports,
    file.path,
    "c-sharp",
    (topic) => "pieces" in topic ? topic : cs.evaluate(topic),
  );
  const pubsubOf = (node: Node | undefined): Record<string, string> => ({
    pubsub: node ? keyText(cs.evaluate(node)) : "",
  });
  walk(root, (node) => {
    if (node.type === "method_declaration" && dapr) {
      for (const a of attributesOf(node)) {
        if (simpleName(a.childForFieldName("name")?.text ?? "") !== "Topic") {
          continue;
        }
        const [pubsub, topic] = attributeArgs(a);
        emit(
          a.parent ?? a,
          "server",
          topic,
          "dapr",
          "dapr-dotnet",
          "[Topic]",
          pubsubOf(pubsub),
        );
      }
      return;
    }
    if (node.type !== "invocation_expression") return;
    const fn = node.childForFieldName("function");
    if (fn?.type !== "member_access_expression") return;
    const method = simpleName(fn.childForFieldName("name")?.text ?? "");
    const receiver = fn.childForFieldName("expression");
    const args = callArgs(node);
    if (dapr && method === "WithTopic") {
      emit(
        node,
        "server",
        args[1],
        "dapr",
        "dapr-dotnet",
        method,
        pubsubOf(args[0]),
      );
      return;
    }
    const type = receiverKind(cs, receiver);
    if (type === "DaprClient" && method === "PublishEventAsync") {
      emit(
        node,
        "client",
        args[1],
        "dapr",
        "dapr-dotnet",
        method,
        pubsubOf(args[0]),
      );
    } else if (type === "IProducer" && /^Produce(Async)?$/.test(method)) {
      emit(node, "client", args[0], "kafka", "confluent-kafka-dotnet", method);
    } else if (type === "IConsumer" && method === "Subscribe") {
      const first = args[0];
      if (!first) return;
      if (
        first.type === "implicit_array_creation_expression" ||
        first.type === "array_creation_expression" ||
        first.type === "collection_expression"
      ) {
        walk(first, (n) => {
          if (n.type === "string_literal" || n.type === "identifier") {
            emit(node, "server", n, "kafka", "confluent-kafka-dotnet", method);
            return false;
          }
        });
      } else {
        emit(node, "server", first, "kafka", "confluent-kafka-dotnet", method);
      }
    }
  });
}

/** `DaprClient`, `IProducer`, `IConsumer` receivers (builders included). */
function receiverKind(
  cs: CSharpFile,
  receiver: Node | null,
): string | undefined {
  if (!receiver) return undefined;
  const declared = cs.typeOf(receiver);
  if (declared === "DaprClient") return "DaprClient";
  if (declared === "IProducer" || declared === "IConsumer") return declared;
  // `var producer = new ProducerBuilder<K, V>(config).Build();`
  if (receiver.type === "identifier") {
    const decl = cs.declaration(receiver.text, receiver);
    const text = decl?.value?.text ?? "";
    if (/^new\s+ProducerBuilder\b/.test(text)) return "IProducer";
    if (/^new\s+ConsumerBuilder\b/.test(text)) return "IConsumer";
    if (/^new\s+DaprClientBuilder\b/.test(text)) return "DaprClient";
  }
  return undefined;
}
