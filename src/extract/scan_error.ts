/**
 * Why a scan could not start: {@linkcode ScanError.code}.
 *
 * - `NO_ROOT`: no directory given.
 * - `ROOT_NOT_FOUND`: a root does not exist.
 * - `ROOT_UNREADABLE`: a root cannot be read (permissions...).
 * - `ROOT_NOT_A_DIRECTORY`: a root is a file.
 * - `ROOT_IS_SYMLINK`: a root, or a directory on the way to it from the
 *   working directory, is a symbolic link, and following it was not allowed.
 *
 * @example
 * ```ts
 * import type { ScanErrorCode } from "@portcullis/portcullis/extract";
 *
 * const code: ScanErrorCode = "ROOT_IS_SYMLINK";
 * ```
 */
export type ScanErrorCode =
  | "NO_ROOT"
  | "ROOT_NOT_FOUND"
  | "ROOT_UNREADABLE"
  | "ROOT_NOT_A_DIRECTORY"
  | "ROOT_IS_SYMLINK";

/**
 * An error that stops a scan before it starts: a root that does not exist,
 * is not a directory or is reached through a symbolic link.
 *
 * @example
 * ```ts
 * import { scan, ScanError } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * await assert.rejects(scan(["/no/such/dir"]), (error) => {
 *   assert.ok(error instanceof ScanError);
 *   assert.equal(error.code, "ROOT_NOT_FOUND");
 *   return true;
 * });
 * ```
 */
export class ScanError extends Error {
  /** What went wrong. */
  readonly code: ScanErrorCode;
  /** The root the error is about, if any. */
  readonly root: string | undefined;

  /**
   * Creates a scan error.
   *
   * @param code What went wrong.
   * @param message `Cannot scan: <detail>`.
   * @param root The root the error is about.
   * @param options The cause.
   */
  constructor(
    code: ScanErrorCode,
    message: string,
    root?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "ScanError";
    this.code = code;
    this.root = root;
  }
}
