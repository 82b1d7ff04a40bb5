// The metadata a port relation (`exposes` / `consumes`) carries about the
// port itself, as `addBoundary` writes it and port records read it back.
import type { GraphNode, JsonValue } from "./graph.ts";

/** Relation metadata keys that `detail` entries cannot overwrite. */
export const RESERVED_METADATA: ReadonlySet<string> = new Set([
  "mechanism",
  "key",
  "confidence",
  "role",
  "line",
  "col",
  "file_path",
]);

/** Where a port stands in its file. */
export interface PortPlace {
  filePath?: string;
  line?: number;
  col?: number;
}

/**
 * Where the port of a relation stands: its `file_path` metadata (else the
 * file of its owner), `line` and `col`, each when known.
 */
export function portPlace(
  metadata: Readonly<Record<string, JsonValue>>,
  owner: GraphNode | undefined,
): PortPlace {
  const place: PortPlace = {};
  const filePath = metadata["file_path"] ?? owner?.filePath;
  if (typeof filePath === "string") place.filePath = filePath;
  const line = metadata["line"];
  if (typeof line === "number") place.line = line;
  const col = metadata["col"];
  if (typeof col === "number") place.col = col;
  return place;
}
