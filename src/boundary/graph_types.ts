// The shapes of a boundary graph: nodes, relations, metadata, options and
// the graphlens JSON document (schema version 1).
import type { NodeKind, RelationKind } from "./graph_kinds.ts";

/**
 * A JSON value: what node, relation and graph metadata may hold.
 *
 * @example
 * ```ts
 * import type { JsonValue } from "@portcullis/portcullis/boundary";
 *
 * const value: JsonValue = { tags: ["a", "b"], weight: 0.5, ok: true, none: null };
 * ```
 */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

/**
 * Free-form metadata of a node, a relation or a graph.
 *
 * @example
 * ```ts
 * import type { GraphMetadata } from "@portcullis/portcullis/boundary";
 *
 * const metadata: GraphMetadata = { mechanism: "http", key: "GET /users/{}" };
 * ```
 */
export type GraphMetadata = { [key: string]: JsonValue };

/**
 * Where a node is defined: graphlens's `Span`, all four values 1-based.
 * In JSON it is the list `[start_line, start_col, end_line, end_col]`.
 * The field names match `SourceSpan` of the extract entry point, so an
 * extractor's owner span can be passed as is.
 *
 * @example
 * ```ts
 * import type { NodeSpan } from "@portcullis/portcullis/boundary";
 *
 * const span: NodeSpan = { startLine: 3, startCol: 1, endLine: 9, endCol: 2 };
 * ```
 */
export interface NodeSpan {
  /** 1-based first line. */
  readonly startLine: number;
  /** 1-based first column. */
  readonly startCol: number;
  /** 1-based last line. */
  readonly endLine: number;
  /** 1-based end column. */
  readonly endCol: number;
}

/**
 * A node of a {@linkcode BoundaryGraph}: a code element (function, method,
 * class, module, file...) or a boundary.
 *
 * @example
 * ```ts
 * import type { GraphNode } from "@portcullis/portcullis/boundary";
 *
 * const node: GraphNode = {
 *   id: "a1b2c3d4e5f60718",
 *   kind: "function",
 *   qualifiedName: "app/users.py::get_user",
 *   name: "get_user",
 *   filePath: "app/users.py",
 *   span: { startLine: 10, startCol: 1, endLine: 14, endCol: 20 },
 *   metadata: {},
 * };
 * ```
 */
export interface GraphNode {
  /** Unique within the graph. */
  readonly id: string;
  /** What the node stands for. */
  readonly kind: NodeKind;
  /** Unique, human-readable name, e.g. `src/api.ts::loadUser`. */
  readonly qualifiedName: string;
  /** Short name, e.g. `loadUser`. */
  readonly name: string;
  /** File of the element, relative to its project root; none for boundaries. */
  readonly filePath?: string;
  /** Where the element is defined; none for boundaries. */
  readonly span?: NodeSpan;
  /** Free-form facts; a boundary's is exactly `{ mechanism, key }`. */
  readonly metadata: Readonly<GraphMetadata>;
}

/**
 * What {@linkcode BoundaryGraph.addNode} accepts: a {@linkcode GraphNode}
 * whose `metadata` may be left out.
 *
 * @example
 * ```ts
 * import type { GraphNodeInit } from "@portcullis/portcullis/boundary";
 *
 * const init: GraphNodeInit = {
 *   id: "n1",
 *   kind: "module",
 *   qualifiedName: "src/api.ts",
 *   name: "api.ts",
 * };
 * ```
 */
export interface GraphNodeInit {
  /** Unique within the graph; a non-empty string. */
  id: string;
  /** What the node stands for. */
  kind: NodeKind;
  /** Unique, human-readable name. */
  qualifiedName: string;
  /** Short name. */
  name: string;
  /**
   * File of the element.
   * @default {undefined}
   */
  filePath?: string | undefined;
  /**
   * Where the element is defined.
   * @default {undefined}
   */
  span?: NodeSpan | undefined;
  /**
   * Free-form facts.
   * @default {{}}
   */
  metadata?: Readonly<GraphMetadata> | undefined;
}

/**
 * A directed relation between two nodes, referenced by id.
 *
 * @example
 * ```ts
 * import type { GraphRelation } from "@portcullis/portcullis/boundary";
 *
 * const relation: GraphRelation = {
 *   sourceId: "caller",
 *   targetId: "callee",
 *   kind: "calls",
 *   metadata: {},
 * };
 * ```
 */
export interface GraphRelation {
  /** Id of the source node. */
  readonly sourceId: string;
  /** Id of the target node. */
  readonly targetId: string;
  /** What the relation means. */
  readonly kind: RelationKind;
  /** Free-form facts. */
  readonly metadata: Readonly<GraphMetadata>;
}

