// Links the consumers of one boundary to its providers: collects both
// sides from the boundary's incoming relations into reused arrays, and
// writes the links. Built for millions of boundaries: nothing is allocated
// per boundary on the common path (a few ports, no earlier links), and the
// links of one boundary with one confidence share one frozen metadata object.
import type { BoundaryGraph, GraphMetadata, GraphRelation } from "./graph.ts";
import type { Edges } from "./_edges.ts";
import { graphInternals } from "./_graph_internals.ts";
import {
  confidenceOf,
  linkPairs,
  type LinkSide,
  type PairOutcome,
  type PairSink,
} from "./_link_pairs.ts";

// Sides up to this size are deduplicated by a scan, larger ones by a map.
const SMALL_SIDE = 16;
// Up to this many earlier links of one boundary are scanned, not indexed.
const SCAN_LIMIT = 16;

/**
 * One side of a boundary: distinct nodes with their best confidence and
 * their relations record.
 */
export class SideBuffer implements LinkSide {
  ids: string[] = [];
  confidences: number[] = [];
  edges: Edges[] = [];
  #index: Map<string, number> | undefined;

  clear(): void {
    this.ids.length = 0;
    this.confidences.length = 0;
    this.edges.length = 0;
    this.#index?.clear();
  }

  add(id: string, confidence: number, edges: Edges): void {
    const ids = this.ids;
    const n = ids.length;
    let at = -1;
    if (n <= SMALL_SIDE) {
      for (let i = 0; i < n; i++) {
        if (ids[i] === id) {
          at = i;
          break;
        }
      }
    } else {
      let index = this.#index;
      if (index === undefined || index.size === 0) {
        index ??= this.#index = new Map();
        for (let i = 0; i < n; i++) index.set(ids[i]!, i);
      }
      at = index.get(id) ?? -1;
      if (at === -1) index.set(id, n);
    }
    if (at === -1) {
      ids.push(id);
      this.confidences.push(confidence);
      this.edges.push(edges);
    } else if (confidence > this.confidences[at]!) {
      this.confidences[at] = confidence;
    }
  }
}

/** Reads the distinct consumers and providers of a boundary. */
export function collect(
  boundary: Edges,
  consumers: SideBuffer,
  providers: SideBuffer,
): void {
  consumers.clear();
  providers.clear();
  const incoming = boundary.in;
  const sources = boundary.sources;
  if (incoming === undefined || sources === undefined) return;
  for (let i = 0; i < incoming.length; i++) {
    const relation = incoming[i]!;
    const kind = relation.kind;
    const side = kind === "consumes"
      ? consumers
      : kind === "exposes"
      ? providers
      : undefined;
    side?.add(
      relation.sourceId,
      confidenceOf(relation.metadata["confidence"]),
      sources[i]!,
    );
  }
}

/** The boundary being linked, as its links name it. */
export interface LinkedBoundary {
  id: string;
  mechanism: string;
  key: string;
}

/** Writes the links of one boundary. */
export class LinkWriter {
  #graph: BoundaryGraph;
  #boundary: LinkedBoundary = { id: "", mechanism: "", key: "" };
  #metadata: GraphMetadata | undefined;
  #confidence = NaN;
  /** The links {@linkcode LinkWriter.linkAll} made on this boundary. */
  #made: GraphRelation[] = [];

  constructor(graph: BoundaryGraph) {
    this.#graph = graph;
  }

  /** Starts the links of another boundary. */
  start(boundary: LinkedBoundary): void {
    this.#boundary = boundary;
    this.#metadata = undefined;
  }

  #relation(
    sourceId: string,
    targetId: string,
    confidence: number,
  ): GraphRelation {
    let metadata = this.#metadata;
    if (metadata === undefined || confidence !== this.#confidence) {
      const boundary = this.#boundary;
      metadata = this.#metadata = Object.freeze({
        mechanism: boundary.mechanism,
        "boundary_id": boundary.id,
        "boundary_key": boundary.key,
        confidence,
      });
      this.#confidence = confidence;
    }
    return { sourceId, targetId, kind: "communicates_with", metadata };
  }

  /** Links the consumer at `ci` to the provider at `pi`. */
  link(
    consumers: SideBuffer,
    ci: number,
    providers: SideBuffer,
    pi: number,
    confidence: number,
  ): void {
    graphInternals.insertEdge(
      this.#graph,
      this.#relation(consumers.ids[ci]!, providers.ids[pi]!, confidence),
      consumers.edges[ci]!,
      providers.edges[pi]!,
    );
  }

  /**
   * Links every consumer to every provider: the links, consumer-major, are
   * appended to the relation lists, then each node's edges are extended
   * once with its own (to an exact size while short).
   */
  linkAll(consumers: SideBuffer, providers: SideBuffer): void {
    const graph = this.#graph;
    const made = this.#made;
    const c = consumers.ids.length;
    const p = providers.ids.length;
    made.length = 0;
    for (let ci = 0; ci < c; ci++) {
      const consumer = consumers.ids[ci]!;
      const confidence = consumers.confidences[ci]!;
      for (let pi = 0; pi < p; pi++) {
        const relation = this.#relation(
          consumer,
          providers.ids[pi]!,
          confidence * providers.confidences[pi]!,
        );
        graphInternals.appendRelation(graph, relation);
        made.push(relation);
      }
    }
    for (let ci = 0; ci < c; ci++) {
      graphInternals.extendEdges(graph, consumers.edges[ci]!, "out", made, {
        from: ci * p,
        to: ci * p + p,
        step: 1,
      });
    }
    for (let pi = 0; pi < p; pi++) {
      graphInternals.extendEdges(graph, providers.edges[pi]!, "in", made, {
        from: pi,
        to: c * p,
        step: p,
      });
    }
  }
}

