// Reads what the `scan` command writes: the graph (`--out`, graphlens schema
// v1) for every port, the JSON report (`--format json`) for the links. Only
// these documented formats are read, never the extractors' internals.
import type { ScannedLink, ScannedPort } from "./_score.ts";

interface GraphRelationJson {
  kind: string;
  metadata?: Record<string, unknown>;
}

interface ReportPortJson {
  mechanism: string;
  key: string;
  role: "server" | "client";
  filePath?: string;
  line?: number;
  confidence: number;
}

function portOf(
  metadata: Record<string, unknown>,
  role: "server" | "client",
): ScannedPort {
  return {
    mechanism: String(metadata["mechanism"] ?? ""),
    role,
    key: String(metadata["key"] ?? ""),
    file: String(metadata["file_path"] ?? ""),
    line: Number(metadata["line"] ?? 0),
    confidence: Number(metadata["confidence"] ?? 0),
  };
}

/** Every `exposes` (server) and `consumes` (client) relation of a graph document. */
export function portsFromGraph(graph: unknown): ScannedPort[] {
  const relations = (graph as { relations?: GraphRelationJson[] }).relations;
  if (!Array.isArray(relations)) {
    throw new TypeError("Cannot read the scan graph: no relations array");
  }
  const ports: ScannedPort[] = [];
  for (const relation of relations) {
    if (relation.kind !== "exposes" && relation.kind !== "consumes") continue;
    ports.push(
      portOf(
        relation.metadata ?? {},
        relation.kind === "exposes" ? "server" : "client",
      ),
    );
  }
  return ports;
}

function reportPort(port: ReportPortJson): ScannedPort {
  return {
    mechanism: port.mechanism,
    role: port.role,
    key: port.key,
    file: port.filePath ?? "",
    line: port.line ?? 0,
    confidence: port.confidence,
  };
}

/** The `links` of a JSON report, each with its two ports. */
export function linksFromReport(report: unknown): ScannedLink[] {
  const links = (report as {
    links?: { consumer: ReportPortJson; provider: ReportPortJson }[];
  }).links;
  if (!Array.isArray(links)) {
    throw new TypeError("Cannot read the scan report: no links array");
  }
  return links.map((link) => ({
    consumer: reportPort(link.consumer),
    provider: reportPort(link.provider),
  }));
}
