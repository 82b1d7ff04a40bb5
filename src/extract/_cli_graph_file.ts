// What the commands that read graph files (`diff`, `export`, `publish`,
// `scan --baseline`) share: the --max-graph-bytes option and the exit code
// of a graph that cannot be read.
import type { BoundaryGraph } from "../boundary/graph.ts";
import { graphBytes, GraphFileError, readGraph } from "./_cli_gate.ts";
import type { ScanCliIo } from "./scan_cli.ts";

/** The arguments of a command that reads graph files. */
export interface GraphFileArgs {
  /** The graph files named on the command line. */
  files: string[];
  /** The largest graph file read (`--max-graph-bytes`). */
  maxGraphBytes: number;
  /** `--help`. */
  help: boolean;
}

/** Reads `--max-graph-bytes <n>` into `parsed`. */
export function readMaxGraphBytes(
  parsed: { maxGraphBytes: number },
  value: () => string,
): void {
  parsed.maxGraphBytes = graphBytes(value());
}

/**
 * Runs `fn`; a graph file it cannot read ({@linkcode GraphFileError})
 * prints the message and exits with 2.
 */
export async function exitOnGraphFileError(
  io: ScanCliIo,
  fn: () => Promise<number>,
): Promise<number> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof GraphFileError)) throw error;
    io.stderr(`${error.message}\n`);
    return 2;
  }
}

/**
 * Reads a graph file; one that cannot be read prints the message and
 * resolves to undefined (the command exits with 2).
 */
export async function readGraphFile(
  path: string,
  io: ScanCliIo,
  maxBytes: number,
): Promise<BoundaryGraph | undefined> {
  let graph: BoundaryGraph | undefined;
  await exitOnGraphFileError(io, async () => {
    graph = await readGraph(path, io, maxBytes);
    return 0;
  });
  return graph;
}
