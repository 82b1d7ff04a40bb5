// Message buses in C#: Azure Service Bus (`CreateSender("orders")` sends,
// `CreateProcessor("orders")` / `CreateReceiver("orders")` receive; a
// topic's subscription is named second) and MassTransit, where a message
// type is the topic: a consumer `class X : IConsumer<OrderSubmitted>`
// receives it, `Publish<OrderSubmitted>(...)` / `Publish(new
// OrderSubmitted(...))` / `Send<T>` produce it, and
// `ReceiveEndpoint("queue", ...)` names a queue its consumers read.
import type { Node } from "web-tree-sitter";
import { literal } from "../_value/mod.ts";
import type { queueEmitter } from "../_port/queue.ts";
import { namedChildren } from "../_syntax/tree.ts";
import { basesOf, callArgs, simpleName, typeArgument } from "./project.ts";

type Emit = ReturnType<typeof queueEmitter>;

/** Azure Service Bus senders and receivers; whether `node` was one. */
export function serviceBusCall(
  node: Node,
  method: string,
  emit: Emit,
): boolean {
  const args = callArgs(node);
  if (method === "CreateSender" && args[0]) {
    emit(node, "client", args[0], "servicebus", "azure-servicebus", method);
    return true;
  }
  if (
    (method === "CreateProcessor" || method === "CreateReceiver" ||
      method === "CreateSessionProcessor") && args[0]
  ) {
    // `(topic, subscription)` or `(queue)`; options objects are no names
    if (args[0].type === "object_creation_expression") return false;
    emit(node, "server", args[0], "servicebus", "azure-servicebus", method);
    return true;
  }
  return false;
}

/** MassTransit consumers (class bases); whether `node` was a class with one. */
export function massTransitConsumer(node: Node, emit: Emit): boolean {
  if (node.type !== "class_declaration") return false;
  let found = false;
  for (const base of basesOf(node)) {
    const name = base.type === "generic_name"
      ? base.childForFieldName("name")?.text ??
        namedChildren(base)[0]?.text
      : undefined;
    if (name !== "IConsumer") continue;
    const message = typeArgument(base);
    if (!message) continue;
    emit(
      base,
      "server",
      literal(message),
      "masstransit",
      "masstransit",
      "IConsumer",
      undefined,
      node,
    );
    found = true;
  }
  return found;
}

/** MassTransit `Publish`/`Send` of a message type; whether it was one. */
export function massTransitPublish(
  node: Node,
  fn: Node,
  method: string,
  emit: Emit,
): boolean {
  if (method !== "Publish" && method !== "Send") return false;
  const name = fn.childForFieldName("name");
  let message = typeArgument(name);
  if (!message) {
    const first = callArgs(node)[0];
    if (first?.type === "object_creation_expression") {
      message = simpleName(first.childForFieldName("type")?.text ?? "");
    }
  }
  if (!message) return false;
  emit(node, "client", literal(message), "masstransit", "masstransit", method);
  return true;
}
