// The report of a linked boundary graph: links consumer -> provider,
// unmatched consumers, unconsumed providers, counts and budgets hit.
// render_report.ts writes it as text, JSON, Mermaid or Graphviz DOT.
import type {
  BoundaryGraph,
  GraphNode,
  GraphRelation,
  JsonValue,
} from "../boundary/graph.ts";
import { confidenceOf } from "../boundary/link.ts";
import {
  portPlace,
  RESERVED_METADATA,
} from "../boundary/_relation_metadata.ts";

/**
 * One port in a report: a code element exposing or consuming a boundary.
 *
 * @example
 * ```ts
 * import type { ReportPort } from "@portcullis/portcullis/extract";
 *
 * const port: ReportPort = {
 *   ownerId: "web:src/api.ts::loadUser",
 *   owner: "src/api.ts::loadUser",
 *   root: "web",
 *   filePath: "src/api.ts",
 *   line: 10,
 *   col: 16,
 *   mechanism: "http",
 *   key: "GET /users/{}",
 *   role: "client",
 *   confidence: 0.8,
 *   detail: { method: "GET", framework: "fetch" },
 * };
 * ```
 */
export interface ReportPort {
  /** Id of the owner node. */
  ownerId: string;
  /** Qualified name of the owner (`file::Class.method`). */
  owner: string;
  /** Root label of the owner (`""` when unknown). */
  root: string;
  /** File of the port, relative to its root. */
  filePath?: string;
  /** 1-based line. */
  line?: number;
  /** 1-based column. */
  col?: number;
  /** `http`, `grpc`, `queue` or `temporal`. */
  mechanism: string;
  /** The boundary key. */
  key: string;
  /** `server` exposes, `client` consumes. */
  role: "server" | "client";
  /** 0..1. */
  confidence: number;
  /** The port's string facts (method, path, framework, permission...). */
  detail: Record<string, string>;
}

/**
 * A consumer linked to a provider over one boundary.
 *
 * @example
 * ```ts
 * import type { ReportLink, ReportPort } from "@portcullis/portcullis/extract";
 *
 * const base = { mechanism: "http", key: "GET /users/{}", confidence: 1, detail: {}, root: "" };
 * const consumer: ReportPort = { ...base, ownerId: "ui", owner: "ui.ts::load", role: "client" };
 * const provider: ReportPort = { ...base, ownerId: "api", owner: "api.py::get_user", role: "server" };
 * const link: ReportLink = { mechanism: "http", key: "GET /users/{}", confidence: 0.8, consumer, provider };
 * ```
 */
export interface ReportLink {
  /** The boundary's mechanism. */
  mechanism: string;
  /** The consumer's boundary key. */
  key: string;
  /** Consumer confidence × provider confidence. */
  confidence: number;
  /** The calling side. */
  consumer: ReportPort;
  /** The serving side. */
  provider: ReportPort;
}

/**
 * Port counts for one language or mechanism.
 *
 * @example
 * ```ts
 * import type { PortCounts } from "@portcullis/portcullis/extract";
 *
 * const counts: PortCounts = { servers: 3, clients: 5, links: 4 };
 * ```
 */
export interface PortCounts {
  /** Server (exposing) ports. */
  servers: number;
  /** Client (consuming) ports. */
  clients: number;
  /** Links whose consumer is counted here. */
  links: number;
}

/**
 * A budget a scan hit, as the graph records it (`budgets_hit` metadata):
 * the report is then partial.
 *
 * @example
 * ```ts
 * import type { ReportBudgetHit } from "@portcullis/portcullis/extract";
 *
 * const hit: ReportBudgetHit = {
 *   budget: "maxFilesPerRoot",
 *   root: "web",
 *   filePath: "",
 *   message: "Cannot scan every file: ...",
 * };
 * ```
 */
export interface ReportBudgetHit {
  /** The budget's option name, e.g. `maxLinksPerBoundary`. */
  budget: string;
  /** Root label (`""` when it concerns every root). */
  root: string;
  /** File concerned (`""` for a whole root). */
  filePath: string;
  /** What was left out. */
  message: string;
}

/**
 * What a scan found, computed from a linked graph by
 * {@linkcode buildReport}.
 *
 * @example
 * ```ts
 * import { buildReport } from "@portcullis/portcullis/extract";
 * import { BoundaryGraph } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const report = buildReport(new BoundaryGraph());
 * assert.equal(report.links.length, 0);
 * ```
 */
