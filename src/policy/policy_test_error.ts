/**
 * What went wrong in a {@linkcode PolicyTestError}:
 *
 * - `CASES_UNREADABLE`: the cases file is missing, unreadable or too large.
 * - `CASES_INVALID`: the cases file does not parse, or a case has the
 *   wrong shape.
 * - `SUBJECT_AMBIGUOUS`: a string subject cannot be mapped to the request
 *   value the model reads (see `docs/policy_tooling.md`).
 *
 * @example
 * ```ts
 * import type { PolicyTestErrorCode } from "@portcullis/portcullis/policy";
 *
 * const code: PolicyTestErrorCode = "CASES_INVALID";
 * ```
 */
export type PolicyTestErrorCode =
  | "CASES_UNREADABLE"
  | "CASES_INVALID"
  | "SUBJECT_AMBIGUOUS";

/**
 * A policy test file or case that cannot be run. (A model or policy that
 * does not load throws the guard's `EnforcerLoadError`.)
 *
 * @example
 * ```ts
 * import { parsePolicyTests, PolicyTestError } from "@portcullis/portcullis/policy";
 * import assert from "node:assert/strict";
 *
 * assert.throws(
 *   () => parsePolicyTests("model: m.conf\npolicy: p.csv\ncases: []\n"),
 *   (error) => error instanceof PolicyTestError && error.code === "CASES_INVALID",
 * );
 * ```
 */
export class PolicyTestError extends Error {
  /** What went wrong. */
  readonly code: PolicyTestErrorCode;

  /**
   * Creates the error.
   *
   * @param code What went wrong.
   * @param message The message, in the form `Cannot <action>: <detail>`.
   * @param options The cause, if any.
   */
  constructor(
    code: PolicyTestErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "PolicyTestError";
    this.code = code;
  }
}
