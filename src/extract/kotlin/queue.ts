// Queue producers and consumers in Kotlin: Spring Kafka (`@KafkaListener`,
// `KafkaTemplate.send`), Spring AMQP (`@RabbitListener`,
// `RabbitTemplate.convertAndSend`) and the Kafka clients
// (`consumer.subscribe(listOf("orders"))`, `ProducerRecord("orders", ...)`).
import type { Node } from "web-tree-sitter";
import { type QueueEmit, queueEmitter } from "../_port/queue.ts";
import type { KtFile } from "./project.ts";
import { argument, callOf, type KtAnnotation } from "./nodes.ts";
import { elements } from "./spring.ts";
import { rabbitTemplateSend } from "../_spring/amqp.ts";

/** Whether a file may hold queue code (its imports name a library). */
export function usesQueues(text: string): boolean {
  return /import\s+org\.(springframework\.(kafka|amqp)|apache\.kafka)\b/
    .test(text);
}

/** A queue emitter for one Kotlin file. */
export function kotlinQueueEmitter(c: KtFile): QueueEmit {
  return queueEmitter(
    c.ports,
    c.file.path,
    "kotlin",
    (topic) => "parts" in topic ? topic : c.evaluate(topic),
  );
}

/** The queue ports of a declaration's annotations (listeners). */
export function listenerPorts(
  emit: QueueEmit,
  annotations: readonly KtAnnotation[],
): void {
  for (const a of annotations) {
    if (a.name === "KafkaListener") {
      for (const t of elements(argument(a.args, ["topics"], -1))) {
        emit(a.node, "server", t, "kafka", "spring-kafka", "@KafkaListener");
      }
    } else if (a.name === "RabbitListener") {
      for (const t of elements(argument(a.args, ["queues"], -1))) {
        emit(a.node, "server", t, "rabbitmq", "spring-amqp", "@RabbitListener");
      }
    }
  }
}

/** Kafka types whose `subscribe` consumes topics. */
const CONSUMERS: ReadonlySet<string> = new Set([
  "KafkaConsumer",
  "Consumer",
]);

/** The queue port of one call, if it is a producer or a consumer. */
export function queueCall(c: KtFile, emit: QueueEmit, node: Node): void {
  const call = callOf(node);
  if (!call) return;
  if (!call.receiver && call.name === "ProducerRecord") {
    const topic = argument(call.args, ["topic"], 0);
    emit(node, "client", topic, "kafka", "kafka-clients", "ProducerRecord");
    return;
  }
  if (!call.receiver) return;
  const type = c.receiverType(call.receiver)?.split(".").pop();
  if (!type) return;
  const first = call.args[0]?.value;
  if (type === "KafkaTemplate" && call.name === "send") {
    if (first && callOf(first)?.name === "ProducerRecord") return;
    emit(node, "client", first, "kafka", "spring-kafka", "send");
  } else if (CONSUMERS.has(type) && call.name === "subscribe") {
    for (const t of elements(first)) {
      emit(node, "server", t, "kafka", "kafka-clients", "subscribe");
    }
  } else if (
    (type === "RabbitTemplate" || type === "AmqpTemplate") &&
    /^(convertAndSend|send)$/.test(call.name) && first
  ) {
    rabbitTemplateSend(
      emit,
      node,
      call.name,
      call.args.length,
      (i) => c.evaluate(call.args[i]?.value),
    );
  }
}
