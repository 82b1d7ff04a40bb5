// The Dapr documents of a YAML file (`apiVersion: dapr.io/...`) the queue
// extractor reads, declarative subscriptions and binding components, and
// the consumer port of each topic they name.
import type { Scalar, YAMLMap } from "yaml";
import { isMap, LineCounter } from "yaml";
import { yamlRoots } from "../_syntax/yaml.ts";
import { moduleOwner } from "../_syntax/owner.ts";
import type { ExtractDiagnostic } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";

/** One Dapr document of a YAML file. */
export interface DaprDocument {
  /** The file's path. */
  path: string;
  /** The document's top-level map. */
  root: YAMLMap;
  /** Its `spec` map. */
  spec: YAMLMap;
  /** The line positions of the file. */
  lines: LineCounter;
}

/**
 * The Dapr documents of one `kind` in a YAML file, those with a `spec` map
 * (the file's parse errors go to `diagnostics`, when given).
 */
export function daprDocuments(
  path: string,
  text: string,
  kind: string,
  diagnostics?: ExtractDiagnostic[],
): DaprDocument[] {
  const lines = new LineCounter();
  const out: DaprDocument[] = [];
  for (const root of yamlRoots(path, text, diagnostics, lines)) {
    if (!isMap(root) || root.get("kind") !== kind) continue;
    const apiVersion: unknown = root.get("apiVersion");
    if (typeof apiVersion !== "string" || !apiVersion.startsWith("dapr.io/")) {
      continue;
    }
    const spec = root.get("spec", true);
    if (isMap(spec)) out.push({ path, root, spec, lines });
  }
  return out;
}

/** The consumer (`server`) port of a topic a Dapr document names at `at`. */
export function daprTopicPort(
  doc: DaprDocument,
  topic: string,
  at: Scalar,
  detail: Record<string, string>,
): ExtractedPort {
  const { line, col } = doc.lines.linePos(at.range?.[0] ?? 0);
  return {
    ref: {
      mechanism: "queue",
      role: "server",
      key: topic,
      line,
      col,
      confidence: 1,
      detail: { topic, ...detail },
    },
    owner: moduleOwner(doc.path),
    filePath: doc.path,
  };
}
