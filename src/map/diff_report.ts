import { escapeJsonText } from "../boundary/_display_text.ts";
import type { BoundaryDiff } from "../boundary/diff.ts";
import type { GateVerdict } from "./gate.ts";
import type { ListLimit } from "./_diff_parts.ts";
import { type DiffView, renderDiffText } from "./_diff_text.ts";
import { renderDiffMarkdown } from "./_diff_markdown.ts";
import { sarifLog } from "./_diff_sarif.ts";
import { checkFormat, checkSizeLimit } from "./_render_checks.ts";

/**
 * Formats of {@linkcode renderDiff}: `text` for a CI log, `json` for tools,
 * `markdown` for a pull request comment, `sarif` (2.1.0) for code
 * scanning.
 *
 * @example
 * ```ts
 * import type { DiffFormat } from "@portcullis/portcullis/map";
 *
 * const format: DiffFormat = "sarif";
 * ```
 */
export type DiffFormat = "text" | "json" | "markdown" | "sarif";

/** How each format renders a diff; {@linkcode DIFF_FORMATS} lists them in this order. */
const RENDERERS: Readonly<
  Record<
    DiffFormat,
    (diff: BoundaryDiff, view: DiffView & { repository: string }) => string
  >
> = {
  text: renderDiffText,
  json: (diff, view) => {
    const value: Record<string, unknown> = { ...diff };
    if (view.verdict !== undefined) value["gate"] = view.verdict;
    if (view.limit !== undefined) {
      for (
        const list of [
          "breaking",
          "safeChanges",
          "lostConsumers",
          "newUnmatchedConsumers",
          "newUnconsumedProviders",
        ] as const
      ) value[list] = diff[list].slice(0, view.limit);
      value["shortened"] = { entriesPerList: view.limit };
    }
    return escapeJsonText(JSON.stringify(value, null, 2)) + "\n";
  },
  markdown: renderDiffMarkdown,
  sarif: (diff, view) =>
    escapeJsonText(JSON.stringify(sarifLog(diff, view), null, 2)) + "\n",
};

/**
 * The formats {@linkcode renderDiff} accepts.
 *
 * @example
 * ```ts
 * import { DIFF_FORMATS } from "@portcullis/portcullis/map";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(DIFF_FORMATS, ["text", "json", "markdown", "sarif"]);
 * ```
 */
export const DIFF_FORMATS: readonly DiffFormat[] = Object.keys(
  RENDERERS,
) as DiffFormat[];

/**
 * Options for {@linkcode renderDiff}.
 *
 * @example
 * ```ts
 * import type { RenderDiffOptions } from "@portcullis/portcullis/map";
 *
 * const options: RenderDiffOptions = { format: "markdown", repository: "shop", roots: { shop: { web: "services/web" } } };
 * ```
 */
export interface RenderDiffOptions {
  /**
   * Output format.
   * @default {"text"}
   */
  format?: DiffFormat;
  /**
   * The repository the diff is of (the `name` given to `diffGraphs`):
   * SARIF reports only its own consumers, at their place.
   * @default {"head"}
   */
  repository?: string;
  /**
   * Where the roots (services) of each graph lie in their repository, so
   * file paths are the repository's (a scan records them as `root_paths`
   * metadata): `{ shop: { web: "services/web" } }` writes
   * `services/web/src/api.ts` for the ports of graph `shop`, service `web`.
   * @default {{}}
   */
  roots?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * A gate's verdict to state at the top.
   * @default {undefined}
   */
  verdict?: GateVerdict;
  /**
   * Longest output in UTF-16 code units (GitHub takes comments up to
   * 65,536): a longer one shows only the first entries of each list and
   * says so; counts stay complete. At least 1024.
   * @default {undefined}
   */
  maxLength?: number;
}

function render(
  format: DiffFormat,
  diff: BoundaryDiff,
  view: DiffView & { repository: string },
): string {
  return RENDERERS[format](diff, view);
}

/**
 * Renders a {@linkcode BoundaryDiff} for a CI job: `text`, `json`,
 * `markdown` (a pull request comment) or `sarif` (SARIF 2.1.0, one result
 * per finding at the file and line of the change). Every value that came
 * from a graph is escaped for its format: `\uXXXX` for control, C1 and
 * bidirectional characters in text and JSON, code spans in Markdown (no
 * HTML, link or mention can come out of a route name).
 *
 * @param diff The diff.
 * @param options Format, repository, root paths, verdict and a size limit.
 * @returns The rendered diff, ending with a newline.
 * @throws {RangeError} If the format is unknown or `maxLength` is below 1024.
 *
 * @example Usage
 * ```ts
 * import { diffPorts, type PortRecord } from "@portcullis/portcullis/boundary";
 * import { gateDiff, renderDiff } from "@portcullis/portcullis/map";
 * import assert from "node:assert/strict";
 *
 * const route: PortRecord = {
 *   graph: "users", boundaryId: "b1", mechanism: "http", key: "GET /users/{}", role: "server",
 *   ownerId: "users:app.py::get_user", owner: "app.py::get_user", service: "users",
 *   confidence: 1, filePath: "app.py", line: 12,
 * };
 * const caller: PortRecord = { ...route, graph: "web", role: "client", ownerId: "w", owner: "api.ts::load", service: "web", filePath: "api.ts", line: 3 };
 * const diff = diffPorts({ base: [route], head: [], others: [caller] });
 * const verdict = gateDiff(diff, "breaking");
 *
 * const comment = renderDiff(diff, { format: "markdown", repository: "users", roots: { users: { users: "svc/users" } }, verdict });
 * assert.match(comment, /Boundary gate failed/);
 * assert.match(comment, /`svc\/users\/app.py:12`/);
 * ```
 */
export function renderDiff(
  diff: BoundaryDiff,
  options: RenderDiffOptions = {},
): string {
  const format = checkFormat("the diff", options.format, DIFF_FORMATS);
  const maxLength = options.maxLength;
  checkSizeLimit("the diff", "maxLength", maxLength);
  const view = {
    roots: options.roots ?? {},
    verdict: options.verdict,
    repository: options.repository ?? "head",
    limit: undefined as ListLimit,
  };
  const full = render(format, diff, view);
  if (maxLength === undefined || full.length <= maxLength) return full;
  // the most entries per list that fit
  let low = 0;
  let high = Math.max(
    diff.breaking.length,
    diff.safeChanges.length,
    diff.lostConsumers.length,
    diff.newUnmatchedConsumers.length,
    diff.newUnconsumedProviders.length,
    ...diff.breaking.map((change) => change.consumers.length),
  ) - 1;
  let best = render(format, diff, { ...view, limit: 0 });
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const text = render(format, diff, { ...view, limit: middle });
    if (text.length <= maxLength) {
      best = text;
      low = middle + 1;
    } else high = middle - 1;
  }
  return best;
}
