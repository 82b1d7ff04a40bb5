import {
  type BoundaryGraph,
  graphInternals,
  type GraphNode,
  type GraphRelation,
  type JsonValue,
} from "./graph.ts";
import { confidenceOf, linkBudget, type PairOutcome } from "./_link_pairs.ts";
import {
  collect,
  linkAroundEarlier,
  linkEveryPair,
  LinkWriter,
  SideBuffer,
} from "./_link_boundary.ts";
import { type LinkState, linkState } from "./_link_state.ts";

export { confidenceOf };

/**
 * Options for {@linkcode linkGraph}.
 *
 * @example
 * ```ts
 * import type { LinkOptions } from "@portcullis/portcullis/boundary";
 *
 * const options: LinkOptions = { minConfidence: 0.5 };
 * ```
 */
export interface LinkOptions {
  /**
   * Skip consumer/provider pairs whose combined confidence is below this;
   * a pair exactly at it is kept. A number from 0 to 1.
   * @default {0}
   */
  minConfidence?: number;
  /**
   * Links made on one boundary when its consumers × providers pairs are
   * more than this: each consumer is then linked to its most confident
   * provider and each provider from its most confident consumer, plus up to
   * this many more pairs tried in order, and the boundary is listed in
   * {@linkcode LinkResult.cuts}. So links stay linear in ports (at most
   * consumers + providers + this per boundary) and every node that could
   * be linked is. An integer from 1.
   * @default {1000}
   */
  maxLinksPerBoundary?: number;
  /**
   * Decides, pair by pair, whether a consumer may be linked to a provider
   * on a boundary (ids of the consumer node, the provider node and the
   * boundary): a pair it refuses is never linked, and does not count
   * towards `boundariesLinked`. For what the keys alone cannot tell, such
   * as the service a call's host names. Every pair is linked when absent.
   */
  accept?: (
    consumerId: string,
    providerId: string,
    boundaryId: string,
  ) => boolean;
}

/**
 * A boundary whose consumer × provider pairs were more than
 * `maxLinksPerBoundary`, so not every pair got a link.
 *
 * @example
 * ```ts
 * import type { LinkCut } from "@portcullis/portcullis/boundary";
 *
 * const cut: LinkCut = {
 *   boundaryId: "3f5a0c1e9b7d2a4c",
 *   mechanism: "http",
 *   key: "GET /x",
 *   consumers: 2000,
 *   providers: 2000,
 *   linksAdded: 4999,
 * };
 * ```
 */
export interface LinkCut {
  /** The boundary node. */
  boundaryId: string;
  /** Its mechanism. */
  mechanism: string;
  /** Its key. */
  key: string;
  /** Distinct consumers. */
  consumers: number;
  /** Distinct providers. */
  providers: number;
  /** Links this pass added on the boundary. */
  linksAdded: number;
}

/**
 * What one {@linkcode linkGraph} pass did.
 *
 * @example
 * ```ts
 * import type { LinkResult } from "@portcullis/portcullis/boundary";
 *
 * const result: LinkResult = { relationsAdded: 4, boundariesTotal: 2, boundariesLinked: 1, cuts: [] };
 * ```
 */
export interface LinkResult {
  /** `communicates_with` relations added by this pass. */
  relationsAdded: number;
  /** Boundary nodes in the graph. */
  boundariesTotal: number;
  /**
   * Boundaries with at least one consumer→provider link that passes
   * `minConfidence` (added now or by an earlier pass), so a second pass
   * reports the same number.
   */
  boundariesLinked: number;
  /** Boundaries over `maxLinksPerBoundary`, in graph order. */
  cuts: LinkCut[];
}

function text(value: JsonValue | undefined): string {
  return typeof value === "string" ? value : "";
}

/**
 * Links found on the boundaries to link again, by boundary id; `undefined`
 * when there are none (a fresh graph), so nothing is indexed.
 */
function earlierLinks(
  graph: BoundaryGraph,
  boundaries: readonly GraphNode[],
  dirty: readonly number[],
): Map<string, GraphRelation[]> | undefined {
  const links = graphInternals.relationsOfKind(graph, "communicates_with");
  if (links.length === 0 || dirty.length === 0) return undefined;
  let wanted: Set<string> | undefined;
  if (dirty.length < boundaries.length) {
    wanted = new Set();
    for (const b of dirty) wanted.add(boundaries[b]!.id);
  }
  const existing = new Map<string, GraphRelation[]>();
  for (let i = 0; i < links.length; i++) {
    const relation = links[i]!;
    const boundaryId = relation.metadata["boundary_id"];
    if (typeof boundaryId !== "string") continue;
    if (wanted !== undefined && !wanted.has(boundaryId)) continue;
    const list = existing.get(boundaryId);
    if (list === undefined) existing.set(boundaryId, [relation]);
    else list.push(relation);
  }
  return existing;
}

/** Boundaries whose incoming relations changed since the state's pass. */
function changed(
  graph: BoundaryGraph,
  boundaries: readonly GraphNode[],
  state: LinkState,
): number[] {
  const dirty: number[] = [];
  const lengths = state.lengths;
  for (let b = 0; b < boundaries.length; b++) {
    if (
      b >= lengths.length ||
      (graphInternals.boundaryEdges(graph, b).in?.length ?? 0) !== lengths[b]
    ) dirty.push(b);
  }
  return dirty;
}

