/**
 * An `Authorization` header split into its scheme and credentials.
 *
 * @example
 * ```ts
 * import { type AuthorizationHeader, parseAuthorizationHeader } from "@portcullis/portcullis/guard";
 *
 * const header: AuthorizationHeader | undefined = parseAuthorizationHeader("Bearer abc");
 * ```
 */
export interface AuthorizationHeader {
  /** The scheme as received, such as `"Bearer"` or `"bearer"`. */
  scheme: string;
  /**
   * Everything after the first space, as received; empty when the header
   * has no space.
   */
  credentials: string;
}

/**
 * Splits an `Authorization` header value at its first space into scheme and
 * credentials. It never throws and never judges the value: it returns
 * `undefined` only for a missing or empty header, and leaves the decision
 * to the user provider.
 *
 * @param value The header value, as `headers.get("authorization")` returns
 * it.
 * @returns The scheme and credentials, or `undefined` without a header.
 *
 * @example Usage
 * ```ts
 * import { parseAuthorizationHeader } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseAuthorizationHeader("Basic dXNlcjpwYXNz"), {
 *   scheme: "Basic",
 *   credentials: "dXNlcjpwYXNz",
 * });
 * assert.deepEqual(parseAuthorizationHeader("Bearer"), {
 *   scheme: "Bearer",
 *   credentials: "",
 * });
 * assert.equal(parseAuthorizationHeader(null), undefined);
 * ```
 */
export function parseAuthorizationHeader(
  value: string | null | undefined,
): AuthorizationHeader | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  const space = value.indexOf(" ");
  if (space === -1) return { scheme: value, credentials: "" };
  return { scheme: value.slice(0, space), credentials: value.slice(space + 1) };
}

/**
 * Reads the credentials of an `Authorization: Bearer <credentials>` header.
 * The scheme is case-insensitive; the credentials are everything after the
 * first space, as received. It never throws: it returns `undefined` when the
 * header is missing, uses another scheme or has empty credentials.
 *
 * @param request The incoming request.
 * @returns The bearer credentials, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { bearerCredentials } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * const request = new Request("http://localhost/", {
 *   headers: { authorization: "bearer editor" },
 * });
 * assert.equal(bearerCredentials(request), "editor");
 * assert.equal(bearerCredentials(new Request("http://localhost/")), undefined);
 * ```
 */
export function bearerCredentials(request: Request): string | undefined {
  const value = request.headers.get("authorization");
  // The same answer as parseAuthorizationHeader(value) with a scheme that
  // lowercases to "bearer" and non-empty credentials, without building the
  // parts: "bearer" in any ASCII case (header values are byte strings, and
  // no other character lowercases to one of its letters), then a space,
  // then at least one character.
  if (
    value === null || value.length < 8 || value.charCodeAt(6) !== SPACE ||
    (value.charCodeAt(0) | CASE_BIT) !== LOWER_B ||
    (value.charCodeAt(1) | CASE_BIT) !== LOWER_E ||
    (value.charCodeAt(2) | CASE_BIT) !== LOWER_A ||
    (value.charCodeAt(3) | CASE_BIT) !== LOWER_R ||
    (value.charCodeAt(4) | CASE_BIT) !== LOWER_E ||
    (value.charCodeAt(5) | CASE_BIT) !== LOWER_R
  ) {
    return undefined;
  }
  return value.slice(7);
}

const SPACE = 0x20;
// Sets an ASCII letter to lower case; maps no other character to a letter
// of "bearer" (0x42 "B" and 0x62 "b" give 0x62, and so on).
const CASE_BIT = 0x20;
const LOWER_A = 0x61;
const LOWER_B = 0x62;
const LOWER_E = 0x65;
const LOWER_R = 0x72;