/**
 * What {@linkcode BoundaryGraph.addRelation} accepts: a
 * {@linkcode GraphRelation} whose `metadata` may be left out.
 *
 * @example
 * ```ts
 * import type { GraphRelationInit } from "@portcullis/portcullis/boundary";
 *
 * const init: GraphRelationInit = { sourceId: "a", targetId: "b", kind: "calls" };
 * ```
 */
export interface GraphRelationInit {
  /** Id of the source node. */
  sourceId: string;
  /** Id of the target node. */
  targetId: string;
  /** What the relation means. */
  kind: RelationKind;
  /**
   * Free-form facts.
   * @default {{}}
   */
  metadata?: Readonly<GraphMetadata> | undefined;
}

/**
 * Options for {@linkcode BoundaryGraph.merge}.
 *
 * @example
 * ```ts
 * import type { MergeOptions } from "@portcullis/portcullis/boundary";
 *
 * const options: MergeOptions = { allowShared: true };
 * ```
 */
export interface MergeOptions {
  /**
   * Let identical nodes (same id, kind, names, file, span and metadata)
   * collapse into one, as boundary nodes of graphs from different
   * languages do. Two different nodes with one id still throw.
   * @default {false}
   */
  allowShared?: boolean;
}

/**
 * What {@linkcode BoundaryGraph.merge} added.
 *
 * @example
 * ```ts
 * import type { MergeResult } from "@portcullis/portcullis/boundary";
 *
 * const result: MergeResult = { nodesAdded: 3, relationsAdded: 2 };
 * ```
 */
export interface MergeResult {
  /** Nodes that were not in the graph before. */
  nodesAdded: number;
  /** Relations that were not in the graph before. */
  relationsAdded: number;
}

/**
 * Options for the {@linkcode BoundaryGraph} constructor.
 *
 * @example
 * ```ts
 * import { BoundaryGraph, type BoundaryGraphOptions } from "@portcullis/portcullis/boundary";
 *
 * const options: BoundaryGraphOptions = { metadata: { project: "shop" } };
 * const graph = new BoundaryGraph(options);
 * ```
 */
export interface BoundaryGraphOptions {
  /**
   * Graph-level metadata (copied).
   * @default {{}}
   */
  metadata?: Readonly<GraphMetadata>;
}

/**
 * A node as graphlens writes it in JSON (schema version 1).
 *
 * @example
 * ```ts
 * import type { NodeDocument } from "@portcullis/portcullis/boundary";
 *
 * const node: NodeDocument = {
 *   id: "n1",
 *   kind: "function",
 *   qualified_name: "app.main",
 *   name: "main",
 *   file_path: "app.py",
 *   span: [1, 1, 3, 10],
 *   metadata: {},
 * };
 * ```
 */
export interface NodeDocument {
  /** Unique within the graph. */
  id: string;
  /** One of {@linkcode NODE_KINDS}. */
  kind: NodeKind;
  /** Unique, human-readable name. */
  "qualified_name": string;
  /** Short name. */
  name: string;
  /** File of the element, or null. */
  "file_path": string | null;
  /** `[start_line, start_col, end_line, end_col]`, or null. */
  span: [number, number, number, number] | null;
  /** Free-form facts. */
  metadata: GraphMetadata;
}

/**
 * A relation as graphlens writes it in JSON (schema version 1).
 *
 * @example
 * ```ts
 * import type { RelationDocument } from "@portcullis/portcullis/boundary";
 *
 * const relation: RelationDocument = {
 *   source_id: "a",
 *   target_id: "b",
 *   kind: "calls",
 *   metadata: {},
 * };
 * ```
 */
export interface RelationDocument {
  /** Id of the source node. */
  "source_id": string;
  /** Id of the target node. */
  "target_id": string;
  /** One of {@linkcode RELATION_KINDS}. */
  kind: RelationKind;
  /** Free-form facts. */
  metadata: GraphMetadata;
}

/**
 * A whole graph as graphlens writes it in JSON (schema version 1).
 *
 * @example
 * ```ts
 * import type { GraphDocument } from "@portcullis/portcullis/boundary";
 *
 * const document: GraphDocument = {
 *   schema_version: 1,
 *   metadata: {},
 *   nodes: [],
 *   relations: [],
 * };
 * ```
 */
export interface GraphDocument {
  /** Always 1. */
  "schema_version": 1;
  /** Graph-level metadata. */
  metadata: GraphMetadata;
  /** Nodes in insertion order. */
  nodes: NodeDocument[];
  /** Relations in insertion order. */
  relations: RelationDocument[];
}
