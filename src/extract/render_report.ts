// Writes a report as text, JSON, Mermaid or Graphviz DOT, escaped for each
// format and optionally shortened to a byte budget.
import type { BoundaryGraph } from "../boundary/graph.ts";
import { escapeJsonText } from "../boundary/_display_text.ts";
import type { ExtractDiagnostic } from "./_extractor.ts";
import { buildReport, type ScanReport } from "./report.ts";
import {
  renderText,
  type ReportCut,
  type ReportDiagnostic,
} from "./_report_text.ts";
import { renderDot, renderMermaid } from "./_report_diagram.ts";

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
  /**
   * Longest report in UTF-8 bytes: a larger one shows only the first
   * entries of each list (the same number in each, as many as fit; counts
   * stay complete) and says so. At least 1024.
   * @default {undefined}
   */
  maxBytes?: number;
}

/**
 * Renders the report of a linked graph as `text` (for people), `json`
 * (for tools), `mermaid` (a flowchart) or `dot` (Graphviz).
 *
 * Every format escapes what came from the scanned code: the text report
 * shows control, C1 and bidirectional characters as `\uXXXX`, JSON writes
 * them as JSON escapes, Mermaid labels use entity codes for `%`, `#`, `"`
 * and brackets, and DOT labels escape `&` so Graphviz writes well-formed
 * SVG.
 *
 * @param graph A linked graph.
 * @param options Format, diagnostics to include and a byte budget.
 * @returns The rendered report, ending with a newline.
 * @throws {RangeError} If the format is unknown or `maxBytes` is not an
 *   integer from 1024.
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
  if (!REPORT_FORMATS.includes(format)) {
    throw new RangeError(
      `Cannot render report: unknown format "${String(format)}"`,
    );
  }
  const maxBytes = options.maxBytes;
  if (
    maxBytes !== undefined &&
    (!Number.isSafeInteger(maxBytes) || maxBytes < 1024)
  ) {
    throw new RangeError(
      `Cannot render report: maxBytes must be an integer from 1024, got ${
        String(maxBytes)
      }`,
    );
  }
  return renderFitted(graph, { ...options, format }).text;
}

/**
 * {@linkcode renderReport} (options already checked), also telling how the
 * report was cut to fit `maxBytes`, if it was.
 */
export function renderFitted(
  graph: BoundaryGraph,
  options: RenderReportOptions & { format: ReportFormat },
): { text: string; cut: ReportCut | undefined } {
  const { format, maxBytes } = options;
  const report = buildReport(graph);
  const diagnostics = options.diagnostics ?? [];
  const full = render(format, report, diagnostics, undefined);
  if (maxBytes === undefined || utf8Length(full) <= maxBytes) {
    return { text: full, cut: undefined };
  }
  // the most entries per list that fit (a list shorter than the limit is
  // shown whole)
  let low = 0;
  let high = Math.max(
    report.links.length,
    report.unmatchedConsumers.length,
    report.unconsumedProviders.length,
    report.budgetsHit?.length ?? 0,
    diagnostics.length,
  ) - 1;
  let best: { text: string; cut: ReportCut } | undefined;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const cut = { maxBytes, entriesPerList: middle };
    const text = render(format, report, diagnostics, cut);
    if (utf8Length(text) <= maxBytes) {
      best = { text, cut };
      low = middle + 1;
    } else high = middle - 1;
  }
  return best ??
    { text: EMPTY_REPORTS[format], cut: { maxBytes, entriesPerList: 0 } };
}

/** What is left when not even the counts fit (at least 1024 bytes do). */
const EMPTY_REPORTS: Readonly<Record<ReportFormat, string>> = {
  text: "The report does not fit its byte budget\n",
  json: '{ "shortened": { "entriesPerList": 0 } }\n',
  mermaid: "flowchart LR\n%% the report does not fit its byte budget\n",
  dot: "// the report does not fit its byte budget\ndigraph boundaries {\n}\n",
};

function render(
  format: ReportFormat,
  report: ScanReport,
  diagnostics: readonly ReportDiagnostic[],
  cut: ReportCut | undefined,
): string {
  switch (format) {
    case "text":
      return renderText(report, diagnostics, cut);
    case "json":
      return renderJson(report, diagnostics, cut);
    case "mermaid":
      return renderMermaid(report, cut);
    case "dot":
      return renderDot(report, cut);
  }
}

/**
 * The report as JSON; C1, bidirectional and other invisible characters
 * written as `\uXXXX` (the same JSON value, safe in a terminal).
 */
function renderJson(
  report: ScanReport,
  diagnostics: readonly ReportDiagnostic[],
  cut: ReportCut | undefined,
): string {
  const value: Record<string, unknown> = { ...report, diagnostics };
  if (cut !== undefined) {
    const first = <T>(list: readonly T[] | undefined): T[] | undefined =>
      list?.slice(0, cut.entriesPerList);
    value["links"] = first(report.links);
    value["unmatchedConsumers"] = first(report.unmatchedConsumers);
    value["unconsumedProviders"] = first(report.unconsumedProviders);
    value["budgetsHit"] = first(report.budgetsHit);
    value["diagnostics"] = first(diagnostics);
    value["shortened"] = cut;
  }
  return escapeJsonText(JSON.stringify(value, null, 2)) + "\n";
}

/** Bytes of the text in UTF-8. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      // a pair: 4 bytes for 2 code units
      bytes += 1;
      i++;
    } else bytes += 2;
  }
  return bytes;
}
