// Writes the links a scan pass finds between port records (the passes that
// look beyond a boundary's own key: route templates, gateways): one
// `communicates_with` relation per consumer, provider and pair of
// boundaries, with the consumer's and the provider's boundary in its
// metadata, within the links budget of each consumer boundary.
import type { BoundaryGraph, GraphMetadata } from "../boundary/graph.ts";
import type { LinkCut, LinkOptions, LinkResult } from "../boundary/link.ts";
import type { PortRecord } from "../boundary/port_records.ts";
import { confidenceOf } from "../boundary/_link_pairs.ts";

/** Links port records, skipping pairs already linked in the graph. */
export class PortLinker {
  #graph: BoundaryGraph;
  #options: LinkOptions;
  #budget: number;
  #existing = new Set<string>();
  #added = new Map<string, number>();
  #cuts = new Map<string, LinkCut>();
  #total = 0;

  constructor(graph: BoundaryGraph, options: LinkOptions) {
    this.#graph = graph;
    this.#options = options;
    this.#budget = options.maxLinksPerBoundary ?? 1000;
    for (const relation of graph.relationsByKind("communicates_with")) {
      const metadata = relation.metadata;
      this.#existing.add(
        `${relation.sourceId}\u0000${relation.targetId}\u0000${
          String(metadata["boundary_id"])
        }\u0000${
          String(metadata["provider_boundary_id"] ?? metadata["boundary_id"])
        }`,
      );
    }
  }

  /**
   * Links each consumer (all of one boundary) to each provider: never a
   * node to itself, never a pair below `minConfidence` or refused by
   * `accept`; `extra` goes into the metadata (e.g. `via`).
   */
  link(
    consumers: readonly PortRecord[],
    providers: readonly PortRecord[],
    extra: GraphMetadata = {},
  ): void {
    const minConfidence = this.#options.minConfidence ?? 0;
    const accept = this.#options.accept;
    for (const consumer of consumers) {
      const boundaryId = consumer.boundaryId;
      for (const provider of providers) {
        if (provider.ownerId === consumer.ownerId) continue;
        if (accept && !accept(consumer.ownerId, provider.ownerId, boundaryId)) {
          continue;
        }
        const confidence = confidenceOf(consumer.confidence) *
          confidenceOf(provider.confidence);
        if (confidence < minConfidence) continue;
        const unique =
          `${consumer.ownerId}\u0000${provider.ownerId}\u0000${boundaryId}\u0000${provider.boundaryId}`;
        if (this.#existing.has(unique)) continue;
        const added = this.#added.get(boundaryId) ?? 0;
        if (added >= this.#budget) {
          if (!this.#cuts.has(boundaryId)) {
            this.#cuts.set(boundaryId, {
              boundaryId,
              mechanism: "http",
              key: consumer.key,
              consumers: consumers.length,
              providers: providers.length,
              linksAdded: 0,
            });
          }
          continue;
        }
        this.#existing.add(unique);
        this.#graph.addRelation({
          sourceId: consumer.ownerId,
          targetId: provider.ownerId,
          kind: "communicates_with",
          metadata: {
            mechanism: consumer.mechanism,
            "boundary_id": boundaryId,
            "boundary_key": consumer.key,
            "provider_boundary_id": provider.boundaryId,
            "provider_boundary_key": provider.key,
            ...extra,
            confidence,
          },
        });
        this.#added.set(boundaryId, added + 1);
        this.#total++;
      }
    }
  }

  /** What the links written so far add up to. */
  result(): LinkResult {
    const cuts: LinkCut[] = [];
    for (const [boundaryId, cut] of this.#cuts) {
      cuts.push({ ...cut, linksAdded: this.#added.get(boundaryId) ?? 0 });
    }
    return {
      relationsAdded: this.#total,
      boundariesTotal: 0,
      boundariesLinked: this.#added.size,
      cuts,
    };
  }
}
