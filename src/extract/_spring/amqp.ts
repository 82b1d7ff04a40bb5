// What Spring AMQP's `RabbitTemplate` / `AmqpTemplate` publishes to, as
// Java and Kotlin code call it.
import type { Node } from "web-tree-sitter";
import { type AmqpTarget, amqpTarget, type QueueEmit } from "../_port/queue.ts";
import { literal, type Value } from "../_value/value.ts";

/**
 * The target of `convertAndSend`/`send` with `count` arguments:
 * `(routingKey, message)` publishes on the default exchange,
 * `(exchange, routingKey, message)` on an exchange. `arg` gives the value
 * of an argument by its position.
 */
export function rabbitTemplateTarget(
  count: number,
  arg: (index: number) => Value,
): AmqpTarget {
  return count <= 2
    ? amqpTarget(literal(""), arg(0))
    : amqpTarget(arg(0), arg(1));
}

/** Emits the producer port of a `RabbitTemplate` send at `node`. */
export function rabbitTemplateSend(
  emit: QueueEmit,
  node: Node,
  method: string,
  count: number,
  arg: (index: number) => Value,
): void {
  const target = rabbitTemplateTarget(count, arg);
  emit(
    node,
    "client",
    target.topic,
    "rabbitmq",
    "spring-amqp",
    method,
    target.extra,
  );
}
