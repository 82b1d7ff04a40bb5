// The closing lines of a scan on stderr: what was scanned, left out and
// failed, and (with --verbose) every file left out.
import { displayText } from "../boundary/_display_text.ts";
import type { ScanResult } from "./scan_result.ts";
import type { SkipReason } from "./_read_files.ts";
import type { ScanCliIo } from "./scan_cli.ts";

const REASONS: Readonly<Record<SkipReason, string>> = {
  binary: "binary",
  "too-large": "too large",
  generated: "generated",
};

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * Writes, for each root without a source file, that none was found; with
 * `verbose`, each file left out; then one summary line: files scanned,
 * ports, files left out by reason, files an extractor failed on.
 */
export function printSummary(
  result: ScanResult,
  verbose: boolean,
  io: ScanCliIo,
): void {
  for (const root of result.roots) {
    if (root.files === 0) {
      io.stderr(
        `No source files found under "${displayText(root.path, 500)}"\n`,
      );
    }
  }
  if (verbose) {
    for (const file of result.skippedFiles) {
      io.stderr(
        `skipped: ${displayText(`${file.root}/${file.filePath}`, 500)} (${
          REASONS[file.reason]
        })\n`,
      );
    }
  }
  const skipped: Record<SkipReason, number> = {
    binary: 0,
    "too-large": 0,
    generated: 0,
  };
  let files = 0;
  let failed = 0;
  for (const root of result.roots) {
    files += root.files;
    failed += root.failed;
    for (const reason of Object.keys(skipped) as SkipReason[]) {
      skipped[reason] += root.skipped[reason];
    }
  }
  const skips = Object.entries(skipped).filter(([, count]) => count > 0)
    .map(([reason, count]) => `${count} ${REASONS[reason as SkipReason]}`);
  const total = Object.values(skipped).reduce((a, b) => a + b, 0);
  io.stderr(
    `Scanned ${plural(files, "file")} in ${
      plural(result.roots.length, "root")
    }: ${plural(result.ports.length, "port")}${
      total > 0
        ? `; skipped ${plural(total, "file")} (${skips.join(", ")})`
        : ""
    }${failed > 0 ? `; ${plural(failed, "file")} failed` : ""}\n`,
  );
}
