// Links HTTP ports across methods when one side has no method restriction:
// a route registered for `ANY` serves `GET /x`, `POST /x`...; a call whose
// method could not be known (`ANY`) may reach any route on its path.
import type { BoundaryGraph, GraphNode } from "../boundary/graph.ts";
import { confidenceOf, type LinkResult } from "../boundary/link.ts";

interface Side {
  boundary: GraphNode;
  consumers: Map<string, number>;
  providers: Map<string, number>;
}

/**
 * Adds `communicates_with` relations between HTTP consumers and providers
 * whose keys differ only because one method is `ANY`. The relation's
 * `boundary_id` / `boundary_key` name the consumer's boundary and
 * `provider_boundary_id` / `provider_boundary_key` the provider's. Pairs
 * already linked on the same boundaries are not added again.
 */
export function linkAnyMethod(
  graph: BoundaryGraph,
  minConfidence: number,
): LinkResult {
  // path -> method -> side
  const byPath = new Map<string, Map<string, Side>>();
  let boundariesTotal = 0;
  for (const boundary of graph.nodesByKind("boundary")) {
    boundariesTotal++;
    if (boundary.metadata["mechanism"] !== "http") continue;
    const key = boundary.metadata["key"];
    if (typeof key !== "string") continue;
    const space = key.indexOf(" ");
    if (space === -1) continue;
    const method = key.slice(0, space);
    const path = key.slice(space + 1);
    const side: Side = {
      boundary,
      consumers: new Map(),
      providers: new Map(),
    };
    for (const relation of graph.incoming(boundary.id)) {
      const into = relation.kind === "consumes"
        ? side.consumers
        : relation.kind === "exposes"
        ? side.providers
        : undefined;
      if (!into) continue;
      const confidence = confidenceOf(relation.metadata["confidence"]);
      const previous = into.get(relation.sourceId);
      if (previous === undefined || confidence > previous) {
        into.set(relation.sourceId, confidence);
      }
    }
    let methods = byPath.get(path);
    if (!methods) byPath.set(path, methods = new Map());
    methods.set(method, side);
  }
  const existing = new Set<string>();
  for (const relation of graph.relationsByKind("communicates_with")) {
    const provider = relation.metadata["provider_boundary_id"] ??
      relation.metadata["boundary_id"];
    existing.add(
      `${relation.sourceId}\u0000${relation.targetId}\u0000${String(provider)}`,
    );
  }
  let added = 0;
  const linked = new Set<string>();
  for (const methods of byPath.values()) {
    const any = methods.get("ANY");
    if (!any) continue;
    for (const [method, side] of methods) {
      if (method === "ANY") continue;
      // calls of one method to routes of any method, and the reverse
      for (
        const [consumerSide, providerSide] of [[side, any], [
          any,
          side,
        ]] as const
      ) {
        for (const [consumerId, cc] of consumerSide.consumers) {
          for (const [providerId, pc] of providerSide.providers) {
            if (consumerId === providerId) continue;
            const confidence = cc * pc;
            if (confidence < minConfidence) continue;
            const unique =
              `${consumerId}\u0000${providerId}\u0000${providerSide.boundary.id}`;
            if (existing.has(unique)) continue;
            existing.add(unique);
            graph.addRelation({
              sourceId: consumerId,
              targetId: providerId,
              kind: "communicates_with",
              metadata: {
                mechanism: "http",
                "boundary_id": consumerSide.boundary.id,
                "boundary_key": String(consumerSide.boundary.metadata["key"]),
                "provider_boundary_id": providerSide.boundary.id,
                "provider_boundary_key": String(
                  providerSide.boundary.metadata["key"],
                ),
                confidence,
              },
            });
            added++;
            linked.add(consumerSide.boundary.id);
          }
        }
      }
    }
  }
  return {
    relationsAdded: added,
    boundariesTotal,
    boundariesLinked: linked.size,
  };
}
