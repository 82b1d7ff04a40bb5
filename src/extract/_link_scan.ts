// Links a scan's merged graph and reports the boundaries cut by the links
// budget, as warnings and in the graph's `budgets_hit` metadata.
import type { BoundaryGraph, GraphMetadata } from "../boundary/graph.ts";
import { linkGraph, type LinkResult } from "../boundary/link.ts";
import { linkAnyMethod } from "./_link_any.ts";
import { linkLoosely } from "./_link_loose.ts";
import { portRecords } from "../boundary/port_records.ts";
import { ServiceLocator } from "../boundary/_service_name.ts";
import { serviceAffinity } from "../boundary/_service_affinity.ts";
import { type GatewayLinkInput, linkThroughGateways } from "./_link_gateway.ts";
import { hostFilter } from "./_link_hosts.ts";
import type { ScanResult } from "./scan.ts";

/**
 * Exact keys, `ANY`-method routes, gateways, then route templates and
 * other-case paths for calls still unlinked (see `linkLoosely`); one
 * result for all. A call whose URL names a service of the scan (its host,
 * or an environment variable the deployment sets) reaches only that
 * service (see `hostFilter`); one whose path several services serve
 * otherwise reaches the one serving most of its file's calls (see
 * `serviceAffinity`).
 */
function linkAll(
  graph: BoundaryGraph,
  options: { minConfidence: number; maxLinksPerBoundary: number },
  gateways: GatewayLinkInput,
): LinkResult {
  const ports = portRecords(graph, "");
  const services = new ServiceLocator(ports, gateways.directories);
  const accept = hostFilter(
    graph,
    ports,
    services,
    gateways.environment ?? new Map(),
    serviceAffinity(ports, (port) => services.serviceKey(port)),
  );
  const exact = linkGraph(graph, { ...options, accept });
  const any = linkAnyMethod(graph, { ...options, accept });
  const through = linkThroughGateways(graph, gateways, options);
  const loose = linkLoosely(graph, { ...options, accept });
  const linked = new Set<string>();
  for (const relation of graph.relationsByKind("communicates_with")) {
    linked.add(String(relation.metadata["boundary_id"]));
    const provider = relation.metadata["provider_boundary_id"];
    if (typeof provider === "string") linked.add(provider);
  }
  return {
    relationsAdded: exact.relationsAdded + any.relationsAdded +
      loose.relationsAdded + through.relationsAdded,
    boundariesTotal: exact.boundariesTotal,
    boundariesLinked: linked.size,
    cuts: [...exact.cuts, ...any.cuts, ...loose.cuts, ...through.cuts],
  };
}

/**
 * Writes the budget warnings into the graph's `budgets_hit` metadata, so a
 * report made from the graph (or from its JSON) says it is partial.
 */
function recordBudgetsHit(result: ScanResult): void {
  const hits: GraphMetadata[] = [];
  for (const d of result.diagnostics) {
    if (d.budget === undefined) continue;
    hits.push({
      budget: d.budget,
      root: d.root,
      "file_path": d.filePath,
      message: d.message,
    });
  }
  if (hits.length > 0) result.graph.metadata["budgets_hit"] = hits;
}

/**
 * Links exact keys and `ANY`-method routes, adds a warning per boundary
 * cut by `maxLinksPerBoundary`, and records every budget hit of the scan
 * in the graph.
 */
export function linkScan(
  result: ScanResult,
  options: { minConfidence: number; maxLinksPerBoundary: number },
  gateways: GatewayLinkInput = { routes: [] },
): LinkResult {
  const link = linkAll(result.graph, options, gateways);
  for (const cut of link.cuts) {
    result.diagnostics.push({
      root: "",
      filePath: "",
      severity: "warning",
      message:
        `Cannot link every pair of ${cut.mechanism} "${cut.key}": ${cut.consumers} consumers x ${cut.providers} providers exceed ${options.maxLinksPerBoundary} links, so each consumer and each provider was linked to its most confident counterpart, plus the first pairs (${cut.linksAdded} links; raise maxLinksPerBoundary, --max-links-per-boundary)`,
      budget: "maxLinksPerBoundary",
    });
  }
  recordBudgetsHit(result);
  return link;
}
