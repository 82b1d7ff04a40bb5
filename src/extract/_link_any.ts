// Links HTTP ports across methods when one side has no method restriction:
// a route registered for `ANY` serves `GET /x`, `POST /x`...; a call whose
// method could not be known (`ANY`) may reach any route on its path.
import type { BoundaryGraph, GraphNode } from "../boundary/graph.ts";
import type { LinkCut, LinkOptions, LinkResult } from "../boundary/link.ts";
import {
  collectSides,
  linkBudget,
  linkPairs,
  type LinkSide,
} from "../boundary/_link_pairs.ts";

interface Side {
  boundary: GraphNode;
  consumers: Map<string, number>;
  providers: Map<string, number>;
}

/** One side of a path's pairs, spanning one or several boundaries. */
interface Across extends LinkSide {
  boundaries: GraphNode[];
}

function across(
  sides: readonly Side[],
  role: "consumers" | "providers",
): Across {
  const out: Across = { ids: [], confidences: [], boundaries: [] };
  for (const side of sides) {
    for (const [id, confidence] of side[role]) {
      out.ids.push(id);
      out.confidences.push(confidence);
      out.boundaries.push(side.boundary);
    }
  }
  return out;
}

/**
 * Adds `communicates_with` relations between HTTP consumers and providers
 * whose keys differ only because one method is `ANY`. The relation's
 * `boundary_id` / `boundary_key` name the consumer's boundary and
 * `provider_boundary_id` / `provider_boundary_key` the provider's. Pairs
 * already linked on the same boundaries are not added again. The pairs of
 * one path (calls of every method to its `ANY` routes, or its `ANY` calls
 * to routes of every method) are budgeted as one boundary by
 * `maxLinksPerBoundary`; a cut is reported under the `ANY` boundary. A pair
 * `accept` refuses (given the consumer's boundary) is not linked.
 */
export function linkAnyMethod(
  graph: BoundaryGraph,
  options: LinkOptions,
): LinkResult {
  const minConfidence = options.minConfidence ?? 0;
  const budget = linkBudget(options.maxLinksPerBoundary);
  const accept = options.accept;
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
    const side: Side = {
      boundary,
      consumers: new Map(),
      providers: new Map(),
    };
    collectSides(graph.incoming(boundary.id), side.consumers, side.providers);
    const path = key.slice(space + 1);
    let methods = byPath.get(path);
    if (!methods) byPath.set(path, methods = new Map());
    methods.set(key.slice(0, space), side);
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
  const cuts: LinkCut[] = [];
  const link = (consumers: Across, providers: Across, any: Side): void => {
    if (consumers.ids.length === 0 || providers.ids.length === 0) return;
    const unique = (c: number, p: number): string =>
      `${consumers.ids[c]}\u0000${providers.ids[p]}\u0000${
        providers.boundaries[p]!.id
      }`;
    const outcome = linkPairs(consumers, providers, minConfidence, budget, {
      has: (c, p) => existing.has(unique(c, p)),
      refuses: (c, p) =>
        accept !== undefined &&
        !accept(
          consumers.ids[c]!,
          providers.ids[p]!,
          consumers.boundaries[c]!.id,
        ),
      add(c, p, confidence): void {
        existing.add(unique(c, p));
        const consumerBoundary = consumers.boundaries[c]!;
        const providerBoundary = providers.boundaries[p]!;
        graph.addRelation({
          sourceId: consumers.ids[c]!,
          targetId: providers.ids[p]!,
          kind: "communicates_with",
          metadata: {
            mechanism: "http",
            "boundary_id": consumerBoundary.id,
            "boundary_key": String(consumerBoundary.metadata["key"]),
            "provider_boundary_id": providerBoundary.id,
            "provider_boundary_key": String(providerBoundary.metadata["key"]),
            confidence,
          },
        });
        linked.add(consumerBoundary.id);
      },
    });
    added += outcome.added;
    if (outcome.cut) {
      cuts.push({
        boundaryId: any.boundary.id,
        mechanism: "http",
        key: String(any.boundary.metadata["key"]),
        consumers: consumers.ids.length,
        providers: providers.ids.length,
        linksAdded: outcome.added,
      });
    }
  };
  for (const methods of byPath.values()) {
    const any = methods.get("ANY");
    if (!any) continue;
    const others = [...methods].filter(([method]) => method !== "ANY")
      .map(([, side]) => side);
    // calls of each method to the routes of any method, and the reverse
    link(across(others, "consumers"), across([any], "providers"), any);
    link(across([any], "consumers"), across(others, "providers"), any);
  }
  return {
    relationsAdded: added,
    boundariesTotal,
    boundariesLinked: linked.size,
    cuts,
  };
}
