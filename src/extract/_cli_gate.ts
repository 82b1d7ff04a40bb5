// The breaking-change gate as `diff` and `scan --baseline` run it: the
// flags they share, reading graph files, writing the reports and the exit
// code.
import { displayText } from "../boundary/_display_text.ts";
import { type BoundaryDiff, diffGraphs } from "../boundary/diff.ts";
import { BoundaryGraph } from "../boundary/graph.ts";
import type { JsonValue } from "../boundary/graph_types.ts";
import {
  DIFF_FORMATS,
  type DiffFormat,
  renderDiff,
} from "../map/diff_report.ts";
import { FAIL_ON, type FailOn, gateDiff } from "../map/gate.ts";
import type { ScanCliIo } from "./scan_cli.ts";
import { UsageError } from "./_cli_args.ts";
import { writeOutput } from "./_cli_io.ts";

/** Default of `--max-graph-bytes`. */
export const DEFAULT_MAX_GRAPH_BYTES = 512 * 1024 * 1024;
/** Markdown written for a pull request comment fits GitHub's 65,536. */
const COMMENT_LENGTH = 60_000;

/** The gate's options, shared by `diff` and `scan --baseline`. */
export interface GateOptions {
  others: string[];
  repo?: string;
  format: DiffFormat;
  failOn: FailOn;
  reports: { format: DiffFormat; path: string }[];
  maxGraphBytes: number;
  /** Ports below this confidence are left out (`--min-confidence`). */
  minConfidence: number;
}

/** The gate's options before any flag. */
export function gateDefaults(): GateOptions {
  return {
    others: [],
    format: "text",
    failOn: "breaking",
    reports: [],
    maxGraphBytes: DEFAULT_MAX_GRAPH_BYTES,
    minConfidence: 0,
  };
}

/** The usage lines of the gate's options. */
export const GATE_USAGE =
  `  --other <graph.json>     a graph of another repository (repeatable)
  --repo <name>            this repository's name in the reports (a scan
                           records it in the graph; default: the graph's,
                           else the file's name)
  --format <format>        report on stdout: text (default), json, markdown, sarif
  --fail-on <level>        breaking (default), unmatched, any, none
  --markdown <file>        also write the Markdown report (a PR comment)
  --sarif <file>           also write the SARIF 2.1.0 report
  --json <file>            also write the JSON report
  --max-graph-bytes <n>    largest graph file read (default 512m)`;

function oneOf<T extends string>(
  name: string,
  value: string,
  allowed: readonly T[],
): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(
      `Cannot parse arguments: ${name} must be one of ${
        allowed.join(", ")
      }, got "${displayText(value, 100)}"`,
    );
  }
  return value as T;
}

/**
 * Reads one of the gate's flags into `options`: false if `name` is not
 * one. `value` takes the flag's argument.
 */
export function readGateFlag(
  name: string,
  value: () => string,
  options: GateOptions,
): boolean {
  switch (name) {
    case "--other":
      options.others.push(value());
      return true;
    case "--repo":
      options.repo = value();
      return true;
    case "--format":
      options.format = oneOf(name, value(), DIFF_FORMATS);
      return true;
    case "--fail-on":
      options.failOn = oneOf(name, value(), FAIL_ON);
      return true;
    case "--markdown":
    case "--sarif":
    case "--json":
      options.reports.push({
        format: name.slice(2) as DiffFormat,
        path: value(),
      });
      return true;
    case "--max-graph-bytes":
      options.maxGraphBytes = graphBytes(value());
      return true;
  }
  return false;
}

/** The value of `--max-graph-bytes`: bytes, or with k, m or g. */
export function graphBytes(raw: string): number {
  const match = /^(\d+)([kmg]?)$/i.exec(raw);
  const unit = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[
    (match?.[2] ?? "").toLowerCase() as "" | "k" | "m" | "g"
  ];
  const bytes = match ? Number(match[1]) * unit : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new UsageError(
      `Cannot parse arguments: --max-graph-bytes must be a number of bytes, got "${
        displayText(raw, 100)
      }"`,
    );
  }
  return bytes;
}

/** A graph file could not be read: exit code 2. */
export class GraphFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GraphFileError";
  }
}

