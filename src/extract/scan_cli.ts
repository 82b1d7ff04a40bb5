// The `scan` command's logic: argument parsing, progress bar, report and
// exit code. `cli.ts` runs it as a program. Uses node: modules only (no
// Deno.*), so it runs in Deno, Node and Bun.
import { displayText, escapeJsonText } from "../boundary/_display_text.ts";
import type { BoundaryGraph } from "../boundary/graph.ts";
import {
  scan,
  type ScanBudget,
  type ScanDiagnostic,
  ScanError,
  type ScanProgress,
} from "./scan.ts";
import { buildReport } from "./report.ts";
import { REPORT_FORMATS, type ReportFormat } from "./render_report.ts";
import { renderFitted, utf8Length } from "./_render_fitted.ts";
import { readBudgetFlag } from "./_cli_budgets.ts";
import { processIo, writeOutput } from "./_cli_io.ts";
import type { GateOptions } from "./_cli_gate.ts";
import {
  GATE_USAGE,
  gateDefaults,
  graphName,
  readGateFlag,
  runGate,
} from "./_cli_gate.ts";
import { exitOnGraphFileError, readGraphFile } from "./_cli_graph_file.ts";
import {
  type Flag,
  readArgs,
  readMinConfidence,
  UsageError,
  usageError,
  withUsage,
} from "./_cli_args.ts";
import { printSummary } from "./_cli_summary.ts";
import { VERSION } from "./_version.ts";
import { DIFF_FORMATS, type DiffFormat } from "../map/diff_report.ts";

/**
 * Where {@linkcode runScanCli} writes: standard output and error, whether
 * stderr is a terminal, and the file writer for `--out`.
 *
 * @example
 * ```ts
 * import type { ScanCliIo } from "@portcullis/portcullis/extract";
 *
 * const out: string[] = [];
 * const io: ScanCliIo = {
 *   stdout: (text) => void out.push(text),
 *   stderr: (text) => void out.push(text),
 *   isTty: false,
 *   writeFile: () => Promise.resolve(),
 * };
 * ```
 */
export interface ScanCliIo {
  /** Writes report text. */
  stdout: (text: string) => void;
  /** Writes errors and progress. */
  stderr: (text: string) => void;
  /**
   * Whether the progress bar may be drawn on stderr: both stderr and
   * stdout are terminals (never over a report piped to a file).
   */
  isTty: boolean;
  /** Writes the `--out` file and report files. */
  writeFile: (path: string, text: string) => Promise<void>;
  /**
   * Reads a graph file (`diff`, `--baseline`, `--other`, `export`) of at
   * most `maxBytes` bytes; rejects a larger one.
   * @default {undefined}
   */
  readFile?: (path: string, maxBytes: number) => Promise<string>;
}

const USAGE = `Usage: portcullis-scan [scan] [options] <dir...>
       portcullis-scan diff [options] <base.json> <head.json>
       portcullis-scan export --format <format> [options] <graph.json>
       portcullis-scan publish [--db <url>] [--repo <name>] <graph.json>
       portcullis-scan query [--db <url>] <query> [arguments]

Finds interface boundaries (HTTP routes and calls, gRPC methods, queue
topics, Temporal activities) in the given source trees, links consumers to
providers and prints a report. With --baseline, prints instead what the
scanned code breaks compared to a graph of it from before (see diff --help).

Options:
  --out <file>             write the graph (graphlens schema v1 JSON)
  --format <format>        report format: text (default), json, mermaid, dot,
                           html (one self-contained page)
  --collapse service       mermaid, dot: one box per service
  --mechanism <list>       mermaid, dot: only http, grpc, queue, temporal
                           (comma-separated; repeatable)
  --min-confidence <n>     do not link pairs below this confidence (0..1)
  --fail-on-unmatched      exit with code 1 when a consumer has no provider,
                           and 3 when the scan is incomplete
  --strict                 exit with code 3 when the scan is incomplete: a
                           file or extractor failed, or a budget was hit
  --follow-root-symlink    scan a root reached through a symbolic link
  --include-tests          keep the routes test code declares (test/, spec/,
                           *.test.ts, *_test.go, test_*.py, *Test.java...)
  --no-progress            never draw the progress bar
  --verbose                list the files left out (binary, too large,
                           generated)
  -h, --help               show this help
  --version                print the version

Breaking-change gate (with --format text, json, markdown or sarif):
  --baseline <graph.json>  the graph of this code before the change
${GATE_USAGE}

Budgets (a hit is a warning and a partial result; sizes take k, m or g):
  --max-file-bytes <n>          skip larger files (default 1m)
  --max-files-per-root <n>      source files per root (default 100000)
  --max-bytes-per-root <n>      bytes of source per root (default 32m)
  --max-gitignore-bytes <n>     .gitignore bytes for one directory (default 32k)
  --max-ports-per-root <n>      ports recorded per root (default 100000)
  --max-links-per-boundary <n>  links on one boundary (default 1000)
  --max-output-bytes <n>        report and diagnostics size (default 16m)

Exit codes: 0 ok, 1 unmatched consumers with --fail-on-unmatched,
2 bad arguments or a root that cannot be scanned, 3 an incomplete scan with
--strict or --fail-on-unmatched.
`;

