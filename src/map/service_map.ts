import type { BoundaryGraph, JsonValue } from "../boundary/graph.ts";
import { confidenceOf } from "../boundary/link.ts";
import {
  type PortRecord,
  portRecords,
  serviceOf,
} from "../boundary/port_records.ts";

/**
 * One service of a {@linkcode ServiceMap}: the ports its code exposes and
 * consumes.
 *
 * @example
 * ```ts
 * import type { MapService } from "@portcullis/portcullis/map";
 *
 * const service: MapService = { name: "users", provides: [], consumes: [] };
 * ```
 */
export interface MapService {
  /** The service's name (a scan's root label). */
  name: string;
  /** Its server ports, by mechanism and key. */
  provides: PortRecord[];
  /** Its client ports, by mechanism and key. */
  consumes: PortRecord[];
}

/**
 * The links from one service's consumers to another's providers over one
 * mechanism.
 *
 * @example
 * ```ts
 * import type { ServiceFlow } from "@portcullis/portcullis/map";
 *
 * const flow: ServiceFlow = { from: "web", to: "users", mechanism: "http", keys: ["GET /users/{}"], links: 2, confidence: 0.9 };
 * ```
 */
export interface ServiceFlow {
  /** The consuming service. */
  from: string;
  /** The providing service. */
  to: string;
  /** The mechanism of the links. */
  mechanism: string;
  /** The providers' boundary keys, sorted. */
  keys: string[];
  /** Consumer -> provider links. */
  links: number;
  /** The most confident link's confidence. */
  confidence: number;
}

/**
 * A linked graph seen service by service: what each exposes and consumes,
 * and who calls whom.
 *
 * @example
 * ```ts
 * import type { ServiceMap } from "@portcullis/portcullis/map";
 *
 * const map: ServiceMap = { name: "shop", services: [], flows: [] };
 * ```
 */
export interface ServiceMap {
  /** The name of the whole (a repository, an organisation). */
  name: string;
  /** Services by name. */
  services: MapService[];
  /** Flows by consumer, provider and mechanism. */
  flows: ServiceFlow[];
}

/**
 * Options for {@linkcode serviceMap}.
 *
 * @example
 * ```ts
 * import type { ServiceMapOptions } from "@portcullis/portcullis/map";
 *
 * const options: ServiceMapOptions = { name: "shop" };
 * ```
 */
export interface ServiceMapOptions {
  /**
   * The name of the whole, and of the service of ports whose owner names
   * none (a graph written by graphlens).
   * @default {"services"}
   */
  name?: string;
}

function text(value: JsonValue | undefined): string {
  return typeof value === "string" ? value : "";
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Groups a linked graph by service: the service of a port is its owner's
 * `root` metadata (the root label of a scan) or `service` metadata, else
 * `options.name`. Each `communicates_with` link counts toward the flow
 * from its consumer's service to its provider's, with the provider's key.
 *
 * @param graph A linked graph.
 * @param options The name of the whole.
 * @returns The services and the flows between them.
 *
 * @example Usage
 * ```ts
 * import { addBoundary, BoundaryGraph, linkGraph } from "@portcullis/portcullis/boundary";
 * import { serviceMap } from "@portcullis/portcullis/map";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "w", kind: "function", qualifiedName: "api.ts::load", name: "load", metadata: { root: "web" } });
 * graph.addNode({ id: "u", kind: "function", qualifiedName: "app.py::get_user", name: "get_user", metadata: { root: "users" } });
 * const port = { mechanism: "http", key: "GET /users/{}", line: 1, col: 1, confidence: 1, detail: {} } as const;
 * addBoundary(graph, "u", { ...port, role: "server" });
 * addBoundary(graph, "w", { ...port, role: "client" });
 * linkGraph(graph);
 *
 * const map = serviceMap(graph, { name: "shop" });
 * assert.deepEqual(map.services.map((s) => s.name), ["users", "web"]);
 * assert.deepEqual(map.flows.map((f) => [f.from, f.to, f.keys]), [["web", "users", ["GET /users/{}"]]]);
 * ```
 */
export function serviceMap(
  graph: BoundaryGraph,
  options: ServiceMapOptions = {},
): ServiceMap {
  const name = options.name ?? "services";
  const services = new Map<string, MapService>();
  const serviceNamed = (service: string): MapService => {
    let entry = services.get(service);
    if (entry === undefined) {
      services.set(
        service,
        entry = { name: service, provides: [], consumes: [] },
      );
    }
    return entry;
  };
  for (const port of portRecords(graph, name)) {
    if (port.service === "") port.service = name;
    const service = serviceNamed(port.service);
    (port.role === "server" ? service.provides : service.consumes).push(port);
  }
  const flows = new Map<string, ServiceFlow>();
  for (const link of graph.relationsByKind("communicates_with")) {
    const from = serviceOf(graph.getNode(link.sourceId)) || name;
    const to = serviceOf(graph.getNode(link.targetId)) || name;
    const mechanism = text(link.metadata["mechanism"]);
    const key = text(
      link.metadata["provider_boundary_key"] ?? link.metadata["boundary_key"],
    );
    const id = `${from}\u0000${to}\u0000${mechanism}`;
    let flow = flows.get(id);
    if (flow === undefined) {
      flows.set(
        id,
        flow = { from, to, mechanism, keys: [], links: 0, confidence: 0 },
      );
    }
    if (!flow.keys.includes(key)) flow.keys.push(key);
    flow.links++;
    flow.confidence = Math.max(
      flow.confidence,
      confidenceOf(link.metadata["confidence"]),
    );
  }
  const byPort = (a: PortRecord, b: PortRecord): number =>
    compare(a.mechanism, b.mechanism) || compare(a.key, b.key) ||
    compare(a.filePath ?? "", b.filePath ?? "") ||
    (a.line ?? 0) - (b.line ?? 0);
  const list = [...services.values()].sort((a, b) => compare(a.name, b.name));
  for (const service of list) {
    service.provides.sort(byPort);
    service.consumes.sort(byPort);
  }
  return {
    name,
    services: list,
    flows: [...flows.values()].map((flow) => ({
      ...flow,
      keys: flow.keys.sort(),
    })).sort((a, b) =>
      compare(a.from, b.from) || compare(a.to, b.to) ||
      compare(a.mechanism, b.mechanism)
    ),
  };
}
