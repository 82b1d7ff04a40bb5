// The scan command's budget flags: `--max-files-per-root 5000`,
// `--max-bytes-per-root 512m`...
import { displayText } from "../boundary/_display_text.ts";
import type { ScanBudget } from "./scan_budgets.ts";

/** A budget of the scan, or the command's own output budget. */
export type CliBudget = ScanBudget | "maxOutputBytes";

const FLAGS: Readonly<Record<string, [CliBudget, "count" | "bytes"]>> = {
  "--max-file-bytes": ["maxFileBytes", "bytes"],
  "--max-files-per-root": ["maxFilesPerRoot", "count"],
  "--max-bytes-per-root": ["maxBytesPerRoot", "bytes"],
  "--max-gitignore-bytes": ["maxGitignoreBytes", "bytes"],
  "--max-ports-per-root": ["maxPortsPerRoot", "count"],
  "--max-links-per-boundary": ["maxLinksPerBoundary", "count"],
  "--max-output-bytes": ["maxOutputBytes", "bytes"],
};

const UNITS: Readonly<Record<string, number>> = {
  "": 1,
  k: 1024,
  m: 1024 * 1024,
  g: 1024 * 1024 * 1024,
};

/** The smallest output budget: the report's counts always fit. */
export const MIN_OUTPUT_BYTES = 1024;

/**
 * Reads a budget flag: `undefined` if `name` is not one, the budget and its
 * value, or a usage error message. `value` takes the flag's argument.
 */
export function readBudgetFlag(
  name: string,
  value: () => string,
): { budget: CliBudget; value: number } | string | undefined {
  // an own key only: a root named "constructor" is no flag
  if (!Object.hasOwn(FLAGS, name)) return undefined;
  const flag = FLAGS[name]!;
  const [budget, kind] = flag;
  const raw = value();
  const shown = displayText(raw, 100);
  if (kind === "count") {
    const number = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < 1) {
      return `Cannot parse arguments: ${name} must be an integer from 1, got "${shown}"`;
    }
    return { budget, value: number };
  }
  const match = /^(\d+)([kmg]?)$/i.exec(raw);
  const number = match
    ? Number(match[1]) * UNITS[match[2]!.toLowerCase()]!
    : Number.NaN;
  if (!Number.isSafeInteger(number) || number < 1) {
    return `Cannot parse arguments: ${name} must be a number of bytes (an integer, or with k, m or g), got "${shown}"`;
  }
  if (budget === "maxOutputBytes" && number < MIN_OUTPUT_BYTES) {
    return `Cannot parse arguments: ${name} must be at least ${MIN_OUTPUT_BYTES}, got "${shown}"`;
  }
  return { budget, value: number };
}