/** The values of `--mechanism`. */
const MECHANISMS = ["http", "grpc", "queue", "temporal"];

/** Default of `--max-output-bytes`. */
const DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

interface CliArgs {
  roots: string[];
  out?: string;
  format: string;
  baseline?: string;
  gate: GateOptions;
  collapse?: "service";
  mechanisms?: string[];
  minConfidence: number;
  failOnUnmatched: boolean;
  strict: boolean;
  followRootSymlinks: boolean;
  includeTests: boolean;
  budgets: Partial<Record<ScanBudget, number>>;
  maxOutputBytes: number;
  progress: boolean;
  verbose: boolean;
  help: boolean;
  version: boolean;
}

/** The fields of {@linkcode CliArgs} that a flag without a value sets. */
type Switch =
  | "version"
  | "verbose"
  | "failOnUnmatched"
  | "strict"
  | "followRootSymlinks"
  | "includeTests"
  | "progress";

/** The flags without a value: the field each sets, and to what. */
const SWITCHES: Readonly<Record<string, readonly [Switch, boolean]>> = {
  "--version": ["version", true],
  "--verbose": ["verbose", true],
  "--fail-on-unmatched": ["failOnUnmatched", true],
  "--strict": ["strict", true],
  "--follow-root-symlink": ["followRootSymlinks", true],
  "--include-tests": ["includeTests", true],
  "--no-progress": ["progress", false],
};

/** The scan's own options that take a value. */
const FLAGS: Readonly<Record<string, Flag<CliArgs>>> = {
  "--out": "out",
  "--format": "format",
  "--baseline": "baseline",
  "--collapse": (parsed, value) => {
    const collapse = value();
    if (collapse !== "service") {
      throw new UsageError(
        `Cannot parse arguments: --collapse must be service, got "${
          displayText(collapse, 100)
        }"`,
      );
    }
    parsed.collapse = collapse;
  },
  "--mechanism": (parsed, value) => {
    for (const mechanism of value().split(",")) {
      if (!MECHANISMS.includes(mechanism.trim())) {
        throw new UsageError(
          `Cannot parse arguments: --mechanism takes ${
            MECHANISMS.join(", ")
          }, got "${displayText(mechanism, 100)}"`,
        );
      }
      (parsed.mechanisms ??= []).push(mechanism.trim());
    }
  },
  "--min-confidence": (parsed, value) => {
    parsed.minConfidence = readMinConfidence(value());
  },
};

/**
 * Reads a switch, a budget or a gate option into `parsed`: false if `name`
 * is none of them.
 */
function readOtherFlag(
  name: string,
  value: () => string,
  parsed: CliArgs,
): boolean {
  const flag = Object.hasOwn(SWITCHES, name) ? SWITCHES[name] : undefined;
  if (flag !== undefined) {
    parsed[flag[0]] = flag[1];
    return true;
  }
  const budget = readBudgetFlag(name, value);
  if (budget === undefined) return readGateFlag(name, value, parsed.gate);
  if (typeof budget === "string") throw new UsageError(budget);
  if (budget.budget === "maxOutputBytes") {
    parsed.maxOutputBytes = budget.value;
  } else parsed.budgets[budget.budget] = budget.value;
  return true;
}

