import { displayText } from "./_display_text.ts";
import { validateGraphDocument } from "./_graph_document.ts";
import { canonicalKey } from "./_json.ts";
import { DuplicateNodeError } from "./errors.ts";
import {
  type NodeKind,
  type RelationKind,
  relationKindSet,
} from "./graph_kinds.ts";
import { addEdge, type Edges, extended, newEdges } from "./_edges.ts";
import { graphInternals } from "./_graph_internals.ts";
import { checkNode, makeNode, nodesEqual } from "./_graph_nodes.ts";
import type {
  BoundaryGraphOptions,
  GraphDocument,
  GraphMetadata,
  GraphNode,
  GraphNodeInit,
  GraphRelation,
  GraphRelationInit,
  MergeOptions,
  MergeResult,
  NodeDocument,
  RelationDocument,
} from "./graph_types.ts";

export type * from "./graph_types.ts";
export { graphInternals };

const EMPTY: readonly GraphRelation[] = Object.freeze([]);

const NO_NODES: readonly GraphNode[] = Object.freeze([]);

function relationKey(relation: GraphRelation): string {
  return relation.kind + "\u0000" + relation.sourceId + "\u0000" +
    relation.targetId + "\u0000" + canonicalKey(relation.metadata);
}

function listOf<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (list === undefined) map.set(key, list = []);
  return list;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function filterKind(
  list: readonly GraphRelation[] | undefined,
  kind: RelationKind | undefined,
): GraphRelation[] {
  if (list === undefined) return [];
  if (kind === undefined) return list.slice();
  const out: GraphRelation[] = [];
  for (let i = 0; i < list.length; i++) {
    const relation = list[i]!;
    if (relation.kind === kind) out.push(relation);
  }
  return out;
}

/**
 * An in-memory graph of code elements and the boundaries between them, in
 * graphlens's model: nodes keyed by id, directed relations by node id.
 * Relations may point at ids that are not (yet) in the graph, as in
 * graphlens. The edge indexes behind {@linkcode BoundaryGraph.outgoing},
 * {@linkcode BoundaryGraph.incoming}, {@linkcode BoundaryGraph.nodesByKind}
 * and {@linkcode BoundaryGraph.relationsByKind} are kept up to date on every
 * insertion, so queries never rebuild them.
 *
 * @example Building, linking and saving a graph
 * ```ts
 * import {
 *   addBoundary,
 *   BoundaryGraph,
 *   httpBoundaryKey,
 *   linkGraph,
 * } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "client", kind: "function", qualifiedName: "web::load", name: "load" });
 * graph.addNode({ id: "server", kind: "function", qualifiedName: "api::get_user", name: "get_user" });
 * const key = httpBoundaryKey("GET", "/users/{id}");
 * addBoundary(graph, "server", { mechanism: "http", role: "server", key, line: 3, col: 1, confidence: 1, detail: {} });
 * addBoundary(graph, "client", { mechanism: "http", role: "client", key, line: 8, col: 5, confidence: 0.9, detail: {} });
 *
 * linkGraph(graph);
 * assert.deepEqual(graph.outgoing("client", "communicates_with").map((r) => r.targetId), ["server"]);
 *
 * const copy = BoundaryGraph.fromJSON(JSON.stringify(graph));
 * assert.equal(copy.relations.length, graph.relations.length);
 * ```
 */
export class BoundaryGraph {
  /** Graph-level metadata; merged with `Object.assign` semantics. */
  readonly metadata: GraphMetadata;
  #nodes = new Map<string, GraphNode>();
  #relations: GraphRelation[] = [];
  /** Each node id's outgoing and incoming relations, in one map. */
  #edges = new Map<string, Edges>();
  /** The edges of each boundary node, in the order of its kind's list. */
  #boundaryEdges: Edges[] = [];
  #nodesByKind = new Map<NodeKind, GraphNode[]>();
  #relationsByKind = new Map<RelationKind, GraphRelation[]>();