/**
 * Links every pair of a boundary that has no earlier link, when the pairs
 * fit the budget: nothing is allocated but the links, and when every pair
 * is linked (no self pair, none below `minConfidence`) each node's edge
 * list is extended once, to an exact size.
 */
export function linkEveryPair(
  consumers: SideBuffer,
  providers: SideBuffer,
  minConfidence: number,
  writer: LinkWriter,
  outcome: PairOutcome,
): void {
  const consumerIds = consumers.ids;
  const providerIds = providers.ids;
  const c = consumerIds.length;
  const p = providerIds.length;
  let every = true;
  for (let ci = 0; ci < c && every; ci++) {
    const confidence = consumers.confidences[ci]!;
    for (let pi = 0; pi < p; pi++) {
      if (
        consumerIds[ci] === providerIds[pi] ||
        confidence * providers.confidences[pi]! < minConfidence
      ) {
        every = false;
        break;
      }
    }
  }
  outcome.cut = false;
  if (every) {
    writer.linkAll(consumers, providers);
    outcome.added = c * p;
    outcome.linked = c * p > 0;
    return;
  }
  outcome.added = 0;
  outcome.linked = false;
  for (let ci = 0; ci < c; ci++) {
    const confidence = consumers.confidences[ci]!;
    for (let pi = 0; pi < p; pi++) {
      if (consumerIds[ci] === providerIds[pi]) continue;
      const pair = confidence * providers.confidences[pi]!;
      if (pair < minConfidence) continue;
      outcome.linked = true;
      writer.link(consumers, ci, providers, pi, pair);
      outcome.added++;
    }
  }
}

/** Earlier links of one boundary, scanned when few and indexed when many. */
class EarlierLinks implements PairSink {
  #list: readonly GraphRelation[];
  #index: Set<string> | undefined;
  #consumers: SideBuffer;
  #providers: SideBuffer;
  #writer: LinkWriter;
  #accept: LinkFilter | undefined;
  #boundaryId: string;

  constructor(
    consumers: SideBuffer,
    providers: SideBuffer,
    list: readonly GraphRelation[],
    writer: LinkWriter,
    filter?: { accept: LinkFilter; boundaryId: string },
  ) {
    this.#consumers = consumers;
    this.#providers = providers;
    this.#list = list;
    this.#writer = writer;
    this.#accept = filter?.accept;
    this.#boundaryId = filter?.boundaryId ?? "";
    if (list.length > SCAN_LIMIT) {
      this.#index = new Set();
      for (const relation of list) {
        this.#index.add(relation.sourceId + "\u0000" + relation.targetId);
      }
    }
  }

  has(consumer: number, provider: number): boolean {
    const consumerId = this.#consumers.ids[consumer]!;
    const providerId = this.#providers.ids[provider]!;
    if (this.#index !== undefined) {
      return this.#index.has(consumerId + "\u0000" + providerId);
    }
    const list = this.#list;
    for (let i = 0; i < list.length; i++) {
      const link = list[i]!;
      if (link.sourceId === consumerId && link.targetId === providerId) {
        return true;
      }
    }
    return false;
  }

  refuses(consumer: number, provider: number): boolean {
    const accept = this.#accept;
    return accept !== undefined &&
      !accept(
        this.#consumers.ids[consumer]!,
        this.#providers.ids[provider]!,
        this.#boundaryId,
      );
  }

  add(consumer: number, provider: number, confidence: number): void {
    this.#writer.link(
      this.#consumers,
      consumer,
      this.#providers,
      provider,
      confidence,
    );
  }
}

/**
 * Links a boundary that has earlier links or more pairs than the budget:
 * earlier pairs are skipped, a cut keeps the cover (see `linkPairs`); a
 * pair the filter refuses is never linked.
 */
export function linkAroundEarlier(
  consumers: SideBuffer,
  providers: SideBuffer,
  options: { minConfidence: number; budget: number },
  earlier: readonly GraphRelation[],
  writer: LinkWriter,
  filter?: { accept: LinkFilter; boundaryId: string },
): PairOutcome {
  return linkPairs(
    consumers,
    providers,
    options.minConfidence,
    options.budget,
    new EarlierLinks(consumers, providers, earlier, writer, filter),
  );
}

/**
 * Whether a consumer may be linked to a provider on a boundary (ids of the
 * two nodes and of the boundary).
 */
export type LinkFilter = (
  consumerId: string,
  providerId: string,
  boundaryId: string,
) => boolean;
