/**
 * Reads the bearer token of a request from the `Authorization` header and/or
 * a named cookie, and checks that it has the shape of a compact JWS before
 * any cryptography runs.
 *
 * @module
 */

import { bearerCredentials } from "../authorization_header.ts";

/** Where the token of a request comes from. */
export interface TokenSources {
  /** Read `Authorization: Bearer <token>`. */
  readonly header: boolean;
  /** The cookie name to read, or `undefined` for no cookie. */
  readonly cookie: string | undefined;
  /** The longest accepted token, in characters. */
  readonly maxLength: number;
}

/** Why a request carries no usable token. */
export type TokenProblem =
  | "missing"
  | "malformed"
  | "too_long"
  | "conflicting_tokens"
  | "duplicate_cookie";

/** The outcome of {@linkcode readToken}: a token or the reason there is none. */
export type TokenResult =
  | { readonly token: string; readonly problem?: undefined }
  | { readonly token?: undefined; readonly problem: TokenProblem };

const MISSING: TokenResult = { problem: "missing" };
const MALFORMED: TokenResult = { problem: "malformed" };
const TOO_LONG: TokenResult = { problem: "too_long" };
const CONFLICT: TokenResult = { problem: "conflicting_tokens" };
const DUPLICATE_COOKIE: TokenResult = { problem: "duplicate_cookie" };

/**
 * A compact JWS: three base64url segments, none empty (an empty signature is
 * an unsecured `alg: none` token, which is never accepted).
 */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** RFC 7230 `token`: the characters a cookie name may use. */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Marks a cookie that appears more than once in a request. */
const DUPLICATE: unique symbol = Symbol("duplicate");

/**
 * Reports whether `name` can be used as a cookie name.
 *
 * @param name The candidate cookie name.
 * @returns `true` for an RFC 7230 token.
 */
export function isCookieName(name: string): boolean {
  return COOKIE_NAME.test(name);
}

/**
 * Finds the value of cookie `name` in a `Cookie` header. Pairs are separated
 * by `;` (and by `,`, which is how some runtimes join repeated `Cookie`
 * headers; a cookie value never contains a comma).
 *
 * @param header The `Cookie` header value.
 * @param name The cookie name.
 * @returns The value, `undefined` when absent, or {@linkcode DUPLICATE} when
 *   the name appears more than once.
 */
export function findCookie(
  header: string,
  name: string,
): string | undefined | typeof DUPLICATE {
  let found: string | undefined;
  let start = 0;
  const length = header.length;
  while (start < length) {
    let end = start;
    while (end < length) {
      const code = header.charCodeAt(end);
      if (code === 59 /* ; */ || code === 44 /* , */) break;
      end++;
    }
    const equals = header.indexOf("=", start);
    if (equals !== -1 && equals < end) {
      const key = header.slice(start, equals).trim();
      if (key === name) {
        if (found !== undefined) return DUPLICATE;
        found = header.slice(equals + 1, end).trim();
      }
    }
    start = end + 1;
  }
  return found;
}

/**
 * Reads the token of a request.
 *
 * Precedence: the `Authorization` header is read first, then the cookie. A
 * token found in only one place is used. When both carry a token they must be
 * identical, otherwise the request is refused (`conflicting_tokens`): a request
 * never gets to pick which of two credentials wins. A cookie name that appears
 * twice is refused too (`duplicate_cookie`), which defeats cookie tossing.
 *
 * @param request The incoming request.
 * @param sources Where to look and the length limit.
 * @returns The token, or why there is none.
 */
export function readToken(
  request: Request,
  sources: TokenSources,
): TokenResult {
  const fromHeader = sources.header ? bearerCredentials(request) : undefined;
  let fromCookie: string | undefined;
  if (sources.cookie !== undefined) {
    const cookieHeader = request.headers.get("cookie");
    if (cookieHeader !== null) {
      const value = findCookie(cookieHeader, sources.cookie);
      if (value === DUPLICATE) return DUPLICATE_COOKIE;
      if (value !== "") fromCookie = value;
    }
  }
  let token: string;
  if (fromHeader !== undefined) {
    if (fromCookie !== undefined && fromCookie !== fromHeader) return CONFLICT;
    token = fromHeader;
  } else if (fromCookie !== undefined) {
    token = fromCookie;
  } else {
    return MISSING;
  }
  if (token.length > sources.maxLength) return TOO_LONG;
  if (!COMPACT_JWS.test(token)) return MALFORMED;
  return { token };
}
