// A report rendered whole, or shortened to a byte budget: the most entries
// per list that fit, counts kept complete, every format still valid.
import type { BoundaryGraph } from "../boundary/graph.ts";
import { escapeJsonText } from "../boundary/_display_text.ts";
import { buildReport, type ScanReport } from "./report.ts";
import type { RenderReportOptions, ReportFormat } from "./render_report.ts";
import {
  renderText,
  type ReportCut,
  type ReportDiagnostic,
} from "./_report_text.ts";
import { renderDot, renderMermaid } from "./_report_diagram.ts";
import { type DiagramOptions, diagramView } from "./_report_view.ts";
import { renderHtml } from "./_report_html.ts";
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
