// Writes a report as text, JSON, Mermaid or Graphviz DOT, escaped for each
// format and optionally shortened to a byte budget.
import type { BoundaryGraph } from "../boundary/graph.ts";
import type { ExtractDiagnostic } from "./extractor.ts";
import { checkFormat, checkSizeLimit } from "../map/_render_checks.ts";
import { renderFitted } from "./_render_fitted.ts";
import type { DiagramOptions } from "./_report_view.ts";

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
  const format = checkFormat("report", options.format, REPORT_FORMATS);
  checkSizeLimit("report", "maxBytes", options.maxBytes);
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