export interface ScanReport {
  /** Links, by mechanism and key. */
  links: ReportLink[];
  /** Calls to boundaries nothing provides (or below the threshold). */
  unmatchedConsumers: ReportPort[];
  /** Routes, methods, topics... nothing in the scan consumes. */
  unconsumedProviders: ReportPort[];
  /** Totals. */
  counts: {
    ports: number;
    boundaries: number;
    links: number;
    byLanguage: Record<string, PortCounts>;
    byMechanism: Record<string, PortCounts>;
    /**
     * Files scanned per language, when the graph records them (`scan`
     * writes `files_by_language` into the graph's metadata).
     */
    filesByLanguage?: Record<string, number>;
  };
  /**
   * Budgets the scan hit, when the graph records them (`budgets_hit`
   * metadata): the result is partial.
   */
  budgetsHit?: ReportBudgetHit[];
}

/** Metadata that is not a port's detail: the relation's own, the scan's. */
const RESERVED: ReadonlySet<string> = new Set([
  ...RESERVED_METADATA,
  "language",
  "extractor",
]);

function portOf(
  graph: BoundaryGraph,
  relation: GraphRelation,
  boundary: GraphNode | undefined,
): ReportPort {
  const metadata = relation.metadata;
  const owner = graph.getNode(relation.sourceId);
  const detail: Record<string, string> = {};
  for (const name in metadata) {
    const value = metadata[name];
    if (!RESERVED.has(name) && typeof value === "string") detail[name] = value;
  }
  const port: ReportPort = {
    ownerId: relation.sourceId,
    owner: owner?.qualifiedName ?? relation.sourceId,
    root: text(owner?.metadata["root"]),
    mechanism: text(boundary?.metadata["mechanism"] ?? metadata["mechanism"]),
    key: text(boundary?.metadata["key"] ?? metadata["key"]),
    role: relation.kind === "exposes" ? "server" : "client",
    confidence: confidenceOf(metadata["confidence"]),
    detail,
  };
  Object.assign(port, portPlace(metadata, owner));
  const language = metadata["language"];
  if (typeof language === "string") port.detail["language"] = language;
  return port;
}

function text(value: JsonValue | undefined): string {
  return typeof value === "string" ? value : "";
}

/**
 * Computes the report of a linked graph: every `communicates_with` link
 * with its two ports, the consumers without a link, the providers nobody
 * calls, and counts per language (from the ports' `language` metadata,
 * which `scan` writes) and per mechanism. Works on any graph with
 * `exposes` / `consumes` relations, e.g. one loaded with
 * `BoundaryGraph.fromJSON`.
 *
 * @param graph A linked graph.
 * @returns The report.
 *
 * @example Usage
 * ```ts
 * import { buildReport } from "@portcullis/portcullis/extract";
 * import { addBoundary, BoundaryGraph, linkGraph } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "ui", kind: "function", qualifiedName: "ui.ts::load", name: "load" });
 * graph.addNode({ id: "api", kind: "function", qualifiedName: "api.py::get_user", name: "get_user" });
 * const port = { mechanism: "http", key: "GET /users/{}", line: 1, col: 1, confidence: 1, detail: {} } as const;
 * addBoundary(graph, "api", { ...port, role: "server" });
 * addBoundary(graph, "ui", { ...port, role: "client" });
 * addBoundary(graph, "ui", { ...port, role: "client", key: "GET /missing" });
 * linkGraph(graph);
 *
 * const report = buildReport(graph);
 * assert.equal(report.links[0]?.provider.owner, "api.py::get_user");
 * assert.equal(report.unmatchedConsumers[0]?.key, "GET /missing");
 * ```
 */
