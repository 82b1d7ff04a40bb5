// Which service a call reaches when its URL names a host: written in the
// URL (`http://balancereader:8080/x`) or taken from an environment variable
// the deployment files set (`http://${BALANCES_ADDR}/x` with
// `BALANCES_ADDR=balancereader:8080`). A call whose host names a service of
// the scan links only to that service's routes.
import type { BoundaryGraph } from "../boundary/graph.ts";
import type { PortRecord } from "../boundary/port_records.ts";
import type { PairFilter } from "../boundary/_service_affinity.ts";
import {
  type ServiceLocator,
  serviceOfHost,
} from "../boundary/_service_name.ts";
import type { DeployEnvironment } from "./deploy/mod.ts";

/**
 * A filter that keeps, for a call whose host names a service found in the
 * scan, only the providers of that service; `fallback` decides every other
 * pair. `envs` holds each root's deployment environment, by root label.
 */
export function hostFilter(
  graph: BoundaryGraph,
  ports: readonly PortRecord[],
  services: ServiceLocator,
  envs: ReadonlyMap<string, DeployEnvironment>,
  fallback: PairFilter,
): PairFilter {
  const providerPort = new Map<string, PortRecord>();
  const hostOf = new Map<string, string>();
  // the `host` each call records, by owner and boundary: one pass
  const written = new Map<string, string>();
  for (const relation of graph.relationsByKind("consumes")) {
    const host = relation.metadata["host"];
    const key = `${relation.sourceId}\u0000${relation.targetId}`;
    if (typeof host === "string" && host !== "" && !written.has(key)) {
      written.set(key, host);
    }
  }
  for (const port of ports) {
    if (port.role === "server") {
      if (!providerPort.has(port.ownerId)) {
        providerPort.set(port.ownerId, port);
      }
      continue;
    }
    if (port.mechanism !== "http") continue;
    const template = written.get(`${port.ownerId}\u0000${port.boundaryId}`);
    if (template === undefined) continue;
    const host = template.includes("$")
      ? envs.get(port.service)?.expand(template, port.filePath ?? "")
      : template;
    const service = host === undefined ? "" : serviceOfHost(host);
    if (service !== "" && services.locates(service)) {
      hostOf.set(`${port.ownerId}\u0000${port.boundaryId}`, service);
    }
  }
  if (hostOf.size === 0) return fallback;
  return (consumerId, providerId, boundaryId) => {
    const service = hostOf.get(`${consumerId}\u0000${boundaryId}`);
    if (service === undefined) {
      return fallback(consumerId, providerId, boundaryId);
    }
    const provider = providerPort.get(providerId);
    return provider === undefined || services.holds(service, provider);
  };
}