function parseArgs(args: readonly string[]): CliArgs {
  const parsed: CliArgs = {
    roots: [],
    format: "text",
    gate: gateDefaults(),
    minConfidence: 0,
    failOnUnmatched: false,
    strict: false,
    followRootSymlinks: false,
    includeTests: false,
    budgets: {},
    maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
    progress: true,
    verbose: false,
    help: false,
    version: false,
  };
  readArgs(args, parsed, FLAGS, "roots", readOtherFlag);
  const formats: readonly string[] = parsed.baseline === undefined
    ? REPORT_FORMATS
    : DIFF_FORMATS;
  if (
    (parsed.collapse !== undefined || parsed.mechanisms !== undefined) &&
    parsed.format !== "mermaid" && parsed.format !== "dot"
  ) {
    throw new UsageError(
      "Cannot parse arguments: --collapse and --mechanism apply to the mermaid and dot formats",
    );
  }
  if (!formats.includes(parsed.format)) {
    throw new UsageError(
      `Cannot parse arguments: --format must be one of ${formats.join(", ")}${
        parsed.baseline === undefined ? "" : " with --baseline"
      }, got "${displayText(parsed.format, 100)}"`,
    );
  }
  return parsed;
}

/** A one-line progress bar on stderr, redrawn at most every 100 ms. */
function progressBar(io: ScanCliIo): {
  update: (progress: ScanProgress) => void;
  clear: () => void;
} {
  let last = 0;
  let drawn = false;
  return {
    update(progress): void {
      const now = Date.now();
      const final = progress.done === progress.total;
      if (!final && now - last < 100) return;
      last = now;
      const width = 24;
      const ratio = progress.total > 0 ? progress.done / progress.total : 0;
      const filled = Math.round(ratio * width);
      const bar = "#".repeat(filled) + ".".repeat(width - filled);
      const label = progress.root ? ` ${displayText(progress.root, 60)}` : "";
      // the walk does not know how many files there are: it counts them
      const count = progress.phase === "walk"
        ? `${progress.done} files found`
        : progress.phase === "link"
        ? ""
        : `${progress.done}/${progress.total} files`;
      io.stderr(
        `\r\x1b[2K[${bar}] ${progress.phase}${label}${count && ` ${count}`}`,
      );
      drawn = true;
    },
    clear(): void {
      if (drawn) io.stderr("\r\x1b[2K");
    },
  };
}

/**
 * Runs the `scan` command with the given arguments (without the program
 * name) and returns the exit code: 0 on success, 1 when
 * `--fail-on-unmatched` is set and a consumer has no provider, 2 for bad
 * arguments or a root that cannot be scanned. Unreadable or unparsable
 * files are reported on stderr and the scan goes on.
 *
 * @param args Command-line arguments, e.g. `["--format", "json", "./api"]`.
 * @param io Output streams and the `--out` writer; defaults to the process.
 * @returns The exit code.
 *
 * @example Usage
 * ```ts
 * import { runScanCli, type ScanCliIo } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const errors: string[] = [];
 * const io: ScanCliIo = {
 *   stdout: () => {},
 *   stderr: (text) => void errors.push(text),
 *   isTty: false,
 *   writeFile: () => Promise.resolve(),
 * };
 * assert.equal(await runScanCli(["--format", "xml", "."], io), 2);
 * assert.match(errors.join(""), /--format must be one of/);
 * ```
 */
export function runScanCli(
  args: readonly string[],
  io: ScanCliIo = processIo(),
): Promise<number> {
  return withUsage(args, io, USAGE, parseArgs, scanRoots);
}

