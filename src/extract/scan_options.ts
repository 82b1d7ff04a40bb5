// What a scan can be told: extractors, threshold, budgets, progress.
import type { LanguageExtractor } from "./extractor.ts";

/**
 * Progress of a scan, reported as files are read and extracted.
 *
 * @example
 * ```ts
 * import type { ScanProgress } from "@portcullis/portcullis/extract";
 *
 * const progress: ScanProgress = { root: "api", phase: "read", done: 10, total: 40 };
 * ```
 */
export interface ScanProgress {
  /** Label of the root being scanned. */
  root: string;
  /** `walk`: listing files; `read`: reading them; `extract`: running extractors; `link`: linking. */
  phase: "walk" | "read" | "extract" | "link";
  /**
   * Files done in this phase: listed (`walk`), read (`read`), read by
   * every extractor that takes them (`extract`); `link` goes from 0 to 1.
   */
  done: number;
  /** Files in this phase; `0` while walking (not known yet). */
  total: number;
}

/**
 * Options for {@linkcode scan}.
 *
 * @example
 * ```ts
 * import type { ScanOptions } from "@portcullis/portcullis/extract";
 *
 * const options: ScanOptions = { minConfidence: 0.5, maxFileBytes: 512 * 1024 };
 * ```
 */
export interface ScanOptions {
  /**
   * The extractors to run.
   * @default {EXTRACTORS}
   */
  extractors?: readonly LanguageExtractor[];
  /**
   * Links below this combined confidence (consumer × provider) are not
   * made. From 0 to 1.
   * @default {0}
   */
  minConfidence?: number;
  /**
   * Larger files are skipped with a warning (minified bundles, dumps).
   * @default {1048576}
   */
  maxFileBytes?: number;
  /**
   * Source files read per root, at most: the walk lists files in path
   * order and stops with a warning at this many.
   * @default {100000}
   */
  maxFilesPerRoot?: number;
  /**
   * Bytes of source read per root, at most: files are read in path order
   * until the next one would not fit, then a warning. Memory during a scan
   * is about ten times the bytes read, up to 35 times for code that is
   * nothing but calls (the extractors keep every port they find).
   * @default {33554432}
   */
  maxBytesPerRoot?: number;
  /**
   * Bytes of the `.gitignore` files that apply to one directory (its own
   * and its parents'), at most; a file that would go over is not applied
   * (a warning). Matching costs up to a few microseconds per path for each
   * KiB of patterns.
   * @default {32768}
   */
  maxGitignoreBytes?: number;
  /**
   * Ports recorded per root, at most: those the extractors find beyond it
   * are left out of the graph (a warning).
   * @default {100000}
   */
  maxPortsPerRoot?: number;
  /**
   * Links per boundary when consumers × providers is larger; see
   * `LinkOptions.maxLinksPerBoundary` of the boundary entry point.
   * @default {1000}
   */
  maxLinksPerBoundary?: number;
  /**
   * Scan a root that is a symbolic link, or is reached through one below
   * the working directory. By default such a root is refused
   * ({@linkcode ScanError} `ROOT_IS_SYMLINK`): in a checkout, a pull
   * request can turn a directory into a link to files outside it.
   * Symbolic links inside a root are never followed.
   * @default {false}
   */
  followRootSymlinks?: boolean;
  /**
   * Directory names never entered.
   * @default {DEFAULT_SKIP_DIRECTORIES}
   */
  skipDirectories?: readonly string[];
  /**
   * Whether server ports declared in test code (files in `test/`, `tests/`,
   * `__tests__/`, `spec/`, or named `*.test.ts`, `*_test.go`,
   * `test_*.py`, `*Test.java`...) are kept. Client ports of test files
   * (load tests, e2e suites) are always kept.
   * @default {false}
   */
  includeTests?: boolean;
  /**
   * Called as the scan proceeds.
   * @default {undefined}
   */
  onProgress?: (progress: ScanProgress) => void;
}
