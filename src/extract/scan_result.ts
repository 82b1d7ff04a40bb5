// What a scan returns: the graph, the roots, the ports, the diagnostics and
// the files left out.
import type { ExtractDiagnostic } from "./extractor.ts";
import type { ExtractedPort } from "./types.ts";
import type { BoundaryGraph } from "../boundary/graph.ts";
import type { LinkResult } from "../boundary/link.ts";
import type { ScanBudget } from "./scan_budgets.ts";
import type { SkipReason } from "./_read_files.ts";

/**
 * A problem with one file (or one extractor) of a root; the scan went on.
 *
 * @example
 * ```ts
 * import type { ScanDiagnostic } from "@portcullis/portcullis/extract";
 *
 * const problem: ScanDiagnostic = {
 *   root: "api",
 *   filePath: "secret.py",
 *   severity: "error",
 *   message: "Cannot read: EACCES",
 * };
 * ```
 */
export interface ScanDiagnostic extends ExtractDiagnostic {
  /** Label of the root (`""` for what concerns every root, such as links). */
  root: string;
  /** The budget that was hit, when this is a partial result's warning. */
  budget?: ScanBudget;
}

/**
 * One port of a scan, with the root and language it was found in.
 *
 * @example
 * ```ts
 * import type { ScannedPort } from "@portcullis/portcullis/extract";
 *
 * const port: ScannedPort = {
 *   root: "web",
 *   language: "typescript",
 *   extractor: "javascript",
 *   ownerId: "web:src/api.ts",
 *   port: {
 *     ref: { mechanism: "http", role: "client", key: "GET /users", line: 3, col: 9, confidence: 1, detail: {} },
 *     owner: { kind: "module", name: "api.ts", qualifiedName: "src/api.ts", filePath: "src/api.ts" },
 *     filePath: "src/api.ts",
 *   },
 * };
 * ```
 */
export interface ScannedPort {
  /** Label of the root. */
  root: string;
  /** Language of the port's file ({@linkcode languageOf}). */
  language: string;
  /** Name of the extractor that found it. */
  extractor: string;
  /** Id of the owner node in the graph. */
  ownerId: string;
  /** The port. */
  port: ExtractedPort;
}

/**
 * Figures for one scanned root.
 *
 * @example
 * ```ts
 * import type { ScannedRoot } from "@portcullis/portcullis/extract";
 *
 * const root: ScannedRoot = {
 *   path: "./api",
 *   realPath: "/home/ci/repo/api",
 *   label: "api",
 *   files: 12,
 *   bytes: 40960,
 *   ports: 7,
 *   skipped: { binary: 1, "too-large": 0, generated: 2 },
 *   failed: 0,
 * };
 * ```
 */
export interface ScannedRoot {
  /** The root as given. */
  path: string;
  /** The directory that was walked (symbolic links resolved). */
  realPath: string;
  /** Short unique label used in node ids and reports. */
  label: string;
  /** Files read and handed to extractors. */
  files: number;
  /** Bytes of those files. */
  bytes: number;
  /** Ports found. */
  ports: number;
  /**
   * Files left out, by reason: binary (a NUL byte), larger than
   * `maxFileBytes`, or generated code (by name or marker).
   */
  skipped: Record<SkipReason, number>;
  /**
   * Files with an `error` diagnostic: unreadable, nothing of them parsed,
   * or an extractor failed on them (their ports are left out; the other
   * files' ports are kept).
   */
  failed: number;
}

/**
 * A file a scan left out, and why.
 *
 * @example
 * ```ts
 * import type { SkippedFile } from "@portcullis/portcullis/extract";
 *
 * const file: SkippedFile = { root: "web", filePath: "dist/app.min.js", reason: "generated" };
 * ```
 */
export interface SkippedFile {
  /** Label of the root. */
  root: string;
  /** Relative file path. */
  filePath: string;
  /** `binary` (a NUL byte), `too-large` (over `maxFileBytes`) or `generated`. */
  reason: SkipReason;
}

/**
 * What {@linkcode scan} returns.
 *
 * @example
 * ```ts ignore
 * import { scan } from "@portcullis/portcullis/extract";
 *
 * const result = await scan(["./web", "./api"]);
 * console.log(result.link.relationsAdded, result.diagnostics.length);
 * ```
 */
export interface ScanResult {
  /** The merged, linked graph of all roots (graphlens schema v1 via `toJSON()`). */
  graph: BoundaryGraph;
  /** One entry per root, in order. */
  roots: ScannedRoot[];
  /** Every port found, by root. */
  ports: ScannedPort[];
  /**
   * Files that could not be read, parsed or fully understood, and the
   * budgets that were hit (those carry `budget`).
   */
  diagnostics: ScanDiagnostic[];
  /**
   * What linking did (exact keys plus `ANY`-method routes), with the
   * boundaries cut by `maxLinksPerBoundary`.
   */
  link: LinkResult;
  /** Files scanned, by language ({@linkcode languageOf}). */
  filesByLanguage: Record<string, number>;
  /**
   * The files left out (binary, too large, generated), in path order by
   * root; at most `maxFilesPerRoot` listed per root (each root's `skipped`
   * counts them all).
   */
  skippedFiles: SkippedFile[];
}
