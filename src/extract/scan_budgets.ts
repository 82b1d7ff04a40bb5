// The limits that keep a scan of an untrusted repository bounded.

/**
 * A limit of the scan options (`ScanOptions`) that keeps a scan of an untrusted
 * repository bounded in memory and time. Hitting one gives a warning
 * diagnostic naming it and a partial result, never an abort.
 *
 * @example
 * ```ts
 * import type { ScanBudget } from "@portcullis/portcullis/extract";
 *
 * const budget: ScanBudget = "maxBytesPerRoot";
 * ```
 */
export type ScanBudget =
  | "maxFileBytes"
  | "maxFilesPerRoot"
  | "maxBytesPerRoot"
  | "maxGitignoreBytes"
  | "maxPortsPerRoot"
  | "maxLinksPerBoundary";

/**
 * The default of each {@linkcode ScanBudget}.
 *
 * @example
 * ```ts
 * import { SCAN_BUDGET_DEFAULTS } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * assert.equal(SCAN_BUDGET_DEFAULTS.maxFileBytes, 1024 * 1024);
 * ```
 */
export const SCAN_BUDGET_DEFAULTS: Readonly<Record<ScanBudget, number>> = Object
  .freeze({
    maxFileBytes: 1024 * 1024,
    maxFilesPerRoot: 100_000,
    maxBytesPerRoot: 32 * 1024 * 1024,
    maxGitignoreBytes: 32 * 1024,
    maxPortsPerRoot: 100_000,
    maxLinksPerBoundary: 1000,
  });
