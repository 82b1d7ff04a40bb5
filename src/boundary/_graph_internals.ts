// Fast paths into a BoundaryGraph's indexes for this folder's hot loops
// (the linker). Not re-exported by mod.ts; BoundaryGraph fills them in from
// its static block, where its private fields are in reach.
import type { BoundaryGraph } from "./graph.ts";
import type { NodeKind, RelationKind } from "./graph_kinds.ts";
import type { GraphNode, GraphRelation } from "./graph_types.ts";
import type { Edges, Stride } from "./_edges.ts";

/** What the linker may do to a graph beyond its public methods. */
export interface GraphInternals {
  /** The live incoming list of a node (never mutate it). */
  incoming(graph: BoundaryGraph, id: string): readonly GraphRelation[];
  /**
   * The relations of the boundary node at `index` of
   * `nodesOfKind(graph, "boundary")`, without a lookup by id; its
   * `sources` are set.
   */
  boundaryEdges(graph: BoundaryGraph, index: number): Edges;
  /** The live list of the nodes of one kind (never mutate it). */
  nodesOfKind(graph: BoundaryGraph, kind: NodeKind): readonly GraphNode[];
  /** The live list of the relations of one kind (never mutate it). */
  relationsOfKind(
    graph: BoundaryGraph,
    kind: RelationKind,
  ): readonly GraphRelation[];
  /** The relations record of an id, created if missing. */
  edgesOf(graph: BoundaryGraph, id: string): Edges;
  /** Inserts an already valid relation object as is. */
  insertRelation(graph: BoundaryGraph, relation: GraphRelation): void;
  /** Inserts a relation whose source and target records the caller holds. */
  insertEdge(
    graph: BoundaryGraph,
    relation: GraphRelation,
    source: Edges,
    target: Edges,
  ): void;
  /**
   * Appends a relation to the list of all relations and of its kind only:
   * {@linkcode GraphInternals.extendEdges} must then record it on both
   * ends.
   */
  appendRelation(graph: BoundaryGraph, relation: GraphRelation): void;
  /** Records a stride of appended relations on one end. */
  extendEdges(
    graph: BoundaryGraph,
    edges: Edges,
    direction: "out" | "in",
    relations: readonly GraphRelation[],
    stride: Stride,
  ): void;
}

function unset(): never {
  throw new Error("Cannot use graph internals before BoundaryGraph loads");
}

/** Filled in by BoundaryGraph's static block. */
export const graphInternals: GraphInternals = {
  incoming: unset,
  boundaryEdges: unset,
  nodesOfKind: unset,
  relationsOfKind: unset,
  edgesOf: unset,
  insertRelation: unset,
  insertEdge: unset,
  appendRelation: unset,
  extendEdges: unset,
};
