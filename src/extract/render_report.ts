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
import { type DiagramOptions, diagramView } from "./_report_view.ts";
import { renderHtml } from "./_report_html.ts";

export type { DiagramOptions };

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
export type ReportFormat = "text" | "json" | "mermaid" | "dot" | "html";

/**
 * The formats {@linkcode renderReport} accepts.
 *
 * @example
 * ```ts
 * import { REPORT_FORMATS } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(REPORT_FORMATS, ["text", "json", "mermaid", "dot", "html"]);
 * ```
 */
export const REPORT_FORMATS: readonly ReportFormat[] = [
  "text",
  "json",
  "mermaid",
  "dot",
  "html",
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
export interface RenderReportOptions extends DiagramOptions {
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
 * (for tools), `mermaid` (a flowchart), `dot` (Graphviz) or `html` (one
 * self-contained page: services in columns from callers to callees,
 * collapsible to one box per service, filters by mechanism, confidence and
 * unmatched calls, a search, and the ports of a link with file and line on
 * a click; it embeds the JSON report and loads nothing). `collapse` and
 * `mechanisms` choose what the diagrams draw.
 *
 * Every format escapes what came from the scanned code: the text report
 * shows control, C1 and bidirectional characters as `\uXXXX`, JSON writes
 * them as JSON escapes, Mermaid labels use entity codes for `%`, `#`, `"`
 * and brackets, DOT labels escape `&` so Graphviz writes well-formed
 * SVG, and the HTML page sets every value with `textContent` under a
 * Content-Security-Policy that allows only its own script and style.
 *
 * @param graph A linked graph.
 * @param options Format, diagnostics to include and a byte budget.
 * @returns The rendered report, ending with a newline.
 * @throws {RangeError} If the format is unknown, `maxBytes` is not an
 *   integer from 1024, `collapse` is not `service` or `mechanisms` is not
 *   a list of strings.
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
  if (options.collapse !== undefined && options.collapse !== "service") {
    throw new RangeError(
      `Cannot render report: collapse must be "service", got "${
        String(options.collapse)
      }"`,
    );
  }
  if (
    options.mechanisms !== undefined &&
    (!Array.isArray(options.mechanisms) ||
      !options.mechanisms.every((m) => typeof m === "string"))
  ) {
    throw new RangeError(
      "Cannot render report: mechanisms must be a list of strings",
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
  const view = { collapse: options.collapse, mechanisms: options.mechanisms };
  const full = render(format, report, diagnostics, undefined, view);
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
    const text = render(format, report, diagnostics, cut, view);
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
  html:
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Service map</title></head><body><p>The report does not fit its byte budget.</p></body></html>\n',
};

function render(
  format: ReportFormat,
  report: ScanReport,
  diagnostics: readonly ReportDiagnostic[],
  cut: ReportCut | undefined,
  view: {
    collapse?: "service" | undefined;
    mechanisms?: readonly string[] | undefined;
  },
): string {
  switch (format) {
    case "text":
      return renderText(report, diagnostics, cut);
    case "json":
      return renderJson(report, diagnostics, cut);
    case "mermaid":
      return renderMermaid(diagramView(report, diagram(view)), cut);
    case "dot":
      return renderDot(diagramView(report, diagram(view)), cut);
    case "html":
      return renderHtml(report, renderJson(report, diagnostics, cut));
  }
}

/** The diagram options without `undefined` entries. */
function diagram(
  view: {
    collapse?: "service" | undefined;
    mechanisms?: readonly string[] | undefined;
  },
): DiagramOptions {
  const options: DiagramOptions = {};
  if (view.collapse !== undefined) options.collapse = view.collapse;
  if (view.mechanisms !== undefined) options.mechanisms = view.mechanisms;
  return options;
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