export function buildReport(graph: BoundaryGraph): ScanReport {
  const linksOut: ReportLink[] = [];
  const consumerLinked = new Set<string>();
  const providerLinked = new Set<string>();
  const firstPort = new Map<string, GraphRelation>();
  const boundaries = new Map<string, GraphNode>();
  for (const boundary of graph.nodesByKind("boundary")) {
    boundaries.set(boundary.id, boundary);
    for (const relation of graph.incoming(boundary.id)) {
      if (relation.kind !== "exposes" && relation.kind !== "consumes") continue;
      const unique =
        `${relation.kind}\u0000${relation.sourceId}\u0000${boundary.id}`;
      const known = firstPort.get(unique);
      if (
        !known ||
        confidenceOf(relation.metadata["confidence"]) >
          confidenceOf(known.metadata["confidence"])
      ) firstPort.set(unique, relation);
    }
  }
  for (const link of graph.relationsByKind("communicates_with")) {
    const consumerBoundary = text(link.metadata["boundary_id"]);
    const providerBoundary = text(
      link.metadata["provider_boundary_id"] ?? link.metadata["boundary_id"],
    );
    const consumes = firstPort.get(
      `consumes\u0000${link.sourceId}\u0000${consumerBoundary}`,
    );
    const exposes = firstPort.get(
      `exposes\u0000${link.targetId}\u0000${providerBoundary}`,
    );
    if (!consumes || !exposes) continue;
    consumerLinked.add(`${link.sourceId}\u0000${consumerBoundary}`);
    providerLinked.add(`${link.targetId}\u0000${providerBoundary}`);
    linksOut.push({
      mechanism: text(link.metadata["mechanism"]),
      key: text(link.metadata["boundary_key"]),
      confidence: confidenceOf(link.metadata["confidence"]),
      consumer: portOf(graph, consumes, boundaries.get(consumerBoundary)),
      provider: portOf(graph, exposes, boundaries.get(providerBoundary)),
    });
  }
  const unmatched: ReportPort[] = [];
  const unconsumed: ReportPort[] = [];
  const byLanguage: Record<string, PortCounts> = {};
  const byMechanism: Record<string, PortCounts> = {};
  const bump = (
    table: Record<string, PortCounts>,
    name: string,
    field: keyof PortCounts,
  ): void => {
    const row = table[name] ??= { servers: 0, clients: 0, links: 0 };
    row[field]++;
  };
  let ports = 0;
  for (const boundary of boundaries.values()) {
    for (const relation of graph.incoming(boundary.id)) {
      if (relation.kind !== "exposes" && relation.kind !== "consumes") continue;
      ports++;
      const port = portOf(graph, relation, boundary);
      const language = port.detail["language"] ?? "other";
      const field = port.role === "server" ? "servers" : "clients";
      bump(byLanguage, language, field);
      bump(byMechanism, port.mechanism, field);
      const unique = `${relation.sourceId}\u0000${boundary.id}`;
      if (relation.kind === "consumes" && !consumerLinked.has(unique)) {
        unmatched.push(port);
      }
      if (relation.kind === "exposes" && !providerLinked.has(unique)) {
        unconsumed.push(port);
      }
    }
  }
  for (const link of linksOut) {
    bump(byLanguage, link.consumer.detail["language"] ?? "other", "links");
    bump(byMechanism, link.mechanism, "links");
  }
  const order = (a: ReportPort, b: ReportPort): number =>
    compare(a.mechanism, b.mechanism) || compare(a.key, b.key) ||
    compare(a.root, b.root) || compare(a.filePath ?? "", b.filePath ?? "") ||
    (a.line ?? 0) - (b.line ?? 0);
  linksOut.sort((a, b) =>
    compare(a.mechanism, b.mechanism) || compare(a.key, b.key) ||
    order(a.consumer, b.consumer) || order(a.provider, b.provider)
  );
  unmatched.sort(order);
  unconsumed.sort(order);
  const report: ScanReport = {
    links: linksOut,
    unmatchedConsumers: unmatched,
    unconsumedProviders: unconsumed,
    counts: {
      ports,
      boundaries: boundaries.size,
      links: linksOut.length,
      byLanguage: sortKeys(byLanguage),
      byMechanism: sortKeys(byMechanism),
    },
  };
  const files = graph.metadata["files_by_language"];
  if (files && typeof files === "object" && !Array.isArray(files)) {
    const counts: Record<string, number> = {};
    for (const [language, count] of Object.entries(files)) {
      if (typeof count === "number") counts[language] = count;
    }
    report.counts.filesByLanguage = sortKeys(counts);
  }
  const hits = budgetsHitOf(graph.metadata["budgets_hit"]);
  if (hits.length > 0) report.budgetsHit = hits;
  return report;
}

/** The `budgets_hit` metadata a scan writes, read defensively. */
function budgetsHitOf(value: JsonValue | undefined): ReportBudgetHit[] {
  if (!Array.isArray(value)) return [];
  const hits: ReportBudgetHit[] = [];
  for (const item of value) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      continue;
    }
    hits.push({
      budget: text(item["budget"]),
      root: text(item["root"]),
      filePath: text(item["file_path"]),
      message: text(item["message"]),
    });
  }
  return hits;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key]!;
  return out;
}
