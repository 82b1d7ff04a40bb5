/**
 * What went wrong while loading a model or a policy:
 *
 * - `"NOT_FOUND"`: the file does not exist.
 * - `"READ_FAILED"`: the file exists but could not be read (permissions, a
 *   directory, a file that kept changing while it was read, bytes that are
 *   not UTF-8).
 * - `"MODEL_INVALID"`: casbin rejected the model text.
 * - `"POLICY_INVALID"`: a policy line is malformed (unterminated quote,
 *   wrong number of fields, unknown policy type) or the policy has no rules.
 * - `"PROBE_FAILED"`: the enforcer built, but a probe decision threw, which
 *   is what a broken matcher does.
 * - `"PREPARE_FAILED"`: the `prepare` hook threw or rejected.
 *
 * @example
 * ```ts
 * import type { EnforcerLoadErrorCode } from "@portcullis/portcullis/guard";
 *
 * const code: EnforcerLoadErrorCode = "POLICY_INVALID";
 * ```
 */
export type EnforcerLoadErrorCode =
  | "NOT_FOUND"
  | "READ_FAILED"
  | "MODEL_INVALID"
  | "POLICY_INVALID"
  | "PROBE_FAILED"
  | "PREPARE_FAILED";

/**
 * Options for {@linkcode EnforcerLoadError}.
 *
 * @example
 * ```ts
 * import {
 *   EnforcerLoadError,
 *   type EnforcerLoadErrorOptions,
 * } from "@portcullis/portcullis/guard";
 *
 * const options: EnforcerLoadErrorOptions = { path: "policy.csv", line: 3 };
 * const error = new EnforcerLoadError(
 *   "POLICY_INVALID",
 *   "Cannot load policy: line 3 has 2 fields, expected 3",
 *   options,
 * );
 * ```
 */
export interface EnforcerLoadErrorOptions extends ErrorOptions {
  /**
   * The file the error is about, when there is one.
   * @default {undefined}
   */
  path?: string | undefined;
  /**
   * The 1-based line of the policy file the error is about.
   * @default {undefined}
   */
  line?: number | undefined;
}

/**
 * Raised (by `CachedFileEnforcerProvider.open()`) or reported (to the
 * `onError` hook after a failed reload) when a model or policy cannot be
 * turned into a working enforcer. `code` says which step failed; `path` and
 * `line` point at the culprit.
 *
 * @example Telling a missing file from a broken one
 * ```ts
 * import { EnforcerLoadError } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * const error = new EnforcerLoadError(
 *   "NOT_FOUND",
 *   'Cannot load policy: "/etc/app/policy.csv" does not exist',
 *   { path: "/etc/app/policy.csv" },
 * );
 * assert.equal(error.name, "EnforcerLoadError");
 * assert.equal(error.code, "NOT_FOUND");
 * assert.equal(error.line, undefined);
 * ```
 */
export class EnforcerLoadError extends Error {
  /** Which step failed. */
  readonly code: EnforcerLoadErrorCode;
  /** The file the error is about, if any. */
  readonly path: string | undefined;
  /** The 1-based policy line the error is about, if any. */
  readonly line: number | undefined;

  /**
   * Creates a load error.
   *
   * @param code Which step failed.
   * @param message A `Cannot <action>: <detail>` message.
   * @param options The file, the line and the underlying cause.
   */
  constructor(
    code: EnforcerLoadErrorCode,
    message: string,
    options: EnforcerLoadErrorOptions = {},
  ) {
    super(
      message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "EnforcerLoadError";
    this.code = code;
    this.path = options.path;
    this.line = options.line;
  }
}
