// The `export` command: `portcullis-scan export --format <f> <graph.json>`
// writes a graph where organisations keep such graphs.
import { join } from "node:path";
import { displayText } from "../boundary/_display_text.ts";
import {
  EXPORT_FORMATS,
  type ExportFormat,
  exportGraph,
} from "../map/export_graph.ts";
import { processIo, writeOutput } from "./_cli_io.ts";
import { type Flag, readArgs, UsageError, withUsage } from "./_cli_args.ts";
import { DEFAULT_MAX_GRAPH_BYTES, graphName, readGraph } from "./_cli_gate.ts";
import {
  exitOnGraphFileError,
  type GraphFileArgs,
  readMaxGraphBytes,
} from "./_cli_graph_file.ts";
import type { ScanCliIo } from "./scan_cli.ts";

const USAGE =
  `Usage: portcullis-scan export --format <format> [options] <graph.json>

Writes a graph (from scan --out) as files for the tools organisations keep
such graphs in.

Formats:
  backstage   catalog-info.yaml: a Component per service, an API per
              interface it provides, providesApis/consumesApis from the links
  cyclonedx   bom.cdx.json: CycloneDX 1.6 services, endpoints, data flows
  cypher      graph.cypher: a script for cypher-shell (UNWIND ... MERGE)
  csv         nodes.csv and relationships.csv for neo4j-admin database import
  openapi     openapi/<service>.json: an OpenAPI 3.1 skeleton per service

Options:
  --format <format>        one of the formats above (required)
  --out-dir <dir>          where to write the files (default: .)
  --name <name>            the whole's name (default: the graph file's name)
  --owner <ref>            Backstage spec.owner (default: unknown)
  --system <name>          Backstage spec.system
  --api-version <version>  OpenAPI info.version (default: 0.0.0)
  --max-graph-bytes <n>    largest graph file read (default 512m)
  -h, --help               show this help

Exit codes: 0 written, 2 bad arguments, a graph that cannot be read or a
file that cannot be written.
`;

interface ExportArgs extends GraphFileArgs {
  format?: ExportFormat;
  outDir: string;
  name?: string;
  owner?: string;
  system?: string;
  version?: string;
}

const FLAGS: Readonly<Record<string, Flag<ExportArgs>>> = {
  "--out-dir": "outDir",
  "--name": "name",
  "--owner": "owner",
  "--system": "system",
  "--api-version": "version",
  "--max-graph-bytes": readMaxGraphBytes,
  "--format": (parsed, value) => {
    const format = value();
    if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(
        `Cannot parse arguments: --format must be one of ${
          EXPORT_FORMATS.join(", ")
        }, got "${displayText(format, 100)}"`,
      );
    }
    parsed.format = format as ExportFormat;
  },
};

function parseArgs(args: readonly string[]): ExportArgs {
  const parsed: ExportArgs = {
    files: [],
    outDir: ".",
    maxGraphBytes: DEFAULT_MAX_GRAPH_BYTES,
    help: false,
  };
  readArgs(args, parsed, FLAGS, "files");
  if (!parsed.help && parsed.format === undefined) {
    throw new UsageError("Cannot parse arguments: --format is required");
  }
  return parsed;
}

/**
 * Runs the `export` command with the given arguments (after `export`) and
 * returns the exit code: 0 when every file was written, 2 for bad
 * arguments, an unreadable graph or a file that cannot be written.
 *
 * @param args Command-line arguments, e.g. `["--format", "cyclonedx", "graph.json"]`.
 * @param io Output streams and files; defaults to the process.
 * @returns The exit code.
 *
 * @example Usage
 * ```ts
 * import { runExportCli, type ScanCliIo } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const written = new Map<string, string>();
 * const io: ScanCliIo = {
 *   stdout: () => {},
 *   stderr: () => {},
 *   isTty: false,
 *   writeFile: (path, text) => Promise.resolve(void written.set(path, text)),
 *   readFile: () => Promise.resolve('{"schema_version":1,"metadata":{},"nodes":[],"relations":[]}'),
 * };
 * assert.equal(await runExportCli(["--format", "cypher", "--out-dir", "out", "graph.json"], io), 0);
 * assert.deepEqual([...written.keys()], ["out/graph.cypher"]);
 * ```
 */
export function runExportCli(
  args: readonly string[],
  io: ScanCliIo = processIo(),
): Promise<number> {
  return withUsage(args, io, USAGE, parseArgs, (options) => {
    if (options.files.length !== 1) {
      throw new UsageError(
        `Cannot export: expected one <graph.json>, got ${options.files.length}`,
      );
    }
    return write(options, io);
  });
}

function write(options: ExportArgs, io: ScanCliIo): Promise<number> {
  const path = options.files[0]!;
  return exitOnGraphFileError(io, async () => {
    const graph = await readGraph(path, io, options.maxGraphBytes);
    const files = exportGraph(graph, {
      format: options.format!,
      name: options.name ?? graphName(path),
      ...(options.owner === undefined ? {} : { owner: options.owner }),
      ...(options.system === undefined ? {} : { system: options.system }),
      ...(options.version === undefined ? {} : { version: options.version }),
    });
    for (const file of files) {
      const target = join(options.outDir, file.path);
      if (!await writeOutput(io, target, file.text)) return 2;
      io.stdout(`wrote ${displayText(target)}\n`);
    }
    return 0;
  });
}
