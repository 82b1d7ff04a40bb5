import {
  type BoundaryGraph,
  graphInternals,
  type GraphRelation,
  type JsonValue,
} from "./graph.ts";
import {
  collectSides,
  confidenceOf,
  linkBudget,
  linkPairs,
  type LinkSide,
  type PairSink,
  toLinkSide,
} from "./_link_pairs.ts";

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

// Up to this many earlier links of one boundary are scanned, not indexed.
const SCAN_LIMIT = 16;

/** Earlier links of one boundary, scanned when few and indexed when many. */
class EarlierLinks implements PairSink {
  #list: readonly GraphRelation[] | undefined;
  #index: Set<string> | undefined;
  #graph: BoundaryGraph;
  #consumers: readonly string[];
  #providers: readonly string[];
  #mechanism: string;
  #boundaryId: string;
  #key: string;

  constructor(
    graph: BoundaryGraph,
    sides: { consumers: LinkSide; providers: LinkSide },
    boundary: { id: string; mechanism: string; key: string },
    list: readonly GraphRelation[] | undefined,
  ) {
    this.#graph = graph;
    this.#consumers = sides.consumers.ids;
    this.#providers = sides.providers.ids;
    this.#boundaryId = boundary.id;
    this.#mechanism = boundary.mechanism;
    this.#key = boundary.key;
    this.#list = list;
    if (list !== undefined && list.length > SCAN_LIMIT) {
      this.#index = new Set();
      for (const relation of list) {
        this.#index.add(relation.sourceId + "\u0000" + relation.targetId);
      }
    }
  }

  has(consumer: number, provider: number): boolean {
    const list = this.#list;
    if (list === undefined) return false;
    const consumerId = this.#consumers[consumer]!;
    const providerId = this.#providers[provider]!;
    if (this.#index !== undefined) {
      return this.#index.has(consumerId + "\u0000" + providerId);
    }
    for (let i = 0; i < list.length; i++) {
      const link = list[i]!;
      if (link.sourceId === consumerId && link.targetId === providerId) {
        return true;
      }
    }
    return false;
  }

  add(consumer: number, provider: number, confidence: number): void {
    graphInternals.insertRelation(this.#graph, {
      sourceId: this.#consumers[consumer]!,
      targetId: this.#providers[provider]!,
      kind: "communicates_with",
      metadata: {
        mechanism: this.#mechanism,
        "boundary_id": this.#boundaryId,
        "boundary_key": this.#key,
        confidence,
      },
    });
  }
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
 * boundary and at the existing `communicates_with` relations.
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
  // Existing links, grouped by boundary id.
  const existing = new Map<string, GraphRelation[]>();
  for (const relation of graph.relationsByKind("communicates_with")) {
    const boundaryId = relation.metadata["boundary_id"];
    if (typeof boundaryId !== "string") continue;
    const list = existing.get(boundaryId);
    if (list === undefined) existing.set(boundaryId, [relation]);
    else list.push(relation);
  }

  const boundaries = graph.nodesByKind("boundary");
  const consumers = new Map<string, number>();
  const providers = new Map<string, number>();
  const consumerSide: LinkSide = { ids: [], confidences: [] };
  const providerSide: LinkSide = { ids: [], confidences: [] };
  const cuts: LinkCut[] = [];
  let added = 0;
  let linked = 0;
  for (const boundary of boundaries) {
    collectSides(
      graphInternals.incoming(graph, boundary.id),
      consumers,
      providers,
    );
    if (consumers.size === 0 || providers.size === 0) continue;
    const mechanism = text(boundary.metadata["mechanism"]);
    const key = text(boundary.metadata["key"]);
    toLinkSide(consumers, consumerSide);
    toLinkSide(providers, providerSide);
    const sink = new EarlierLinks(
      graph,
      { consumers: consumerSide, providers: providerSide },
      { id: boundary.id, mechanism, key },
      existing.get(boundary.id),
    );
    const outcome = linkPairs(
      consumerSide,
      providerSide,
      minConfidence,
      budget,
      sink,
    );
    added += outcome.added;
    if (outcome.linked) linked++;
    if (outcome.cut) {
      cuts.push({
        boundaryId: boundary.id,
        mechanism,
        key,
        consumers: consumers.size,
        providers: providers.size,
        linksAdded: outcome.added,
      });
    }
  }
  return {
    relationsAdded: added,
    boundariesTotal: boundaries.length,
    boundariesLinked: linked,
    cuts,
  };
}
