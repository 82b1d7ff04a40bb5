import {
  type BoundaryGraph,
  graphInternals,
  type GraphRelation,
  type JsonValue,
} from "./graph.ts";

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
}

/**
 * What one {@linkcode linkGraph} pass did.
 *
 * @example
 * ```ts
 * import type { LinkResult } from "@portcullis/portcullis/boundary";
 *
 * const result: LinkResult = { relationsAdded: 4, boundariesTotal: 2, boundariesLinked: 1 };
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
}

/**
 * Reads the `confidence` of a relation's or port's metadata: a finite
 * number is returned as it is; a missing or non-numeric value counts as 1
 * (certain), as the linker counts it.
 *
 * @param value The `confidence` metadata value.
 * @returns The confidence, a number.
 *
 * @example
 * ```ts
 * import { confidenceOf } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * assert.equal(confidenceOf(0.6), 0.6);
 * assert.equal(confidenceOf(undefined), 1);
 * assert.equal(confidenceOf("high"), 1);
 * ```
 */
export function confidenceOf(value: JsonValue | undefined): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 1;
}

function text(value: JsonValue | undefined): string {
  return typeof value === "string" ? value : "";
}

// Up to this many earlier links of one boundary are scanned, not indexed.
const SCAN_LIMIT = 16;

function isLinked(
  links: readonly GraphRelation[],
  sourceId: string,
  targetId: string,
): boolean {
  for (let i = 0; i < links.length; i++) {
    const link = links[i]!;
    if (link.sourceId === sourceId && link.targetId === targetId) return true;
  }
  return false;
}

// Reused between boundaries: distinct consumers and providers with their
// best confidence, in first-seen order (maps), then flattened to arrays so
// the pair loop allocates nothing but the links.
const consumers = new Map<string, number>();
const providers = new Map<string, number>();
const consumerIds: string[] = [];
const consumerConfidences: number[] = [];
const providerIds: string[] = [];
const providerConfidences: number[] = [];

function flatten(
  from: Map<string, number>,
  ids: string[],
  confidences: number[],
): void {
  ids.length = 0;
  confidences.length = 0;
  for (const [id, confidence] of from) {
    ids.push(id);
    confidences.push(confidence);
  }
}

function collect(
  relation: GraphRelation,
  into: Map<string, number>,
): void {
  const confidence = confidenceOf(relation.metadata["confidence"]);
  const previous = into.get(relation.sourceId);
  if (previous === undefined || confidence > previous) {
    into.set(relation.sourceId, confidence);
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
 * skipped. The pass is idempotent: a link for the same (consumer, provider,
 * boundary) is never added twice. It mutates the graph in place. Cost is
 * O(relations + links): one look at the incoming relations of each
 * boundary and at the existing `communicates_with` relations.
 *
 * @param graph The graph to link.
 * @param options The confidence threshold.
 * @returns Counts of what was done.
 * @throws {RangeError} If `minConfidence` is not a number from 0 to 1.
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
 * assert.deepEqual(result, { relationsAdded: 1, boundariesTotal: 1, boundariesLinked: 1 });
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
  // Existing links, grouped by boundary id; pair keys are built lazily,
  // only for boundaries that already have links.
  const existing = new Map<string, GraphRelation[]>();
  for (const relation of graph.relationsByKind("communicates_with")) {
    const boundaryId = relation.metadata["boundary_id"];
    if (typeof boundaryId !== "string") continue;
    const list = existing.get(boundaryId);
    if (list === undefined) existing.set(boundaryId, [relation]);
    else list.push(relation);
  }

  const boundaries = graph.nodesByKind("boundary");
  let added = 0;
  let linked = 0;
  for (const boundary of boundaries) {
    consumers.clear();
    providers.clear();
    const incoming = graphInternals.incoming(graph, boundary.id);
    for (let i = 0; i < incoming.length; i++) {
      const relation = incoming[i]!;
      if (relation.kind === "consumes") collect(relation, consumers);
      else if (relation.kind === "exposes") collect(relation, providers);
    }
    if (consumers.size === 0 || providers.size === 0) continue;

    const previous = existing.get(boundary.id);
    // Few earlier links: scan them; many: index them by pair.
    let done: Set<string> | undefined;
    if (previous !== undefined && previous.length > SCAN_LIMIT) {
      done = new Set();
      for (const relation of previous) {
        done.add(relation.sourceId + "\u0000" + relation.targetId);
      }
    }
    const mechanism = text(boundary.metadata["mechanism"]);
    const key = text(boundary.metadata["key"]);
    let hasLink = false;
    flatten(consumers, consumerIds, consumerConfidences);
    flatten(providers, providerIds, providerConfidences);
    for (let c = 0; c < consumerIds.length; c++) {
      const consumerId = consumerIds[c]!;
      const consumerConfidence = consumerConfidences[c]!;
      for (let p = 0; p < providerIds.length; p++) {
        const providerId = providerIds[p]!;
        if (consumerId === providerId) continue;
        const confidence = consumerConfidence * providerConfidences[p]!;
        if (confidence < minConfidence) continue;
        hasLink = true;
        if (previous !== undefined) {
          if (done !== undefined) {
            if (done.has(consumerId + "\u0000" + providerId)) continue;
          } else if (isLinked(previous, consumerId, providerId)) continue;
        }
        graphInternals.insertRelation(graph, {
          sourceId: consumerId,
          targetId: providerId,
          kind: "communicates_with",
          metadata: {
            mechanism,
            "boundary_id": boundary.id,
            "boundary_key": key,
            confidence,
          },
        });
        added++;
      }
    }
    if (hasLink) linked++;
  }
  consumers.clear();
  providers.clear();
  consumerIds.length = 0;
  providerIds.length = 0;
  return {
    relationsAdded: added,
    boundariesTotal: boundaries.length,
    boundariesLinked: linked,
  };
}
