// Queue producers and consumers in C#: Dapr (`[Topic]`, `WithTopic`,
// `PublishEventAsync`), Confluent.Kafka, MQTTnet, Azure Service Bus and
// MassTransit (`service_bus.ts`).
import type { Node } from "web-tree-sitter";
import type { ExtractedPort } from "../types.ts";
import { keyText, type Value } from "../_value/mod.ts";
import { queueEmitter } from "../_port/queue.ts";
import { statementsText, walk } from "../_syntax/tree.ts";
import {
  attributeArgs,
  attributesOf,
  callArgs,
  CSharpFile,
  simpleName,
} from "./project.ts";
import type { SourceFile } from "../extractor.ts";
import {
  massTransitConsumer,
  massTransitPublish,
  serviceBusCall,
} from "./service_bus.ts";

/** Finds queue ports in one parsed C# file. */
export function csharpQueuePorts(
  root: Node,
  file: SourceFile,
  constants: Map<string, Value>,
  ports: ExtractedPort[],
  inherited = "",
): void {
  const usings = statementsText(root, "using_directive") + "\n" + inherited;
  const dapr = usings.includes("Dapr");
  const confluent = usings.includes("Confluent.Kafka");
  const mqtt = usings.includes("MQTTnet");
  const serviceBus = usings.includes("Azure.Messaging.ServiceBus");
  const massTransit = usings.includes("MassTransit");
  if (!dapr && !confluent && !mqtt && !serviceBus && !massTransit) return;
  const cs = new CSharpFile(file, constants, []);
  const emit = queueEmitter(
    ports,
    file.path,
    "c-sharp",
    (topic) => "parts" in topic ? topic : cs.evaluate(topic),
  );
  const pubsubOf = (node: Node | undefined): Record<string, string> => ({
    pubsub: node ? keyText(cs.evaluate(node)) : "",
  });
  walk(root, (node) => {
    if (massTransit && massTransitConsumer(node, emit)) return;
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
    if (mqtt && mqttTopic(node, method, receiver, args, emit)) return;
    if (serviceBus && serviceBusCall(node, method, emit)) return;
    if (massTransit && massTransitPublish(node, fn, method, emit)) return;
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

/**
 * MQTTnet: a message built with `new MqttApplicationMessageBuilder()
 * .WithTopic("t")` is published (client); a topic filter built with
 * `MqttTopicFilterBuilder().WithTopic("t")` (or inside `WithTopicFilter`)
 * and `SubscribeAsync("t")` subscribe (server). Whether it was one.
 */
function mqttTopic(
  node: Node,
  method: string,
  receiver: Node | null,
  args: Node[],
  emit: ReturnType<typeof queueEmitter>,
): boolean {
  const chain = receiver?.text ?? "";
  if (method === "WithTopic" && args.length === 1) {
    let role: "client" | "server" | undefined;
    if (/\bMqttApplicationMessageBuilder\b/.test(chain)) role = "client";
    else if (/\bMqttTopicFilterBuilder\b/.test(chain)) role = "server";
    else {
      for (let up = node.parent; up && !role; up = up.parent) {
        if (up.type !== "invocation_expression") continue;
        const fn = up.childForFieldName("function");
        const name = fn?.type === "member_access_expression"
          ? simpleName(fn.childForFieldName("name")?.text ?? "")
          : "";
        if (name === "WithTopicFilter") role = "server";
      }
    }
    if (!role) return false;
    emit(node, role, args[0], "mqtt", "mqttnet", method);
    return true;
  }
  if (method === "SubscribeAsync" && args[0]?.type === "string_literal") {
    emit(node, "server", args[0], "mqtt", "mqttnet", method);
    return true;
  }
  return false;
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

/**
 * The `global using` directives of a project's files (C# 10), by the
 * folder of the file declaring them: they apply to every file under it.
 */
export function globalUsings(
  files: readonly SourceFile[],
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of files) {
    if (!file.path.endsWith(".cs") || !file.text.includes("global using")) {
      continue;
    }
    const folder = file.path.includes("/")
      ? file.path.slice(0, file.path.lastIndexOf("/"))
      : "";
    for (
      const match of file.text.matchAll(
        /^\s*global\s+using\s+(?:static\s+)?([\w.]+)\s*;/gm,
      )
    ) {
      const list = out.get(folder);
      if (list === undefined) out.set(folder, [match[1]!]);
      else list.push(match[1]!);
    }
  }
  return out;
}

/** The global usings that apply to a file, as `using` lines. */
export function globalUsingsOf(
  path: string,
  global: ReadonlyMap<string, readonly string[]>,
): string {
  const lines: string[] = [];
  for (const [folder, names] of global) {
    if (folder !== "" && !path.startsWith(folder + "/")) continue;
    for (const name of names) lines.push(`using ${name};`);
  }
  return lines.join("\n");
}
