// Links HTTP calls that pass through a gateway (Spring Cloud Gateway, an
// nginx reverse proxy, an ingress) to the routes of the service it forwards
// them to: a call of `/api/customer/owners` through a route `/api/customer/**`
// with `StripPrefix=2` to `customers-service` reaches that service's
// `GET /owners`.
import type { BoundaryGraph } from "../boundary/graph.ts";
import type { LinkOptions, LinkResult } from "../boundary/link.ts";
import { normalizeHttpPath } from "../boundary/http_path.ts";
import { type PortRecord, portRecords } from "../boundary/port_records.ts";
import { HttpProviders, splitHttpKey } from "../boundary/_path_template.ts";
import { ServiceLocator, serviceOfHost } from "../boundary/_service_name.ts";
import { PortLinker } from "./_link_ports.ts";
import { forwardedPath, type GatewayRoute } from "./_port/gateway.ts";
import type { DeployEnvironment } from "./deploy/mod.ts";

/** What a gateway pass needs besides the graph. */
export interface GatewayLinkInput {
  /** Every gateway route the extractors read. */
  routes: readonly GatewayRoute[];
  /** Folders deployment files give service names (e.g. compose `build`). */
  directories?: ReadonlyMap<string, readonly string[]>;
  /** The environment deployment files set, by root label. */
  environment?: ReadonlyMap<string, DeployEnvironment>;
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
 * boundary; a boundary over it is reported in `cuts`. A pair `accept`
 * refuses is not linked.
 */
export function linkThroughGateways(
  graph: BoundaryGraph,
  input: GatewayLinkInput,
  options: LinkOptions,
): LinkResult {
  const linker = new PortLinker(graph, options);
  if (input.routes.length === 0) return linker.result();
  const ports = portRecords(graph, "");
  const providers = new HttpProviders(ports);
  const services = new ServiceLocator(ports, input.directories);
  const consumersByBoundary = new Map<string, PortRecord[]>();
  for (const port of ports) {
    if (port.role !== "client" || port.mechanism !== "http") continue;
    const list = consumersByBoundary.get(port.boundaryId);
    if (list === undefined) consumersByBoundary.set(port.boundaryId, [port]);
    else list.push(port);
  }
  for (const consumers of consumersByBoundary.values()) {
    const [method, path] = splitHttpKey(consumers[0]!.key);
    for (
      const { route, path: forwarded } of forwards(input.routes, method, path)
    ) {
      let reached = providers.serving(method, forwarded);
      const target = serviceOfHost(route.target);
      if (target !== "" && services.locates(target)) {
        reached = reached.filter((port) => services.holds(target, port));
      }
      linker.link(consumers, reached, { via: route.gateway });
    }
  }
  return linker.result();
}