/**
 * The name of a graph's repository: its `repository` metadata (`scan
 * --repo` records it), else the file's name without folders and `.json`
 * (`org/web.json` is `web`).
 */
export function graphName(path: string, graph?: BoundaryGraph): string {
  const recorded = graph?.metadata["repository"];
  if (typeof recorded === "string" && recorded !== "") return recorded;
  const base = path.replace(/\\/g, "/").split("/").pop() ?? path;
  return base.replace(/\.json$/i, "") || base;
}

/** Reads and validates a graph file. */
export async function readGraph(
  path: string,
  io: ScanCliIo,
  maxBytes: number,
): Promise<BoundaryGraph> {
  const read = io.readFile;
  if (read === undefined) {
    throw new GraphFileError(
      `Cannot read "${displayText(path)}": no file reader`,
    );
  }
  let text: string;
  try {
    text = await read(path, maxBytes);
  } catch (error) {
    throw new GraphFileError(
      `Cannot read "${displayText(path)}": ${
        displayText((error as Error).message, 500)
      }`,
    );
  }
  try {
    return BoundaryGraph.fromJSON(text);
  } catch (error) {
    throw new GraphFileError(
      `Cannot load "${displayText(path)}": ${
        displayText((error as Error).message, 2000)
      }`,
    );
  }
}

/** Sets an own property, even one named `__proto__`. */
export function define<T>(
  record: Record<string, T>,
  key: string,
  value: T,
): void {
  Object.defineProperty(record, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** The root paths a scan records, read defensively. */
export function rootPaths(
  value: JsonValue | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return out;
  }
  for (const [label, path] of Object.entries(value)) {
    if (typeof path === "string") define(out, label, path);
  }
  return out;
}

/**
 * Diffs `base` and `head` against the other graphs, prints the report,
 * writes the report files and returns the gate's exit code. `partial`
 * adds reasons the head is incomplete (a scan's errors).
 */
export async function runGate(
  base: BoundaryGraph,
  head: BoundaryGraph,
  options: GateOptions & { repo: string; maxOutputBytes: number },
  io: ScanCliIo,
  partial: readonly string[] = [],
): Promise<number> {
  const others = [];
  for (const path of options.others) {
    const graph = await readGraph(path, io, options.maxGraphBytes);
    others.push({ name: graphName(path, graph), graph });
  }
  const diff = diffGraphs(base, head, {
    name: options.repo,
    others,
    minConfidence: options.minConfidence,
  });
  diff.partial.push(...partial);
  const roots: Record<string, Record<string, string>> = {};
  for (const other of others) {
    define(roots, other.name, rootPaths(other.graph.metadata["root_paths"]));
  }
  define(roots, options.repo, {
    ...rootPaths(base.metadata["root_paths"]),
    ...rootPaths(head.metadata["root_paths"]),
  });
  return await reportGate(diff, roots, options, io);
}

/**
 * Judges a diff, prints its report, writes the report files and returns
 * the gate's exit code. `roots` are the root paths of each repository's
 * scan (for links in the reports).
 */
export async function reportGate(
  diff: BoundaryDiff,
  roots: Record<string, Record<string, string>>,
  options: GateOptions & { repo: string; maxOutputBytes: number },
  io: ScanCliIo,
): Promise<number> {
  const verdict = gateDiff(diff, options.failOn);
  const view = { repository: options.repo, roots, verdict };
  for (const report of options.reports) {
    const text = renderDiff(diff, {
      ...view,
      format: report.format,
      maxLength: report.format === "markdown"
        ? COMMENT_LENGTH
        : options.maxOutputBytes,
    });
    if (!await writeOutput(io, report.path, text)) return 2;
  }
  io.stdout(
    renderDiff(diff, {
      ...view,
      format: options.format,
      maxLength: Math.max(1024, options.maxOutputBytes),
    }),
  );
  if (!verdict.passed) {
    io.stderr(
      `${
        verdict.exitCode === 3 ? "Cannot vouch for the change" : "Gate failed"
      }: ${verdict.reasons.map((r) => displayText(r)).join("; ")}\n`,
    );
  }
  return verdict.exitCode;
}
