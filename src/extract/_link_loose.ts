// Links the HTTP calls that exact keys left without any provider to the
// routes that still serve them: a route template whose parameters take the
// call's literal segments (`GET /pay/partner-7` to `GET /pay/{}`), else a
// route of the same path in another case (routers that ignore case).
import type { BoundaryGraph } from "../boundary/graph.ts";
import type { LinkOptions, LinkResult } from "../boundary/link.ts";
import { type PortRecord, portRecords } from "../boundary/port_records.ts";
import { HttpProviders, splitHttpKey } from "../boundary/_path_template.ts";
import { confidenceOf } from "../boundary/_link_pairs.ts";

/**
 * Adds a `communicates_with` relation from each HTTP consumer on a
 * boundary no link starts from to the providers `HttpProviders` finds for
 * it beyond its exact path (never its own owner, never a pair `accept`
 * refuses). Metadata as `linkAnyMethod`'s: the consumer's boundary, the
 * provider's boundary and key. At most `maxLinksPerBoundary` links per
 * consumer boundary; a boundary over it is reported in `cuts`.
 */
export function linkLoosely(
  graph: BoundaryGraph,
  options: LinkOptions,
): LinkResult {
  const result: LinkResult = {
    relationsAdded: 0,
    boundariesTotal: 0,
    boundariesLinked: 0,
    cuts: [],
  };
  const minConfidence = options.minConfidence ?? 0;
  const budget = options.maxLinksPerBoundary ?? 1000;
  const linkedFrom = new Set<string>();
  for (const relation of graph.relationsByKind("communicates_with")) {
    linkedFrom.add(String(relation.metadata["boundary_id"]));
  }
  const ports = portRecords(graph, "");
  const providers = new HttpProviders(ports);
  const consumers = new Map<string, PortRecord[]>();
  for (const port of ports) {
    if (port.role !== "client" || port.mechanism !== "http") continue;
    if (linkedFrom.has(port.boundaryId)) continue;
    const list = consumers.get(port.boundaryId);
    if (list === undefined) consumers.set(port.boundaryId, [port]);
    else list.push(port);
  }
  const made = new Set<string>();
  for (const [boundaryId, side] of consumers) {
    const [method, path] = splitHttpKey(side[0]!.key);
    const reached = providers.serving(method, path).filter((provider) =>
      splitHttpKey(provider.key)[1] !== path
    );
    let added = 0;
    let over = false;
    for (const consumer of side) {
      for (const provider of reached) {
        if (provider.ownerId === consumer.ownerId) continue;
        if (
          options.accept &&
          !options.accept(consumer.ownerId, provider.ownerId, boundaryId)
        ) continue;
        const confidence = confidenceOf(consumer.confidence) *
          confidenceOf(provider.confidence);
        if (confidence < minConfidence) continue;
        const unique =
          `${consumer.ownerId}\u0000${provider.ownerId}\u0000${provider.boundaryId}`;
        if (made.has(unique)) continue;
        if (added >= budget) {
          over = true;
          continue;
        }
        made.add(unique);
        graph.addRelation({
          sourceId: consumer.ownerId,
          targetId: provider.ownerId,
          kind: "communicates_with",
          metadata: {
            mechanism: "http",
            "boundary_id": boundaryId,
            "boundary_key": consumer.key,
            "provider_boundary_id": provider.boundaryId,
            "provider_boundary_key": provider.key,
            confidence,
          },
        });
        added++;
      }
    }
    if (over) {
      result.cuts.push({
        boundaryId,
        mechanism: "http",
        key: side[0]!.key,
        consumers: side.length,
        providers: reached.length,
        linksAdded: added,
      });
    }
    if (added > 0) result.boundariesLinked++;
    result.relationsAdded += added;
  }
  return result;
}
