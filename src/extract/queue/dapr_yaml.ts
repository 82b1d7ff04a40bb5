// Dapr declarative subscriptions: YAML documents of `kind: Subscription`
// (dapr.io/v1alpha1 and v2alpha1) subscribe an app to a topic.
import { isMap, isScalar, LineCounter } from "yaml";
import { yamlRoots } from "../_syntax/yaml.ts";
import type { ExtractedPort } from "../types.ts";
import type { ExtractDiagnostic } from "../extractor.ts";
import { moduleOwner } from "../_syntax/owner.ts";

/** Finds Dapr `Subscription` documents in one YAML file. */
export function daprSubscriptionPorts(
  path: string,
  text: string,
  ports: ExtractedPort[],
  diagnostics: ExtractDiagnostic[],
): void {
  if (!text.includes("Subscription") || !text.includes("dapr.io")) return;
  const lines = new LineCounter();
  for (const root of yamlRoots(path, text, diagnostics, lines)) {
    if (!isMap(root)) continue;
    const apiVersion: unknown = root.get("apiVersion");
    const kind: unknown = root.get("kind");
    if (
      kind !== "Subscription" || typeof apiVersion !== "string" ||
      !apiVersion.startsWith("dapr.io/")
    ) continue;
    const spec = root.get("spec", true);
    if (!isMap(spec)) continue;
    const topicNode = spec.get("topic", true);
    if (!isScalar(topicNode) || typeof topicNode.value !== "string") continue;
    const topic = topicNode.value.trim();
    if (topic === "") continue;
    const offset = topicNode.range?.[0] ?? 0;
    const { line, col } = lines.linePos(offset);
    const pubsub: unknown = spec.get("pubsubname");
    ports.push({
      ref: {
        mechanism: "queue",
        role: "server",
        key: topic,
        line,
        col,
        confidence: 1,
        detail: {
          topic,
          system: "dapr",
          library: "dapr-subscription",
          operation: "Subscription",
          pubsub: typeof pubsub === "string" ? pubsub : "",
        },
      },
      owner: moduleOwner(path),
      filePath: path,
    });
  }
}
