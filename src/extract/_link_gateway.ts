// Links HTTP calls that pass through a gateway (Spring Cloud Gateway, an
// nginx reverse proxy, an ingress) to the routes of the service it forwards
// them to: a call of `/api/customer/owners` through a route `/api/customer/**`
// with `StripPrefix=2` to `customers-service` reaches that service's
// `GET /owners`.
import type { BoundaryGraph } from "../boundary/graph.ts";
import type { LinkCut, LinkOptions, LinkResult } from "../boundary/link.ts";
import { normalizeHttpPath } from "../boundary/http_path.ts";
import { type PortRecord, portRecords } from "../boundary/port_records.ts";
import { HttpProviders, splitHttpKey } from "../boundary/_path_template.ts";
import { ServiceLocator, serviceOfHost } from "../boundary/_service_name.ts";
import { confidenceOf } from "../boundary/_link_pairs.ts";
import { forwardedPath, type GatewayRoute } from "./_port/gateway.ts";

/** What a gateway pass needs besides the graph. */
export interface GatewayLinkInput {
  /** Every gateway route the extractors read. */
  routes: readonly GatewayRoute[];
  /** Folders deployment files give service names (e.g. compose `build`). */
  directories?: ReadonlyMap<string, readonly string[]>;
}

const ANY = "ANY";

/** The routes a call of `method` may take, each with its forwarded path. */
function forwards(
  routes: readonly GatewayRoute[],
  method: string,
  path: string,
): Array<{ route: GatewayRoute; path: string }> {
  const out: Array<{ route: GatewayRoute; path: string }> = [];
  for (const route of routes) {
    if (route.method !== ANY && method !== ANY && route.method !== method) {
      continue;
    }
    const forwarded = forwardedPath(route, path);
    if (forwarded === undefined) continue;
    let normalized: string;
    try {
      normalized = normalizeHttpPath(forwarded);
    } catch {
      continue;
    }
    // a route that changes nothing adds nothing to the exact links
    if (normalized !== path) out.push({ route, path: normalized });
  }
  return out;
}

/**
 * Adds a `communicates_with` relation from each HTTP consumer whose path a
 * gateway route matches to the providers of the forwarded path (exact,
 * else a route template serving it; see `HttpProviders`) in the route's
 * target service. A target found in no port of the scan (a name left
 * unresolved) keeps every provider of the forwarded path. The relation
 * carries `boundary_id` / `boundary_key` of the consumer's boundary,
 * `provider_boundary_id` / `provider_boundary_key` of the provider's and
 * `via` (the gateway). At most `maxLinksPerBoundary` links per consumer
 * boundary; a boundary over it is reported in `cuts`.
 */
export function linkThroughGateways(
  graph: BoundaryGraph,
  input: GatewayLinkInput,
  options: LinkOptions,
): LinkResult {
  const result: LinkResult = {
    relationsAdded: 0,
    boundariesTotal: 0,
    boundariesLinked: 0,
    cuts: [],
  };
  if (input.routes.length === 0) return result;
  const minConfidence = options.minConfidence ?? 0;
  const budget = options.maxLinksPerBoundary ?? 1000;
  const ports = portRecords(graph, "");
  const providers = new HttpProviders(ports);
  const services = new ServiceLocator(ports, input.directories);
  const existing = new Set<string>();
  for (const relation of graph.relationsByKind("communicates_with")) {
    const metadata = relation.metadata;
    existing.add(
      `${relation.sourceId}\u0000${relation.targetId}\u0000${
        String(metadata["boundary_id"])
      }\u0000${
        String(metadata["provider_boundary_id"] ?? metadata["boundary_id"])
      }`,
    );
  }
  const consumersByBoundary = new Map<string, PortRecord[]>();
  for (const port of ports) {
    if (port.role !== "client" || port.mechanism !== "http") continue;
    const list = consumersByBoundary.get(port.boundaryId);
    if (list === undefined) consumersByBoundary.set(port.boundaryId, [port]);
    else list.push(port);
  }
  const linked = new Set<string>();
  for (const [boundaryId, consumers] of consumersByBoundary) {
    const [method, path] = splitHttpKey(consumers[0]!.key);
    let added = 0;
    let cut: LinkCut | undefined;
    for (
      const { route, path: forwarded } of forwards(input.routes, method, path)
    ) {
      let reached = providers.serving(method, forwarded);
      const target = serviceOfHost(route.target);
      if (target !== "" && services.locates(target)) {
        reached = reached.filter((port) => services.holds(target, port));
      }
      for (const consumer of consumers) {
        for (const provider of reached) {
          if (provider.ownerId === consumer.ownerId) continue;
          const confidence = confidenceOf(consumer.confidence) *
            confidenceOf(provider.confidence);
          if (confidence < minConfidence) continue;
          const unique =
            `${consumer.ownerId}\u0000${provider.ownerId}\u0000${boundaryId}\u0000${provider.boundaryId}`;
          if (existing.has(unique)) continue;
          if (added >= budget) {
            cut ??= {
              boundaryId,
              mechanism: "http",
              key: consumer.key,
              consumers: consumers.length,
              providers: reached.length,
              linksAdded: 0,
            };
            continue;
          }
          existing.add(unique);
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
              via: route.gateway,
              confidence,
            },
          });
          added++;
          linked.add(boundaryId);
        }
      }
    }
    if (cut !== undefined) result.cuts.push({ ...cut, linksAdded: added });
    result.relationsAdded += added;
  }
  result.boundariesLinked = linked.size;
  return result;
}
