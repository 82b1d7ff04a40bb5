// Small readers of parsed YAML nodes the deployment readers share.
import { isMap, isScalar, isSeq, type LineCounter, type YAMLMap } from "yaml";

/** A scalar's text (numbers and booleans as written); `undefined` otherwise. */
export function scalar(value: unknown): string | undefined {
  if (isScalar(value)) value = value.value;
  return typeof value === "string"
    ? value
    : typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : undefined;
}

/** A document's `metadata.name` (`""` when it has none). */
export function nameOf(root: unknown): string {
  const metadata = isMap(root) ? root.get("metadata") : undefined;
  return isMap(metadata) ? scalar(metadata.get("name")) ?? "" : "";
}

/** The 1-based line a node starts on (1 when it has no position). */
export function lineOf(node: unknown, lines: LineCounter): number {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return lines.linePos(range?.[0] ?? 0).line;
}

/** The maps listed under a document's `spec.<key>` (none when no list). */
export function specEntries(root: YAMLMap, key: string): YAMLMap[] {
  const spec = root.get("spec");
  const list = isMap(spec) ? spec.get(key) : undefined;
  return isSeq(list) ? list.items.filter((item) => isMap(item)) : [];
}

/**
 * The entries of a route's list of matches; a missing or empty list is one
 * `undefined` entry (the route matches every request).
 */
export function matchesOf(matches: unknown): unknown[] {
  return isSeq(matches) && matches.items.length > 0
    ? matches.items
    : [undefined];
}
