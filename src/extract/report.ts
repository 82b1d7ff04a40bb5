// Reports over a linked boundary graph: links consumer -> provider,
// unmatched consumers, unconsumed providers and counts, as text, JSON,
// Mermaid or Graphviz DOT.
import type {
  BoundaryGraph,
  GraphNode,
  GraphRelation,
  JsonValue,
} from "../boundary/graph.ts";
import { confidenceOf } from "../boundary/link.ts";
import type { ExtractDiagnostic } from "./extractor.ts";

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
}

/**
 * Report formats of {@linkcode renderReport}.
 *
 * @example
 * ```ts
 * import type { ReportFormat } from "@portcullis/portcullis/extract";
 *
 * const format: ReportFormat = "mermaid";
 * ```
 */
export type ReportFormat = "text" | "json" | "mermaid" | "dot";

/**
 * The formats {@linkcode renderReport} accepts.
 *
 * @example
 * ```ts
 * import { REPORT_FORMATS } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(REPORT_FORMATS, ["text", "json", "mermaid", "dot"]);
 * ```
 */
export const REPORT_FORMATS: readonly ReportFormat[] = [
  "text",
  "json",
  "mermaid",
  "dot",
];

/**
 * Options for {@linkcode renderReport}.
 *
 * @example
 * ```ts
 * import type { RenderReportOptions } from "@portcullis/portcullis/extract";
 *
 * const options: RenderReportOptions = { format: "dot" };
 * ```
 */
export interface RenderReportOptions {
  /**
   * Output format.
   * @default {"text"}
   */
  format?: ReportFormat;
  /**
   * Problems to list (text and JSON formats).
   * @default {[]}
   */
  diagnostics?: readonly (ExtractDiagnostic & { root?: string })[];
}

const RESERVED = new Set([
  "mechanism",
  "key",
  "confidence",
  "role",
  "line",
  "col",
  "file_path",
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
  const filePath = metadata["file_path"] ?? owner?.filePath;
  if (typeof filePath === "string") port.filePath = filePath;
  const line = metadata["line"];
  if (typeof line === "number") port.line = line;
  const col = metadata["col"];
  if (typeof col === "number") port.col = col;
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
  return report;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key]!;
  return out;
}

/**
 * Renders the report of a linked graph as `text` (for people), `json`
 * (for tools), `mermaid` (a flowchart) or `dot` (Graphviz).
 *
 * @param graph A linked graph.
 * @param options Format and diagnostics to include.
 * @returns The rendered report, ending with a newline.
 * @throws {RangeError} If the format is unknown.
 *
 * @example Usage
 * ```ts
 * import { renderReport } from "@portcullis/portcullis/extract";
 * import { addBoundary, BoundaryGraph, linkGraph } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "ui", kind: "function", qualifiedName: "ui.ts::load", name: "load" });
 * graph.addNode({ id: "api", kind: "function", qualifiedName: "api.py::get_user", name: "get_user" });
 * const port = { mechanism: "http", key: "GET /users/{}", line: 1, col: 1, confidence: 1, detail: {} } as const;
 * addBoundary(graph, "api", { ...port, role: "server" });
 * addBoundary(graph, "ui", { ...port, role: "client" });
 * linkGraph(graph);
 *
 * assert.match(renderReport(graph, { format: "mermaid" }), /-->\|"GET \/users\/\{\}/);
 * assert.match(renderReport(graph), /-> \S+ {2}get_user/);
 * ```
 */
export function renderReport(
  graph: BoundaryGraph,
  options: RenderReportOptions = {},
): string {
  const format = options.format ?? "text";
  const report = buildReport(graph);
  const diagnostics = options.diagnostics ?? [];
  switch (format) {
    case "text":
      return renderText(report, diagnostics);
    case "json":
      return JSON.stringify({ ...report, diagnostics }, null, 2) + "\n";
    case "mermaid":
      return renderMermaid(report);
    case "dot":
      return renderDot(report);
    default:
      throw new RangeError(
        `Cannot render report: unknown format "${String(format)}"`,
      );
  }
}

