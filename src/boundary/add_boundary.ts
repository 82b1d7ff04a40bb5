import { DuplicateNodeError } from "./errors.ts";
import type { BoundaryGraph, GraphMetadata, GraphNode } from "./graph.ts";
import { makeBoundaryId } from "./id.ts";
import { type BoundaryRef, parseBoundaryRef } from "./types.ts";
import { RESERVED_METADATA } from "./_relation_metadata.ts";

/**
 * Where a port was found. An extractor's `ExtractedPort` fits as is.
 *
 * @example
 * ```ts
 * import type { PortLocation } from "@portcullis/portcullis/boundary";
 *
 * const location: PortLocation = { filePath: "src/api.ts" };
 * ```
 */
export interface PortLocation {
  /**
   * The file of the port, relative to the scan root; written to the
   * relation's `file_path` metadata.
   * @default {undefined}
   */
  filePath?: string | undefined;
}

function isValidRef(ref: BoundaryRef): boolean {
  if (ref === null || typeof ref !== "object") return false;
  const m = ref.mechanism;
  if (m !== "http" && m !== "grpc" && m !== "queue" && m !== "temporal") {
    return false;
  }
  if (ref.role !== "server" && ref.role !== "client") return false;
  if (typeof ref.key !== "string" || ref.key === "") return false;
  if (!Number.isInteger(ref.line) || ref.line < 1) return false;
  if (!Number.isInteger(ref.col) || ref.col < 1) return false;
  const c = ref.confidence;
  if (typeof c !== "number" || !(c >= 0 && c <= 1)) return false;
  const detail = ref.detail;
  if (detail === null || typeof detail !== "object") return false;
  for (const name in detail) {
    if (typeof detail[name] !== "string") return false;
  }
  return true;
}

/**
 * Records one port in a graph, the way graphlens's adapters do, so graphs
 * from both tools line up:
 *
 * - ensures the boundary node: id {@linkcode makeBoundaryId}`(mechanism,
 *   key)`, kind `boundary`, `name` = key, `qualifiedName` =
 *   `<mechanism>:<key>`, no file path, no span, metadata exactly
 *   `{ mechanism, key }`;
 * - adds an `exposes` (server) or `consumes` (client) relation from the
 *   owner to it, with metadata `mechanism`, `key`, `confidence`, `role`,
 *   `line`, `col`, then the `detail` entries, then `file_path` when a
 *   location is given. A `detail` entry never overwrites one of those
 *   fields (graphlens lets it, which can corrupt `confidence`).
 *
 * The owner node must already be in the graph.
 *
 * @param graph The graph to add to.
 * @param ownerId Id of the code element that owns the port.
 * @param ref The port; its key must already be normalized.
 * @param location Where the port was found.
 * @returns The boundary node's id.
 * @throws {BoundaryValidationError} If `ref` is invalid.
 * @throws {RangeError} If the owner node is not in the graph.
 * @throws {DuplicateNodeError} If the boundary id is taken by a different
 *   node.
 *
 * @example Usage
 * ```ts
 * import { addBoundary, BoundaryGraph } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "f1", kind: "function", qualifiedName: "src/api.ts::loadUser", name: "loadUser" });
 * const id = addBoundary(graph, "f1", {
 *   mechanism: "http",
 *   role: "client",
 *   key: "GET /users/{}",
 *   line: 4,
 *   col: 9,
 *   confidence: 1,
 *   detail: { method: "GET", path: "/users/{}" },
 * }, { filePath: "src/api.ts" });
 *
 * assert.equal(graph.getNode(id)?.qualifiedName, "http:GET /users/{}");
 * assert.deepEqual(graph.outgoing("f1", "consumes")[0]?.metadata, {
 *   mechanism: "http",
 *   key: "GET /users/{}",
 *   confidence: 1,
 *   role: "client",
 *   line: 4,
 *   col: 9,
 *   method: "GET",
 *   path: "/users/{}",
 *   file_path: "src/api.ts",
 * });
 * ```
 */
export function addBoundary(
  graph: BoundaryGraph,
  ownerId: string,
  ref: BoundaryRef,
  location?: PortLocation,
): string {
  // A fast check; the full parse only runs to build the error message.
  if (!isValidRef(ref)) parseBoundaryRef(ref);
  if (!graph.hasNode(ownerId)) {
    throw new RangeError(
      `Cannot add boundary: owner node "${ownerId}" is not in the graph`,
    );
  }
  const id = makeBoundaryId(ref.mechanism, ref.key);
  const existing = graph.getNode(id);
  if (existing === undefined) {
    graph.addNode({
      id,
      kind: "boundary",
      qualifiedName: `${ref.mechanism}:${ref.key}`,
      name: ref.key,
      metadata: { mechanism: ref.mechanism, key: ref.key },
    });
  } else if (!isBoundaryNode(existing, ref)) {
    throw new DuplicateNodeError("add boundary", id);
  }
  const metadata: GraphMetadata = {
    mechanism: ref.mechanism,
    key: ref.key,
    confidence: ref.confidence,
    role: ref.role,
    line: ref.line,
    col: ref.col,
  };
  const detail = ref.detail;
  for (const name in detail) {
    if (Object.hasOwn(detail, name) && !RESERVED_METADATA.has(name)) {
      metadata[name] = detail[name]!;
    }
  }
  const filePath = location?.filePath;
  if (typeof filePath === "string") metadata["file_path"] = filePath;
  graph.addRelation({
    sourceId: ownerId,
    targetId: id,
    kind: ref.role === "server" ? "exposes" : "consumes",
    metadata,
  });
  return id;
}

function isBoundaryNode(node: GraphNode, ref: BoundaryRef): boolean {
  if (
    node.kind !== "boundary" || node.name !== ref.key ||
    node.qualifiedName !== `${ref.mechanism}:${ref.key}` ||
    node.filePath !== undefined || node.span !== undefined
  ) return false;
  const metadata = node.metadata;
  let count = 0;
  for (const name in metadata) if (Object.hasOwn(metadata, name)) count++;
  return count === 2 && metadata["mechanism"] === ref.mechanism &&
    metadata["key"] === ref.key;
}
