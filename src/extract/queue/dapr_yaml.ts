// Dapr declarative subscriptions: YAML documents of `kind: Subscription`
// (dapr.io/v1alpha1 and v2alpha1) subscribe an app to a topic.
import { isScalar } from "yaml";
import type { ExtractedPort } from "../types.ts";
import type { ExtractDiagnostic } from "../extractor.ts";
import { daprDocuments, daprTopicPort } from "./dapr_documents.ts";

/** Finds Dapr `Subscription` documents in one YAML file. */
export function daprSubscriptionPorts(
  path: string,
  text: string,
  ports: ExtractedPort[],
  diagnostics: ExtractDiagnostic[],
): void {
  if (!text.includes("Subscription") || !text.includes("dapr.io")) return;
  for (const doc of daprDocuments(path, text, "Subscription", diagnostics)) {
    const topicNode = doc.spec.get("topic", true);
    if (!isScalar(topicNode) || typeof topicNode.value !== "string") continue;
    const topic = topicNode.value.trim();
    if (topic === "") continue;
    const pubsub: unknown = doc.spec.get("pubsubname");
    ports.push(daprTopicPort(doc, topic, topicNode, {
      system: "dapr",
      library: "dapr-subscription",
      operation: "Subscription",
      pubsub: typeof pubsub === "string" ? pubsub : "",
    }));
  }
}
