// The `publish` command: `portcullis-scan publish --db <url> --repo <name>
// <graph.json>` replaces that repository's part of the organisation store.
import { displayText } from "../boundary/_display_text.ts";
import { processIo } from "./_cli_io.ts";
import { type Flag, readArgs, UsageError, withUsage } from "./_cli_args.ts";
import { DEFAULT_MAX_GRAPH_BYTES, graphName, readGraph } from "./_cli_gate.ts";
import {
  exitOnGraphFileError,
  type GraphFileArgs,
  readMaxGraphBytes,
} from "./_cli_graph_file.ts";
import { DB_USAGE, DEFAULT_DB, withStore } from "./_cli_store.ts";
import type { ScanCliIo } from "./scan_cli.ts";

const USAGE = `Usage: portcullis-scan publish [options] <graph.json>

Publishes a repository's graph (written by scan --out) to the organisation
store: its ports, their owners, the graph's metadata and the commit replace
what the repository published before, in one transaction. Publishing the
same graph again changes nothing. Links across repositories are made by the
store's queries (see query --help).

Options:
${DB_USAGE}
  --repo <name>            the repository (default: the graph's, else the
                           file's name)
  --commit <sha>           the commit the graph was scanned at
  --max-graph-bytes <n>    largest graph file read (default 512m)
  -h, --help               show this help

Exit codes: 0 published, 2 bad arguments, a graph that cannot be read or a
store that cannot be written.
`;

interface PublishArgs extends GraphFileArgs {
  db: string;
  repo?: string;
  commit?: string;
}

const FLAGS: Readonly<Record<string, Flag<PublishArgs>>> = {
  "--db": "db",
  "--repo": "repo",
  "--commit": "commit",
  "--max-graph-bytes": readMaxGraphBytes,
};

function parseArgs(args: readonly string[]): PublishArgs {
  const parsed: PublishArgs = {
    files: [],
    db: DEFAULT_DB,
    maxGraphBytes: DEFAULT_MAX_GRAPH_BYTES,
    help: false,
  };
  readArgs(args, parsed, FLAGS, "files");
  if (!parsed.help && parsed.files.length !== 1) {
    throw new UsageError(
      `Cannot publish: expected one <graph.json>, got ${parsed.files.length}`,
    );
  }
  return parsed;
}

/**
 * Runs the `publish` command with the given arguments (after `publish`)
 * and returns the exit code: 0 published, 2 bad arguments, an unreadable
 * graph or a store that cannot be written.
 *
 * @param args Command-line arguments, e.g. `["--db", "pglite:org", "web.json"]`.
 * @param io Output streams and files; defaults to the process.
 * @returns The exit code.
 *
 * @example Usage
 * ```ts
 * import { runPublishCli, type ScanCliIo } from "@portcullis/portcullis/extract";
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
 * assert.equal(await runPublishCli(["--db", "pglite:memory", "web.json"], io), 0);
 * assert.match(out.join(""), /^Published web: 0 ports/);
 * ```
 */
export function runPublishCli(
  args: readonly string[],
  io: ScanCliIo = processIo(),
): Promise<number> {
  return withUsage(args, io, USAGE, parseArgs, publish);
}

function publish(options: PublishArgs, io: ScanCliIo): Promise<number> {
  const path = options.files[0]!;
  return exitOnGraphFileError(io, async () => {
    const graph = await readGraph(path, io, options.maxGraphBytes);
    const repo = options.repo ?? graphName(path, graph);
    return await withStore(options.db, io, async (store) => {
      const result = await store.publish(
        repo,
        graph,
        options.commit === undefined ? {} : { commit: options.commit },
      );
      io.stdout(
        `Published ${
          displayText(repo)
        }: ${result.ports} ports, ${result.owners} owners${
          result.changed ? "" : " (unchanged)"
        }\n`,
      );
      return 0;
    });
  });
}