  static {
    graphInternals.incoming = (graph, id) => graph.#edges.get(id)?.in ?? EMPTY;
    graphInternals.boundaryEdges = (graph, index) =>
      graph.#boundaryEdges[index]!;
    graphInternals.nodesOfKind = (graph, kind) =>
      graph.#nodesByKind.get(kind) ?? NO_NODES;
    graphInternals.relationsOfKind = (graph, kind) =>
      graph.#relationsByKind.get(kind) ?? EMPTY;
    graphInternals.edgesOf = (graph, id) => graph.#edgesOf(id);
    graphInternals.insertRelation = (graph, relation) =>
      graph.#insertRelation(relation);
    graphInternals.insertEdge = (graph, relation, source, target) => {
      graph.#appendRelation(relation);
      addEdge(source, target, relation);
    };
    graphInternals.appendRelation = (graph, relation) =>
      graph.#appendRelation(relation);
    graphInternals.extendEdges = (graph, edges, direction, values, stride) => {
      if (direction === "out") {
        edges.out = extended(edges.out, values, stride);
        return;
      }
      edges.in = extended(edges.in, values, stride);
      if (edges.sources !== undefined) {
        const sources: Edges[] = [];
        for (let i = stride.from; i < stride.to; i += stride.step) {
          sources.push(graph.#edgesOf(values[i]!.sourceId));
        }
        edges.sources = extended(edges.sources, sources, {
          from: 0,
          to: sources.length,
          step: 1,
        });
      }
    };
  }

  /**
   * Creates an empty graph.
   *
   * @param options Graph-level metadata.
   */
  constructor(options: BoundaryGraphOptions = {}) {
    this.metadata = { ...(options.metadata ?? {}) };
  }

  /** All nodes by id, in insertion order (read-only view). */
  get nodes(): ReadonlyMap<string, GraphNode> {
    return this.#nodes;
  }

  /** All relations in insertion order (read-only view). */
  get relations(): readonly GraphRelation[] {
    return this.#relations;
  }

  /**
   * Adds a node.
   *
   * @param init The node; `metadata` defaults to `{}`.
   * @returns The stored node.
   * @throws {DuplicateNodeError} If a node with this id exists.
   * @throws {TypeError} If the node is malformed (empty id, unknown kind...).
   */
  addNode(init: GraphNodeInit): GraphNode {
    checkNode(init);
    if (this.#nodes.has(init.id)) {
      throw new DuplicateNodeError("add node", init.id);
    }
    const node = makeNode(init);
    this.#insertNode(node);
    return node;
  }

  /**
   * Returns the node with this id, if any.
   *
   * @param id A node id.
   * @returns The node, or `undefined`.
   */
  getNode(id: string): GraphNode | undefined {
    return this.#nodes.get(id);
  }

  /**
   * Whether a node with this id exists.
   *
   * @param id A node id.
   * @returns `true` if it exists.
   */
  hasNode(id: string): boolean {
    return this.#nodes.has(id);
  }

  /**
   * Adds a relation. Its ends need not be nodes of the graph (yet), as in
   * graphlens; adding the same relation twice stores it twice.
   *
   * @param init The relation; `metadata` defaults to `{}`.
   * @returns The stored relation.
   * @throws {TypeError} If ids are empty or the kind is unknown.
   */
  addRelation(init: GraphRelationInit): GraphRelation {
    if (
      init === null || typeof init !== "object" ||
      typeof init.sourceId !== "string" || init.sourceId === "" ||
      typeof init.targetId !== "string" || init.targetId === ""
    ) {
      throw new TypeError(
        "Cannot add relation: sourceId and targetId must be non-empty strings",
      );
    }
    if (!relationKindSet.has(init.kind)) {
      throw new TypeError(
        `Cannot add relation: unknown relation kind "${init.kind}"`,
      );
    }
    const metadata = init.metadata ?? {};
    if (
      metadata === null || typeof metadata !== "object" ||
      Array.isArray(metadata)
    ) {
      throw new TypeError("Cannot add relation: metadata must be an object");
    }
    const relation: GraphRelation = {
      sourceId: init.sourceId,
      targetId: init.targetId,
      kind: init.kind,
      metadata,
    };
    this.#insertRelation(relation);
    return relation;
  }

  /**
   * Relations whose source is `id`, optionally of one kind, in insertion
   * order. Uses the outgoing index: cost is the node's out-degree.
   *
   * @param id A node id.
   * @param kind Only relations of this kind.
   * @returns A new array.
   */
  outgoing(id: string, kind?: RelationKind): GraphRelation[] {
    return filterKind(this.#edges.get(id)?.out, kind);
  }

  /**
   * Relations whose target is `id`, optionally of one kind, in insertion
   * order. Uses the incoming index: cost is the node's in-degree.
   *
   * @param id A node id.
   * @param kind Only relations of this kind.
   * @returns A new array.
   */
  incoming(id: string, kind?: RelationKind): GraphRelation[] {
    return filterKind(this.#edges.get(id)?.in, kind);
  }

  /**
   * All nodes of one kind, in insertion order.
   *
   * @param kind A node kind.
   * @returns A new array.
   */
  nodesByKind(kind: NodeKind): GraphNode[] {
    return this.#nodesByKind.get(kind)?.slice() ?? [];
  }

  /**
   * All relations of one kind, in insertion order.
   *
   * @param kind A relation kind.
   * @returns A new array.
   */
  relationsByKind(kind: RelationKind): GraphRelation[] {
    return (this.#relationsByKind.get(kind) ?? EMPTY).slice();
  }

  /**
   * Merges another graph into this one: its nodes, its relations (those
   * identical to a relation already here are skipped, so merging twice
   * changes nothing) and its metadata (`Object.assign`). Atomic: if it
   * throws, this graph is unchanged.
   *
   * @param other The graph to merge in (left unchanged).
   * @param options `allowShared` lets identical nodes collapse.
   * @returns How many nodes and relations were added.
   * @throws {DuplicateNodeError} On an id collision, or with `allowShared`
   *   on a collision between two different nodes.
   */
  merge(other: BoundaryGraph, options: MergeOptions = {}): MergeResult {
    if (!(other instanceof BoundaryGraph)) {
      throw new TypeError("Cannot merge graphs: expected a BoundaryGraph");
    }
    const allowShared = options.allowShared === true;
    // Phase 1: decide everything without touching this graph.
    const newNodes: GraphNode[] = [];
    for (const node of other.#nodes.values()) {
      const existing = this.#nodes.get(node.id);
      if (existing === undefined) {
        newNodes.push(node);
        continue;
      }
      if (allowShared && nodesEqual(existing, node)) continue;
      throw new DuplicateNodeError("merge graphs", node.id);
    }
    const newRelations: GraphRelation[] = [];
    // Only a relation whose source already has outgoing relations here can
    // duplicate one; keys are computed for those sources only.
    let seen: Map<string, Set<string>> | undefined;
    const theirs = other.#relations;
    const count = theirs.length;
    for (let i = 0; i < count; i++) {
      const relation = theirs[i]!;
      const mine = this.#edges.get(relation.sourceId)?.out;
      if (mine === undefined) {
        newRelations.push(relation);
        continue;
      }
      seen ??= new Map();
      let keys = seen.get(relation.sourceId);
      if (keys === undefined) {
        keys = new Set();
        for (const own of mine) keys.add(relationKey(own));
        seen.set(relation.sourceId, keys);
      }
      const key = relationKey(relation);
      if (keys.has(key)) continue;
      keys.add(key);
      newRelations.push(relation);
    }
    // Phase 2: apply (cannot fail).
    for (const node of newNodes) this.#insertNode(node);
    for (const relation of newRelations) this.#insertRelation(relation);
    Object.assign(this.metadata, other.metadata);
    return { nodesAdded: newNodes.length, relationsAdded: newRelations.length };
  }

  /**
   * The graph as a graphlens schema-version-1 document (snake_case keys;
   * `file_path` and `span` are `null` when absent). `JSON.stringify(graph)`
   * uses it.
   *
   * @returns A new plain object.
   */
  toJSON(): GraphDocument {
    const nodes: NodeDocument[] = new Array(this.#nodes.size);
    let i = 0;
    for (const node of this.#nodes.values()) {
      const span = node.span;
      nodes[i++] = {
        id: node.id,
        kind: node.kind,
        "qualified_name": node.qualifiedName,
        name: node.name,
        "file_path": node.filePath ?? null,
        span: span === undefined
          ? null
          : [span.startLine, span.startCol, span.endLine, span.endCol],
        metadata: node.metadata as GraphMetadata,
      };
    }
    const relations: RelationDocument[] = new Array(this.#relations.length);
    for (let j = 0; j < this.#relations.length; j++) {
      const relation = this.#relations[j]!;
      relations[j] = {
        "source_id": relation.sourceId,
        "target_id": relation.targetId,
        kind: relation.kind,
        metadata: relation.metadata as GraphMetadata,
      };
    }
    return {
      "schema_version": 1,
      metadata: this.metadata,
      nodes,
      relations,
    };
  }

  /**
   * Reads a graphlens schema-version-1 document, as JSON text or as an
   * already parsed value. The whole document is validated first.
   *
   * @param input JSON text or a parsed document.
   * @returns A new graph.
   * @throws {SyntaxError} If the text is not JSON.
   * @throws {BoundaryValidationError} Naming the JSON path of each
   *   problem (an unsupported `schema_version` alone is reported first and
   *   alone; duplicate node ids are reported too; metadata nested more
   *   than 64 levels deep is a problem). The error keeps the first 100
   *   problems and counts the others.
   */
  static fromJSON(input: string | unknown): BoundaryGraph {
    let data: unknown = input;
    if (typeof input === "string") {
      try {
        data = JSON.parse(input);
      } catch (error) {
        throw new SyntaxError(
          `Cannot load graph: invalid JSON (${
            displayText((error as Error).message, 200)
          })`,
          { cause: error },
        );
      }
    }
    const document = validateGraphDocument(data);

    const graph = new BoundaryGraph({
      metadata: (document.metadata ?? {}) as GraphMetadata,
    });
    for (const node of document.nodes) {
      const span = node.span;
      const built: GraphNodeInit = {
        id: node.id,
        kind: node.kind,
        qualifiedName: node.qualified_name,
        name: node.name,
        metadata: (node.metadata ?? {}) as GraphMetadata,
      };
      if (typeof node.file_path === "string") built.filePath = node.file_path;
      if (span) {
        built.span = {
          startLine: span[0],
          startCol: span[1],
          endLine: span[2],
          endCol: span[3],
        };
      }
      graph.#insertNode(makeNode(built));
    }
    for (const relation of document.relations) {
      graph.#insertRelation({
        sourceId: relation.source_id,
        targetId: relation.target_id,
        kind: relation.kind,
        metadata: (relation.metadata ?? {}) as GraphMetadata,
      });
    }
    return graph;
  }

  #insertNode(node: GraphNode): void {
    this.#nodes.set(node.id, node);
    push(this.#nodesByKind, node.kind, node);
    if (node.kind === "boundary") {
      const edges = this.#edgesOf(node.id);
      // relations may have pointed at the id before the node was added
      const sources: Edges[] = [];
      for (const relation of edges.in ?? EMPTY) {
        sources.push(this.#edgesOf(relation.sourceId));
      }
      edges.sources = sources;
      this.#boundaryEdges.push(edges);
    }
  }

  #edgesOf(id: string): Edges {
    let edges = this.#edges.get(id);
    if (edges === undefined) this.#edges.set(id, edges = newEdges());
    return edges;
  }

  #appendRelation(relation: GraphRelation): void {
    this.#relations.push(relation);
    listOf(this.#relationsByKind, relation.kind).push(relation);
  }

  #insertRelation(relation: GraphRelation): void {
    this.#appendRelation(relation);
    addEdge(
      this.#edgesOf(relation.sourceId),
      this.#edgesOf(relation.targetId),
      relation,
    );
  }
}