function where(port: ReportPort): string {
  const file = port.filePath ?? "?";
  const position = port.line === undefined
    ? ""
    : `:${port.line}${port.col === undefined ? "" : `:${port.col}`}`;
  return `${port.root ? `${port.root}/` : ""}${file}${position}`;
}

function ownerName(port: ReportPort): string {
  const at = port.owner.indexOf("::");
  return at === -1 ? "(module)" : port.owner.slice(at + 2);
}

function confidence(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

function permission(port: ReportPort): string {
  const required = port.detail["permission"];
  if (required) return `  requires ${required}`;
  return port.detail["auth"] === "required" ? "  requires a user" : "";
}

/**
 * A titled list of ports, one line each; `withPermission` adds what a
 * provider requires.
 */
function portSection(
  lines: string[],
  title: string,
  ports: readonly ReportPort[],
  withPermission: boolean,
): void {
  lines.push("", `${title} (${ports.length})`);
  for (const port of ports) {
    lines.push(
      `  ${port.mechanism} ${port.key}  ${where(port)}  ${
        ownerName(port)
      }  confidence ${confidence(port.confidence)}${
        withPermission ? permission(port) : ""
      }`,
    );
  }
}

function renderText(
  report: ScanReport,
  diagnostics: readonly (ExtractDiagnostic & { root?: string })[],
): string {
  const lines: string[] = [];
  const c = report.counts;
  const servers = Object.values(c.byMechanism).reduce(
    (n, r) => n + r.servers,
    0,
  );
  lines.push(
    `${c.ports} ports (${servers} servers, ${c.ports - servers} clients), ` +
      `${c.links} links, ${report.unmatchedConsumers.length} unmatched consumers, ` +
      `${report.unconsumedProviders.length} unconsumed providers`,
  );
  lines.push("", `Links, consumer -> provider (${report.links.length})`);
  for (const link of report.links) {
    lines.push(
      `  ${link.mechanism} ${link.key}  confidence ${
        confidence(link.confidence)
      }` +
        permission(link.provider),
      `    ${where(link.consumer)}  ${ownerName(link.consumer)}`,
      `    -> ${where(link.provider)}  ${ownerName(link.provider)}` +
        (link.provider.key !== link.key ? `  (${link.provider.key})` : ""),
    );
  }
  portSection(lines, "Unmatched consumers", report.unmatchedConsumers, false);
  portSection(
    lines,
    "Unconsumed providers",
    report.unconsumedProviders,
    true,
  );
  lines.push("", ...table("language", c.byLanguage, c.filesByLanguage));
  lines.push("", ...table("mechanism", c.byMechanism));
  if (diagnostics.length) {
    lines.push("", `Diagnostics (${diagnostics.length})`);
    for (const d of diagnostics) {
      const file = `${d.root ? `${d.root}/` : ""}${d.filePath}`;
      lines.push(`  ${d.severity.padEnd(7)} ${file}  ${d.message}`);
    }
  }
  return lines.join("\n") + "\n";
}

function table(
  title: string,
  rows: Record<string, PortCounts>,
  files?: Record<string, number>,
): string[] {
  const names = [
    ...new Set([...Object.keys(files ?? {}), ...Object.keys(rows)]),
  ]
    .sort();
  const width = Math.max(title.length, ...names.map((n) => n.length)) + 2;
  const cell = (value: string | number, size: number): string =>
    String(value).padStart(size);
  const out = [
    `${title.padEnd(width)}${files ? cell("files", 7) : ""}${
      cell("servers", 8)
    }${cell("clients", 9)}${cell("links", 7)}`,
  ];
  for (const name of names) {
    const row = rows[name] ?? { servers: 0, clients: 0, links: 0 };
    out.push(
      `${name.padEnd(width)}${files ? cell(files[name] ?? 0, 7) : ""}${
        cell(row.servers, 8)
      }${cell(row.clients, 9)}${cell(row.links, 7)}`,
    );
  }
  return out;
}

/** Stable short node ids for diagrams. */
class Ids {
  #ids = new Map<string, string>();
  #prefix: string;
  constructor(prefix: string) {
    this.#prefix = prefix;
  }
  get(key: string): string {
    let id = this.#ids.get(key);
    if (!id) this.#ids.set(key, id = `${this.#prefix}${this.#ids.size}`);
    return id;
  }
}

interface DiagramNode {
  id: string;
  label: string;
  root: string;
}

function diagramNodes(report: ScanReport, ids: Ids): DiagramNode[] {
  const nodes = new Map<string, DiagramNode>();
  const add = (port: ReportPort): void => {
    if (nodes.has(port.ownerId)) return;
    nodes.set(port.ownerId, {
      id: ids.get(port.ownerId),
      label: port.owner,
      root: port.root,
    });
  };
  for (const link of report.links) {
    add(link.consumer);
    add(link.provider);
  }
  for (const port of report.unmatchedConsumers) add(port);
  return [...nodes.values()];
}

function groupByRoot(nodes: DiagramNode[]): Map<string, DiagramNode[]> {
  const groups = new Map<string, DiagramNode[]>();
  for (const node of nodes) {
    let list = groups.get(node.root);
    if (!list) groups.set(node.root, list = []);
    list.push(node);
  }
  return groups;
}

function mermaidText(value: string): string {
  return value.replaceAll('"', "#quot;");
}

function renderMermaid(report: ScanReport): string {
  const ids = new Ids("n");
  const lines = ["flowchart LR"];
  const groups = groupByRoot(diagramNodes(report, ids));
  let group = 0;
  for (const [root, nodes] of groups) {
    const indent = root ? "    " : "  ";
    if (root) lines.push(`  subgraph g${group++}["${mermaidText(root)}"]`);
    for (const node of nodes) {
      lines.push(`${indent}${node.id}["${mermaidText(node.label)}"]`);
    }
    if (root) lines.push("  end");
  }
  for (const link of report.links) {
    lines.push(
      `  ${ids.get(link.consumer.ownerId)} -->|"${
        mermaidText(`${link.key} (${confidence(link.confidence)})`)
      }"| ${ids.get(link.provider.ownerId)}`,
    );
  }
  const missing = new Ids("u");
  for (const port of report.unmatchedConsumers) {
    const target = missing.get(`${port.mechanism}:${port.key}`);
    lines.push(
      `  ${ids.get(port.ownerId)} -.->|"${
        mermaidText(port.key)
      }"| ${target}(["${
        mermaidText(`unmatched ${port.mechanism}: ${port.key}`)
      }"])`,
    );
  }
  return lines.join("\n") + "\n";
}

function dotText(value: string): string {
  return `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

function renderDot(report: ScanReport): string {
  const ids = new Ids("n");
  const lines = [
    "digraph boundaries {",
    "  rankdir=LR;",
    "  node [shape=box];",
  ];
  const groups = groupByRoot(diagramNodes(report, ids));
  let group = 0;
  for (const [root, nodes] of groups) {
    if (root) {
      lines.push(
        `  subgraph cluster_${group++} {`,
        `    label=${dotText(root)};`,
      );
    }
    for (const node of nodes) {
      lines.push(`    ${node.id} [label=${dotText(node.label)}];`);
    }
    if (root) lines.push("  }");
  }
  for (const link of report.links) {
    lines.push(
      `  ${ids.get(link.consumer.ownerId)} -> ${
        ids.get(link.provider.ownerId)
      } [label=${dotText(`${link.key} (${confidence(link.confidence)})`)}];`,
    );
  }
  const missing = new Ids("u");
  const declared = new Set<string>();
  for (const port of report.unmatchedConsumers) {
    const target = missing.get(`${port.mechanism}:${port.key}`);
    if (!declared.has(target)) {
      declared.add(target);
      lines.push(
        `  ${target} [shape=ellipse, style=dashed, label=${
          dotText(`unmatched ${port.mechanism}: ${port.key}`)
        }];`,
      );
    }
    lines.push(
      `  ${ids.get(port.ownerId)} -> ${target} [style=dashed, label=${
        dotText(port.key)
      }];`,
    );
  }
  lines.push("}");
  return lines.join("\n") + "\n";
}
