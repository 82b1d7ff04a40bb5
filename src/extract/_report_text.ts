// The text report, for people at a terminal. Every string that came from a
// scanned repository (keys, paths, names, permissions, messages) is shown
// with control, C1 and bidirectional characters as `\uXXXX`, and cut when
// very long, so nothing in it can move the cursor, recolour, retitle or
// reorder the terminal, or forge a line of the report.
import { displayText } from "../boundary/_display_text.ts";
import type {
  PortCounts,
  ReportBudgetHit,
  ReportPort,
  ScanReport,
} from "./report.ts";
import type { ExtractDiagnostic } from "./extractor.ts";

/** Longest value shown in one field; the rest is counted. */
const FIELD_LENGTH = 1000;

/** A report cut to fit a byte budget: entries shown per list. */
export interface ReportCut {
  maxBytes: number;
  entriesPerList: number;
}

/** Diagnostics as the report lists them. */
export type ReportDiagnostic = ExtractDiagnostic & { root?: string };

/** A value from the graph, safe to print. */
export function show(value: string): string {
  return displayText(value, FIELD_LENGTH);
}

/** A confidence with at most three decimals. */
export function formatConfidence(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

function where(port: ReportPort): string {
  const file = port.filePath ?? "?";
  const position = port.line === undefined
    ? ""
    : `:${port.line}${port.col === undefined ? "" : `:${port.col}`}`;
  return `${port.root ? `${show(port.root)}/` : ""}${show(file)}${position}`;
}

function ownerName(port: ReportPort): string {
  const at = port.owner.indexOf("::");
  return at === -1 ? "(module)" : show(port.owner.slice(at + 2));
}

function permission(port: ReportPort): string {
  const required = port.detail["permission"];
  if (required) return `  requires ${show(required)}`;
  return port.detail["auth"] === "required" ? "  requires a user" : "";
}

/** The first entries of a list (all without a cut), and a note of the rest. */
function shown<T>(
  lines: string[],
  list: readonly T[],
  cut: ReportCut | undefined,
  write: (item: T) => void,
): void {
  const count = cut === undefined
    ? list.length
    : Math.min(list.length, cut.entriesPerList);
  for (let i = 0; i < count; i++) write(list[i]!);
  if (count < list.length) lines.push(`  ... and ${list.length - count} more`);
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
  cut: ReportCut | undefined,
): void {
  lines.push("", `${title} (${ports.length})`);
  shown(lines, ports, cut, (port) => {
    lines.push(
      `  ${show(port.mechanism)} ${show(port.key)}  ${where(port)}  ${
        ownerName(port)
      }  confidence ${formatConfidence(port.confidence)}${
        withPermission ? permission(port) : ""
      }`,
    );
  });
}

function budgetSection(
  lines: string[],
  hits: readonly ReportBudgetHit[],
  cut: ReportCut | undefined,
): void {
  if (hits.length === 0 && cut === undefined) return;
  if (hits.length > 0) {
    lines.push(
      `Partial result: ${hits.length} budget hit${
        hits.length === 1 ? "" : "s"
      }`,
    );
    shown(lines, hits, cut, (hit) => {
      const file = `${hit.root ? `${hit.root}/` : ""}${hit.filePath}`;
      lines.push(
        `  ${show(hit.budget)}  ${file ? `${show(file)}  ` : ""}${
          show(hit.message)
        }`,
      );
    });
  }
  if (cut !== undefined) {
    lines.push(
      `Shortened to ${cut.maxBytes} bytes: the first ${cut.entriesPerList} entries of each list are shown`,
    );
  }
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
  const width = Math.max(title.length, ...names.map((n) => show(n).length)) +
    2;
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
      `${show(name).padEnd(width)}${files ? cell(files[name] ?? 0, 7) : ""}${
        cell(row.servers, 8)
      }${cell(row.clients, 9)}${cell(row.links, 7)}`,
    );
  }
  return out;
}

/** The text report; `cut` limits each list (counts stay complete). */
export function renderText(
  report: ScanReport,
  diagnostics: readonly ReportDiagnostic[],
  cut?: ReportCut,
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
  budgetSection(lines, report.budgetsHit ?? [], cut);
  lines.push("", `Links, consumer -> provider (${report.links.length})`);
  shown(lines, report.links, cut, (link) => {
    lines.push(
      `  ${show(link.mechanism)} ${show(link.key)}  confidence ${
        formatConfidence(link.confidence)
      }` +
        permission(link.provider),
      `    ${where(link.consumer)}  ${ownerName(link.consumer)}`,
      `    -> ${where(link.provider)}  ${ownerName(link.provider)}` +
        (link.provider.key !== link.key
          ? `  (${show(link.provider.key)})`
          : ""),
    );
  });
  portSection(
    lines,
    "Unmatched consumers",
    report.unmatchedConsumers,
    false,
    cut,
  );
  portSection(
    lines,
    "Unconsumed providers",
    report.unconsumedProviders,
    true,
    cut,
  );
  lines.push("", ...table("language", c.byLanguage, c.filesByLanguage));
  lines.push("", ...table("mechanism", c.byMechanism));
  if (diagnostics.length) {
    lines.push("", `Diagnostics (${diagnostics.length})`);
    shown(lines, diagnostics, cut, (d) => {
      const file = `${d.root ? `${d.root}/` : ""}${d.filePath}`;
      lines.push(
        `  ${show(d.severity).padEnd(7)} ${show(file)}  ${show(d.message)}`,
      );
    });
  }
  return lines.join("\n") + "\n";
}