/**
 * Links consumers to providers across every boundary of the graph: for each
 * boundary, each distinct consumer (source of a `consumes` relation) is
 * paired with each distinct provider (source of an `exposes` relation) and
 * a `communicates_with` relation goes from consumer to provider, with
 * metadata `mechanism`, `boundary_id`, `boundary_key` and `confidence` =
 * consumer confidence × provider confidence (a missing or non-numeric
 * confidence counts as 1; a node with several ports on one boundary counts
 * with its best one).
 *
 * A node is never linked to itself. Pairs below `minConfidence` are
 * skipped. A boundary with more pairs than `maxLinksPerBoundary` gets a
 * cover instead of every pair (see {@linkcode LinkOptions}) and is reported
 * in `cuts`. The pass is idempotent: a link for the same (consumer,
 * provider, boundary) is never added twice. It mutates the graph in place.
 * Cost is O(relations + links): one look at the incoming relations of each
 * boundary and at the existing `communicates_with` relations. A later pass
 * with the same options only looks again at the boundaries that gained
 * relations since (a merge, new ports): on an unchanged graph it costs a
 * look at each boundary's incoming count, and links of the others are not
 * indexed at all. The links one boundary gets with one confidence share
 * one frozen metadata object.
 *
 * @param graph The graph to link.
 * @param options The confidence threshold and the budget per boundary.
 * @returns Counts of what was done and the boundaries that were cut.
 * @throws {RangeError} If `minConfidence` is not a number from 0 to 1 or
 *   `maxLinksPerBoundary` is not an integer from 1.
 *
 * @example Usage
 * ```ts
 * import { addBoundary, BoundaryGraph, linkGraph } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * for (const id of ["publisher", "worker"]) {
 *   graph.addNode({ id, kind: "function", qualifiedName: id, name: id });
 * }
 * const port = { mechanism: "queue", key: "orders.created", line: 1, col: 1, detail: {} } as const;
 * addBoundary(graph, "worker", { ...port, role: "server", confidence: 1 });
 * addBoundary(graph, "publisher", { ...port, role: "client", confidence: 0.8 });
 *
 * const result = linkGraph(graph, { minConfidence: 0.5 });
 * assert.deepEqual(result, { relationsAdded: 1, boundariesTotal: 1, boundariesLinked: 1, cuts: [] });
 * assert.equal(graph.outgoing("publisher", "communicates_with")[0]?.metadata.confidence, 0.8);
 * assert.equal(linkGraph(graph).relationsAdded, 0);
 * ```
 */
export function linkGraph(
  graph: BoundaryGraph,
  options: LinkOptions = {},
): LinkResult {
  const minConfidence = options.minConfidence ?? 0;
  if (
    typeof minConfidence !== "number" || !(minConfidence >= 0) ||
    minConfidence > 1
  ) {
    throw new RangeError(
      `Cannot link graph: minConfidence must be a number from 0 to 1, got ${
        String(minConfidence)
      }`,
    );
  }
  const budget = linkBudget(options.maxLinksPerBoundary);
  const boundaries = graphInternals.nodesOfKind(graph, "boundary");
  const state = linkState(graph, minConfidence, budget, options.accept);
  const dirty = changed(graph, boundaries, state);
  const existing = earlierLinks(graph, boundaries, dirty);

  const consumers = new SideBuffer();
  const providers = new SideBuffer();
  const writer = new LinkWriter(graph);
  const outcome: PairOutcome = { added: 0, linked: false, cut: false };
  const added = new Map<number, number>();
  let relationsAdded = 0;
  for (let i = 0; i < dirty.length; i++) {
    const b = dirty[i]!;
    const boundary = boundaries[b]!;
    const edges = graphInternals.boundaryEdges(graph, b);
    state.lengths[b] = edges.in?.length ?? 0;
    state.linked[b] = false;
    state.cuts.delete(b);
    collect(edges, consumers, providers);
    const c = consumers.ids.length;
    const p = providers.ids.length;
    if (c === 0 || p === 0) continue;
    writer.start({
      id: boundary.id,
      mechanism: text(boundary.metadata["mechanism"]),
      key: text(boundary.metadata["key"]),
    });
    const earlier = existing?.get(boundary.id);
    const accept = options.accept;
    const result = earlier === undefined && c * p <= budget &&
        accept === undefined
      ? (linkEveryPair(consumers, providers, minConfidence, writer, outcome),
        outcome)
      : linkAroundEarlier(
        consumers,
        providers,
        { minConfidence, budget },
        earlier ?? [],
        writer,
        accept === undefined ? undefined : { accept, boundaryId: boundary.id },
      );
    relationsAdded += result.added;
    state.linked[b] = result.linked;
    if (result.cut) {
      state.cuts.set(b, { consumers: c, providers: p });
      added.set(b, result.added);
    }
  }

  let linked = 0;
  for (let b = 0; b < boundaries.length; b++) if (state.linked[b]) linked++;
  const cuts: LinkCut[] = [];
  for (const b of [...state.cuts.keys()].sort((x, y) => x - y)) {
    const boundary = boundaries[b]!;
    const sides = state.cuts.get(b)!;
    cuts.push({
      boundaryId: boundary.id,
      mechanism: text(boundary.metadata["mechanism"]),
      key: text(boundary.metadata["key"]),
      consumers: sides.consumers,
      providers: sides.providers,
      linksAdded: added.get(b) ?? 0,
    });
  }
  return {
    relationsAdded,
    boundariesTotal: boundaries.length,
    boundariesLinked: linked,
    cuts,
  };
}