async function scanRoots(options: CliArgs, io: ScanCliIo): Promise<number> {
  if (options.version) {
    io.stdout(`portcullis-scan ${VERSION}\n`);
    return 0;
  }
  if (options.roots.length === 0) {
    io.stderr(usageError("Cannot scan: no directory given", USAGE));
    return 2;
  }
  let baseline: BoundaryGraph | undefined;
  if (options.baseline !== undefined) {
    const { baseline: path, gate } = options;
    baseline = await readGraphFile(path, io, gate.maxGraphBytes);
    if (baseline === undefined) return 2;
  }
  const bar = options.progress && io.isTty ? progressBar(io) : undefined;
  let result;
  try {
    result = await scan(options.roots, {
      minConfidence: options.minConfidence,
      followRootSymlinks: options.followRootSymlinks,
      includeTests: options.includeTests,
      ...options.budgets,
      ...(bar ? { onProgress: bar.update } : {}),
    });
  } catch (error) {
    bar?.clear();
    if (error instanceof ScanError || error instanceof RangeError) {
      io.stderr(`${displayText(error.message)}\n`);
      return 2;
    }
    throw error;
  }
  bar?.clear();
  printDiagnostics(result.diagnostics, options.maxOutputBytes, io);
  printSummary(result, options.verbose, io);
  if (options.gate.repo !== undefined) {
    result.graph.metadata["repository"] = options.gate.repo;
  }
  if (options.out !== undefined) {
    const graph = JSON.stringify(result.graph.toJSON(), null, 2);
    if (!await writeOutput(io, options.out, escapeJsonText(graph) + "\n")) {
      return 2;
    }
  }
  if (baseline !== undefined) {
    const errors = result.diagnostics.filter((d) => d.severity === "error")
      .length;
    const gate = {
      ...options.gate,
      minConfidence: options.minConfidence,
      format: options.format as DiffFormat,
      repo: options.gate.repo ?? graphName("head", baseline),
      maxOutputBytes: options.maxOutputBytes,
    };
    const partial = errors === 0 ? [] : [
      `the scan could not read or parse everything (${
        plural(errors, "error")
      })`,
    ];
    return await exitOnGraphFileError(
      io,
      () => runGate(baseline, result.graph, gate, io, partial),
    );
  }
  const report = renderFitted(result.graph, {
    format: options.format as ReportFormat,
    ...(options.collapse === undefined ? {} : { collapse: options.collapse }),
    ...(options.mechanisms === undefined
      ? {}
      : { mechanisms: options.mechanisms }),
    diagnostics: options.format === "json" ? result.diagnostics : [],
    maxBytes: options.maxOutputBytes,
  });
  io.stdout(report.text);
  if (report.cut !== undefined) {
    io.stderr(
      `warning: the report was shortened to ${options.maxOutputBytes} bytes (raise --max-output-bytes)\n`,
    );
  }
  // an incomplete scan cannot vouch for anything: a gate fails closed
  const errors = result.diagnostics.filter((d) => d.severity === "error")
    .length;
  const hits = result.diagnostics.filter((d) => d.budget !== undefined)
    .length + (report.cut === undefined ? 0 : 1);
  const incomplete = errors > 0 || hits > 0;
  let code = 0;
  if (options.failOnUnmatched) {
    const unmatched = buildReport(result.graph).unmatchedConsumers.length;
    if (unmatched > 0) {
      io.stderr(`${unmatched} unmatched consumer(s)\n`);
      code = 1;
    }
  }
  if (incomplete && (options.strict || options.failOnUnmatched)) {
    io.stderr(
      `Cannot pass ${
        options.strict ? "--strict" : "--fail-on-unmatched"
      }: the scan is incomplete (${plural(errors, "error")}, ${
        plural(hits, "budget hit")
      })\n`,
    );
    if (code === 0) code = 3;
  }
  return code;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * Writes the diagnostics to stderr, one escaped line each, until
 * `maxBytes` of them, then counts the rest.
 */
function printDiagnostics(
  diagnostics: readonly ScanDiagnostic[],
  maxBytes: number,
  io: ScanCliIo,
): void {
  let written = 0;
  for (let i = 0; i < diagnostics.length; i++) {
    const d = diagnostics[i]!;
    const file = d.filePath ? `${d.root}/${d.filePath}` : d.root;
    const line = `${d.severity}: ${file ? `${displayText(file, 500)}: ` : ""}${
      displayText(d.message, 2000)
    }\n`;
    written += utf8Length(line);
    if (written > maxBytes) {
      io.stderr(`... and ${diagnostics.length - i} more diagnostics\n`);
      return;
    }
    io.stderr(line);
  }
}
