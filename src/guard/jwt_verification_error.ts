/**
 * Why a request's token was refused by a
 * {@linkcode https://jsr.io/@portcullis/portcullis/doc/guard/~/JwtUserProvider | JwtUserProvider}.
 *
 * - `"malformed"`: not a compact JWS (three non-empty base64url segments), or
 *   a header or payload that is not valid JSON.
 * - `"too_long"`: longer than the provider's `maxTokenLength`.
 * - `"conflicting_tokens"`: the `Authorization` header and the cookie carry
 *   different tokens.
 * - `"duplicate_cookie"`: the token cookie appears more than once.
 * - `"algorithm_not_allowed"`: the header's `alg` is not in the allow-list
 *   (this includes `none` and HMAC algorithms against a public key).
 * - `"unknown_key"`: no configured key matches the token's `alg` and `kid`.
 * - `"key_set_unavailable"`: the JWKS endpoint could not be reached and no
 *   keys were cached yet.
 * - `"invalid_signature"`: the signature does not verify.
 * - `"expired"`: `exp` is in the past (beyond the clock tolerance).
 * - `"invalid_claims"`: `nbf` in the future, wrong `iss` or `aud`, too old,
 *   a required claim missing, or the claims rejected by the schema or the
 *   mapping function.
 *
 * @example
 * ```ts
 * import type { JwtErrorCode } from "@portcullis/portcullis/guard";
 *
 * const retryable: JwtErrorCode[] = ["key_set_unavailable"];
 * ```
 */
export type JwtErrorCode =
  | "malformed"
  | "too_long"
  | "conflicting_tokens"
  | "duplicate_cookie"
  | "algorithm_not_allowed"
  | "unknown_key"
  | "key_set_unavailable"
  | "invalid_signature"
  | "expired"
  | "invalid_claims";

/**
 * The reason a bearer token was refused, as passed to the `onInvalidToken`
 * hook of a `JwtUserProvider`. It is for logs and for choosing the answer;
 * its message and `cause` must never be sent to the client.
 *
 * @example Telling an expired token apart
 * ```ts
 * import { JwtVerificationError } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * const error = new JwtVerificationError("expired");
 * assert.equal(error.name, "JwtVerificationError");
 * assert.equal(error.code, "expired");
 * assert.equal(error.message, "Cannot verify token: expired");
 * ```
 */
export class JwtVerificationError extends Error {
  /** What was wrong with the token. */
  readonly code: JwtErrorCode;

  /**
   * Creates the error.
   *
   * @param code What was wrong with the token.
   * @param options The underlying error (from jose, the schema or the
   *   mapping function) as `cause`.
   */
  constructor(code: JwtErrorCode, options?: ErrorOptions) {
    super(`Cannot verify token: ${code.replaceAll("_", " ")}`, options);
    this.name = "JwtVerificationError";
    this.code = code;
  }
}
