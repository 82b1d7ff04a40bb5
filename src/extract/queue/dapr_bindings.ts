// Dapr input bindings: a `kind: Component` of a broker binding type
// (`bindings.mqtt`, `bindings.kafka`, `bindings.rabbitmq`...) delivers the
// messages of its topic or queue to the app, so the component is the
// consumer (a server port of that topic).
import { isMap, isScalar, isSeq } from "yaml";
import type { ExtractedPort } from "../types.ts";
import { daprDocuments, daprTopicPort } from "./dapr_documents.ts";

/** The metadata entry naming the topic(s) of each binding type. */
const TOPIC_FIELDS: Readonly<Record<string, string>> = {
  "bindings.mqtt": "topic",
  "bindings.mqtt3": "topic",
  "bindings.kafka": "topics",
  "bindings.rabbitmq": "queueName",
  "bindings.azure.servicebusqueues": "queueName",
  "bindings.azure.storagequeues": "queue",
  "bindings.aws.sqs": "queueName",
  "bindings.gcp.pubsub": "topic",
  "bindings.redis": "key",
};

/** Finds the Dapr binding components of one YAML file. */
export function daprBindingPorts(
  path: string,
  text: string,
  ports: ExtractedPort[],
): void {
  if (!text.includes("bindings.") || !text.includes("dapr.io")) return;
  for (const doc of daprDocuments(path, text, "Component")) {
    const type: unknown = doc.spec.get("type");
    const field = typeof type === "string" ? TOPIC_FIELDS[type] : undefined;
    const metadata = doc.spec.get("metadata", true);
    if (field === undefined || !isSeq(metadata)) continue;
    const meta = doc.root.get("metadata", true);
    const name: unknown = isMap(meta) ? meta.get("name") : undefined;
    for (const entry of metadata.items) {
      if (!isMap(entry)) continue;
      const entryName: unknown = entry.get("name");
      if (entryName !== field) continue;
      const value = entry.get("value", true);
      if (!isScalar(value) || typeof value.value !== "string") continue;
      for (const topic of value.value.split(",")) {
        const key = topic.trim();
        if (key === "" || key.includes("{")) continue;
        ports.push(daprTopicPort(doc, key, value, {
          system: String(type).slice("bindings.".length),
          library: "dapr-binding",
          operation: "Component",
          component: typeof name === "string" ? name : "",
        }));
      }
    }
  }
}
