/**
 * A graph model of language-agnostic interface boundaries: HTTP routes,
 * queue topics, gRPC methods and Temporal activities. Extractors turn
 * source code into {@linkcode BoundaryRef}s; {@linkcode addBoundary} puts
 * them in a {@linkcode BoundaryGraph}; graphs from several languages are
 * merged and {@linkcode linkGraph} joins each consumer to its providers.
 * Ids, keys and the JSON format are those of graphlens (schema version 1),
 * so graphs move between the two tools. No `node:` module is used: this
 * entry point runs in browsers too.
 *
 * @example
 * ```ts
 * import {
 *   addBoundary,
 *   BoundaryGraph,
 *   httpBoundaryKey,
 *   linkGraph,
 * } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const key = httpBoundaryKey("get", "/users/:id");
 * assert.equal(key, "GET /users/{}");
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "ui", kind: "function", qualifiedName: "web::load", name: "load" });
 * graph.addNode({ id: "api", kind: "function", qualifiedName: "api::get_user", name: "get_user" });
 * addBoundary(graph, "api", { mechanism: "http", role: "server", key, line: 1, col: 1, confidence: 1, detail: {} });
 * addBoundary(graph, "ui", { mechanism: "http", role: "client", key, line: 1, col: 1, confidence: 1, detail: {} });
 * assert.equal(linkGraph(graph).relationsAdded, 1);
 * ```
 *
 * @module
 */
export {
  type BoundaryRef,
  type BoundaryRefInput,
  type BoundaryRefParseResult,
  BoundaryRefSchema,
  type BoundaryRefSchemaType,
  type BoundaryRole,
  type Mechanism,
  parseBoundaryRef,
} from "./types.ts";
export {
  BoundaryValidationError,
  type BoundaryValidationErrorOptions,
  DuplicateNodeError,
  type ValidationIssue,
} from "./errors.ts";
export { makeBoundaryId } from "./id.ts";
export { httpBoundaryKey, normalizeHttpPath } from "./http_path.ts";
export {
  NODE_KINDS,
  type NodeKind,
  RELATION_KINDS,
  type RelationKind,
} from "./graph_kinds.ts";
export {
  BoundaryGraph,
  type BoundaryGraphOptions,
  type GraphDocument,
  type GraphMetadata,
  type GraphNode,
  type GraphNodeInit,
  type GraphRelation,
  type GraphRelationInit,
  type JsonValue,
  type MergeOptions,
  type MergeResult,
  type NodeDocument,
  type NodeSpan,
  type RelationDocument,
} from "./graph.ts";
export { addBoundary, type PortLocation } from "./add_boundary.ts";
export {
  confidenceOf,
  type LinkCut,
  linkGraph,
  type LinkOptions,
  type LinkResult,
} from "./link.ts";
export {
  type BoundaryPort,
  type Communication,
  communications,
  consumersOf,
  providersOf,
  unconsumedProviders,
  unmatchedConsumers,
} from "./queries.ts";
export { type PortRecord, portRecords, serviceOf } from "./port_records.ts";
export {
  type BoundaryDiff,
  diffGraphs,
  type DiffGraphsOptions,
  type DiffInput,
  type DiffOptions,
  diffPorts,
  diffScope,
  type NamedGraph,
  type ProviderChange,
  type ProviderChangeKind,
} from "./diff.ts";
