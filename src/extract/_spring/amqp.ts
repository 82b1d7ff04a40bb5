// Where Spring AMQP's `RabbitTemplate` / `AmqpTemplate` publishes, as Java
// and Kotlin code call it.
import { type AmqpTarget, amqpTarget } from "../_port/queue.ts";
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
