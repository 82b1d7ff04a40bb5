// MQTT from the browser with Paho (a global, no import): a message whose
// `destinationName` is set is sent to that topic (a client port), and a
// Paho client's `subscribe("topic")` consumes it (a server port).
import type { ExtractedPort } from "../types.ts";
import { queueEmitter } from "../_port/queue.ts";
import type { GrammarName } from "../_syntax/parser.ts";
import { type Node, walk } from "../_syntax/tree.ts";
import { unwrap, valueOf } from "./values.ts";

const PAHO_MESSAGE = /^(?:Paho\.MQTT\.|Paho\.|Messaging\.)Message$/;
const PAHO_CLIENT = /^(?:Paho\.MQTT\.|Paho\.|Messaging\.)Client$/;

/** What names (`message`, `this.client`) are assigned a Paho object in a file. */
function pahoNames(root: Node): Map<string, "message" | "client"> {
  const out = new Map<string, "message" | "client">();
  walk(root, (node) => {
    let name: Node | null = null;
    let value: Node | null = null;
    if (node.type === "variable_declarator") {
      name = node.childForFieldName("name");
      value = node.childForFieldName("value");
    } else if (node.type === "assignment_expression") {
      name = node.childForFieldName("left");
      value = node.childForFieldName("right");
    }
    if (!name || !value) return;
    const v = unwrap(value);
    if (v.type !== "new_expression") return;
    const ctor = v.childForFieldName("constructor")?.text ?? "";
    if (PAHO_MESSAGE.test(ctor)) out.set(name.text, "message");
    else if (PAHO_CLIENT.test(ctor)) out.set(name.text, "client");
  });
  return out;
}

/** Adds the Paho MQTT ports of one file. */
export function pahoPorts(
  root: Node,
  path: string,
  grammar: GrammarName,
  ports: ExtractedPort[],
): void {
  if (!/\b(?:Paho|Messaging)\b/.test(root.text)) return;
  const names = pahoNames(root);
  if (names.size === 0) return;
  const emit = queueEmitter(
    ports,
    path,
    grammar,
    (topic) => "parts" in topic ? topic : valueOf(topic),
  );
  walk(root, (node) => {
    if (node.type === "assignment_expression") {
      const left = node.childForFieldName("left");
      if (
        left?.type === "member_expression" &&
        left.childForFieldName("property")?.text === "destinationName" &&
        names.get(left.childForFieldName("object")?.text ?? "") === "message"
      ) {
        const right = node.childForFieldName("right") ?? undefined;
        emit(node, "client", right, "mqtt", "paho-mqtt", "destinationName");
      }
    } else if (node.type === "call_expression") {
      const fn = node.childForFieldName("function");
      if (
        fn?.type !== "member_expression" ||
        fn.childForFieldName("property")?.text !== "subscribe" ||
        names.get(fn.childForFieldName("object")?.text ?? "") !== "client"
      ) return;
      const topic = node.childForFieldName("arguments")?.namedChild(0) ??
        undefined;
      emit(node, "server", topic, "mqtt", "paho-mqtt", "subscribe");
    }
  });
}
