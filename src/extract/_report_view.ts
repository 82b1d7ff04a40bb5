// What a diagram draws of a report: only some mechanisms, and either every
// code element or one box per service (the root a port was found in), so
// a graph of hundreds of links becomes a map a person can read.
import type { ReportLink, ReportPort, ScanReport } from "./report.ts";

/**
 * How much of a report a diagram draws.
 *
 * @example
 * ```ts
 * import type { DiagramOptions } from "@portcullis/portcullis/extract";
 *
 * const options: DiagramOptions = { collapse: "service", mechanisms: ["http", "grpc"] };
 * ```
 */
export interface DiagramOptions {
  /**
   * `service` draws one box per service (scan root) instead of one per
   * function, and one edge per calling and called service.
   * @default {undefined}
   */
  collapse?: "service";
  /**
   * Only links and unmatched calls of these mechanisms.
   * @default {undefined}
   */
  mechanisms?: readonly string[];
}

/** The name a service is drawn with (the root; `(no root)` if none). */
function serviceName(port: ReportPort): string {
  return port.root === "" ? "(no root)" : port.root;
}

/** A port standing for its whole service. */
function asService(port: ReportPort): ReportPort {
  const name = serviceName(port);
  return {
    ...port,
    ownerId: `service\u0000${name}`,
    owner: name,
    root: "",
  };
}

/** One edge per consumer and provider service, labelled with its counts. */
function collapseLinks(links: readonly ReportLink[]): ReportLink[] {
  const edges = new Map<
    string,
    { link: ReportLink; keys: Map<string, Set<string>> }
  >();
  for (const link of links) {
    const consumer = asService(link.consumer);
    const provider = asService(link.provider);
    const id = `${consumer.ownerId}\u0000${provider.ownerId}`;
    let edge = edges.get(id);
    if (edge === undefined) {
      edge = {
        link: { ...link, consumer, provider, confidence: 0 },
        keys: new Map(),
      };
      edges.set(id, edge);
    }
    edge.link.confidence = Math.max(edge.link.confidence, link.confidence);
    let keys = edge.keys.get(link.mechanism);
    if (keys === undefined) edge.keys.set(link.mechanism, keys = new Set());
    keys.add(link.key);
  }
  return [...edges.values()].map(({ link, keys }) => {
    const mechanisms = [...keys.keys()].sort();
    const label = mechanisms.map((m) => {
      const n = keys.get(m)!.size;
      return `${m} ${n} ${n === 1 ? "key" : "keys"}`;
    }).join(", ");
    return { ...link, mechanism: mechanisms.join(","), key: label };
  });
}

/** The unmatched calls, one per service and key. */
function collapseUnmatched(ports: readonly ReportPort[]): ReportPort[] {
  const seen = new Set<string>();
  const out: ReportPort[] = [];
  for (const port of ports) {
    const service = asService(port);
    const id = `${service.ownerId}\u0000${port.mechanism}\u0000${port.key}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(service);
  }
  return out;
}

/** The report as a diagram with these options draws it. */
export function diagramView(
  report: ScanReport,
  options: DiagramOptions,
): ScanReport {
  let view = report;
  const mechanisms = options.mechanisms;
  if (mechanisms !== undefined) {
    const kept = (port: { mechanism: string }): boolean =>
      mechanisms.includes(port.mechanism);
    view = {
      ...view,
      links: view.links.filter(kept),
      unmatchedConsumers: view.unmatchedConsumers.filter(kept),
      unconsumedProviders: view.unconsumedProviders.filter(kept),
    };
  }
  if (options.collapse === "service") {
    view = {
      ...view,
      links: collapseLinks(view.links),
      unmatchedConsumers: collapseUnmatched(view.unmatchedConsumers),
    };
  }
  return view;
}
