// The `diff` command: `portcullis-scan diff <base.json> <head.json>`, the
// breaking-change gate of a CI job.
import { readBudgetFlag } from "./_cli_budgets.ts";
import { processIo } from "./_cli_io.ts";
import {
  type Flag,
  readArgs,
  readMinConfidence,
  UsageError,
  withUsage,
} from "./_cli_args.ts";
import type { GateOptions } from "./_cli_gate.ts";
import {
  define,
  GATE_USAGE,
  gateDefaults,
  graphName,
  readGateFlag,
  readGraph,
  reportGate,
  rootPaths,
  runGate,
} from "./_cli_gate.ts";
import { exitOnGraphFileError } from "./_cli_graph_file.ts";
import { withStore } from "./_cli_store.ts";
import type { ScanCliIo } from "./scan_cli.ts";

const USAGE = `Usage: portcullis-scan diff [options] <base.json> <head.json>
       portcullis-scan diff --db <url> [options] <head.json>

Compares two graphs of one repository, before and after a change (written
by scan --out), against the graphs of the other repositories, and fails a
CI job when the change breaks a consumer: a provider removed or changed
(method, path shape, key) that a consumer still uses. Also lists
consumers that lost their provider, new unmatched consumers and new
unconsumed providers. With --db, the base is what the repository published
to the organisation store and the other graphs are every other repository
published there (see publish --help).

Options:
${GATE_USAGE}
  --db <url>               gate against the organisation store (postgres://
                           or pglite:<dir>) instead of --other files
  --min-confidence <n>     leave out ports below this confidence (0..1)
  --max-output-bytes <n>   report size (default 16m)
  -h, --help               show this help

Exit codes: 0 the gate passed, 1 it failed (findings at the --fail-on
level), 2 bad arguments or a graph that cannot be read, 3 a graph is
partial (its scan hit a budget), so the gate cannot vouch for the change.
`;

const DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

interface DiffArgs extends GateOptions {
  files: string[];
  db?: string;
  maxOutputBytes: number;
  help: boolean;
}

const FLAGS: Readonly<Record<string, Flag<DiffArgs>>> = {
  "--db": "db",
  "--min-confidence": (parsed, value) => {
    parsed.minConfidence = readMinConfidence(value());
  },
  "--max-output-bytes": (parsed, value) => {
    const budget = readBudgetFlag("--max-output-bytes", value);
    if (typeof budget === "string") throw new UsageError(budget);
    parsed.maxOutputBytes = budget!.value;
  },
};

function parseArgs(args: readonly string[]): DiffArgs {
  const defaults: DiffArgs = {
    ...gateDefaults(),
    files: [],
    maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
    help: false,
  };
  return readArgs(args, defaults, FLAGS, "files", readGateFlag);
}

/**
 * Runs the `diff` command with the given arguments (after `diff`) and
 * returns the exit code: 0 the gate passed, 1 it failed, 2 bad arguments
 * or an unreadable graph, 3 a partial graph (the gate fails closed).
 *
 * @param args Command-line arguments, e.g. `["base.json", "head.json"]`.
 * @param io Output streams and files; defaults to the process.
 * @returns The exit code.
 *
 * @example Usage
 * ```ts
 * import { runDiffCli, type ScanCliIo } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const graph = JSON.stringify({ schema_version: 1, metadata: {}, nodes: [], relations: [] });
 * const out: string[] = [];
 * const io: ScanCliIo = {
 *   stdout: (text) => void out.push(text),
 *   stderr: () => {},
 *   isTty: false,
 *   writeFile: () => Promise.resolve(),
 *   readFile: () => Promise.resolve(graph),
 * };
 * assert.equal(await runDiffCli(["base.json", "head.json"], io), 0);
 * assert.match(out.join(""), /0 breaking changes/);
 * ```
 */
export function runDiffCli(
  args: readonly string[],
  io: ScanCliIo = processIo(),
): Promise<number> {
  return withUsage(args, io, USAGE, parseArgs, (options) => {
    if (options.db !== undefined) return diffOrg(options.db, options, io);
    return diffFiles(options, io);
  });
}

/** The gate between two graph files: `diff <base.json> <head.json>`. */
function diffFiles(options: DiffArgs, io: ScanCliIo): Promise<number> {
  if (options.files.length !== 2) {
    throw new UsageError(
      `Cannot diff: expected <base.json> <head.json>, got ${options.files.length} file(s)`,
    );
  }
  const [basePath, headPath] = options.files as [string, string];
  return exitOnGraphFileError(io, async () => {
    const base = await readGraph(basePath, io, options.maxGraphBytes);
    const head = await readGraph(headPath, io, options.maxGraphBytes);
    return await runGate(
      base,
      head,
      { ...options, repo: options.repo ?? graphName(headPath, head) },
      io,
    );
  });
}

/** The gate against the organisation store: `diff --db <url> <head.json>`. */
async function diffOrg(
  db: string,
  options: DiffArgs,
  io: ScanCliIo,
): Promise<number> {
  if (options.files.length !== 1 || options.others.length > 0) {
    io.stderr(
      `Cannot diff: with --db, expected one <head.json> and no --other, got ${options.files.length} file(s)\n\n${USAGE}`,
    );
    return 2;
  }
  const headPath = options.files[0]!;
  return await exitOnGraphFileError(io, async () => {
    const head = await readGraph(headPath, io, options.maxGraphBytes);
    const repo = options.repo ?? graphName(headPath, head);
    return await withStore(db, io, async (store) => {
      const diff = await store.diff(repo, head, {
        minConfidence: options.minConfidence,
      });
      // Where each repository was scanned, for the reports' file links.
      const roots: Record<string, Record<string, string>> = {};
      for (const published of await store.repositories()) {
        define(
          roots,
          published.repo,
          rootPaths(published.metadata["root_paths"]),
        );
      }
      define(roots, repo, rootPaths(head.metadata["root_paths"]));
      return await reportGate(diff, roots, { ...options, repo }, io);
    });
  });
}
