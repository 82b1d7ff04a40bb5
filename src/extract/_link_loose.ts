// Links the HTTP calls that exact keys left without any provider to the
// routes that still serve them: a route template whose parameters take the
// call's literal segments (`GET /pay/partner-7` to `GET /pay/{}`), else a
// route of the same path in another case (routers that ignore case).
import type { BoundaryGraph } from "../boundary/graph.ts";
import type { LinkOptions, LinkResult } from "../boundary/link.ts";
import { type PortRecord, portRecords } from "../boundary/port_records.ts";
import { HttpProviders, splitHttpKey } from "../boundary/_path_template.ts";
import { PortLinker } from "./_link_ports.ts";

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
  const linkedFrom = new Set<string>();
  for (const relation of graph.relationsByKind("communicates_with")) {
    linkedFrom.add(String(relation.metadata["boundary_id"]));
  }
  const linker = new PortLinker(graph, options);
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
  for (const side of consumers.values()) {
    const [method, path] = splitHttpKey(side[0]!.key);
    const reached = providers.serving(method, path).filter((provider) =>
      splitHttpKey(provider.key)[1] !== path
    );
    linker.link(side, reached);
  }
  return linker.result();
}
