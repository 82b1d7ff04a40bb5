// `portcullis-scan <command>`: scan (the default), diff, export, publish or
// query.
import { processIo } from "./_cli_io.ts";
import { runDiffCli } from "./diff_cli.ts";
import { runExportCli } from "./export_cli.ts";
import { runPublishCli } from "./publish_cli.ts";
import { runQueryCli } from "./query_cli.ts";
import { runScanCli, type ScanCliIo } from "./scan_cli.ts";

const COMMANDS: Readonly<
  Record<string, (args: readonly string[], io: ScanCliIo) => Promise<number>>
> = {
  scan: runScanCli,
  diff: runDiffCli,
  export: runExportCli,
  publish: runPublishCli,
  query: runQueryCli,
};

/**
 * Runs `portcullis-scan` with the given arguments (without the program
 * name): the first argument names the command, `scan`, `diff`,
 * `export`, `publish` or `query`; anything else runs `scan` with all of them (so a directory
 * named like a command is scanned with `scan diff` or `./diff`).
 *
 * @param args Command-line arguments, e.g. `["diff", "base.json", "head.json"]`.
 * @param io Output streams and files; defaults to the process.
 * @returns The command's exit code.
 *
 * @example Usage
 * ```ts
 * import { runCli, type ScanCliIo } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const out: string[] = [];
 * const io: ScanCliIo = {
 *   stdout: (text) => void out.push(text),
 *   stderr: () => {},
 *   isTty: false,
 *   writeFile: () => Promise.resolve(),
 * };
 * assert.equal(await runCli(["diff", "--help"], io), 0);
 * assert.match(out.join(""), /^Usage: portcullis-scan diff/);
 * ```
 */
export function runCli(
  args: readonly string[],
  io: ScanCliIo = processIo(),
): Promise<number> {
  const command = args[0] === undefined ? undefined : COMMANDS[args[0]];
  if (command !== undefined && Object.hasOwn(COMMANDS, args[0]!)) {
    return command(args.slice(1), io);
  }
  return runScanCli(args, io);
}
