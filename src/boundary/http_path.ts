// A single left-to-right scanner: no regular expressions on the hot path,
// no backtracking, each character is looked at a bounded number of times.
import { AngleEnds, GroupEnds } from "./_path_groups.ts";

const SPACE = 32;
const HASH = 35;
const DOLLAR = 36;
const LPAREN = 40;
const RPAREN = 41;
const STAR = 42;
const PLUS = 43;
const MINUS = 45;
const DOT = 46;
const SLASH = 47;
const COLON = 58;
const LANGLE = 60;
const QUESTION = 63;
const BACKSLASH = 92;
const LBRACE = 123;
const RBRACE = 125;
const DEL = 127;

const HEX_UPPER = "0123456789ABCDEF";
const TAB_OR_NEWLINE = /[\t\n\r]/g;

// Segments of the path being built and the group finders; reused across
// calls (the function is synchronous and never re-entered), so a call
// allocates only its strings.
const segments: string[] = [];
const braces = new GroupEnds(LBRACE, RBRACE);
const parens = new GroupEnds(LPAREN, RPAREN);
const angles = new AngleEnds();

/** Whether `c` is removed by trimming: C0 controls, space, JS whitespace. */
function isTrimmable(c: number): boolean {
  if (c <= SPACE) return true;
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f ||
    c === 0x3000 || c === 0xfeff;
}

/** UTF-8 percent-encoding of a trimmable character (so output never has one). */
function encodeTrimmable(c: number): string {
  if (c < 0x80) return "%" + HEX_UPPER[c >> 4] + HEX_UPPER[c & 15];
  if (c < 0x800) {
    return pct(0xc0 | (c >> 6)) + pct(0x80 | (c & 63));
  }
  return pct(0xe0 | (c >> 12)) + pct(0x80 | ((c >> 6) & 63)) +
    pct(0x80 | (c & 63));
}

function pct(byte: number): string {
  return "%" + HEX_UPPER[byte >> 4] + HEX_UPPER[byte & 15];
}

/** A space character (Unicode `Zs`): kept as written inside a path. */
function isSpace(c: number): boolean {
  return c === SPACE || c === 0xa0 || c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f ||
    c === 0x3000;
}

/** Spaces that end a path, percent-encoded, so trimming cannot change it. */
function encodeTrailingSpaces(path: string): string {
  let from = path.length;
  while (isTrimmable(path.charCodeAt(from - 1))) from--;
  let tail = "";
  for (let k = from; k < path.length; k++) {
    tail += encodeTrimmable(path.charCodeAt(k));
  }
  return path.slice(0, from) + tail;
}

/**
 * The index of the first `/`, `?` or `#` (or `\` where it counts as a
 * slash) at or after `k`, or `end`: where a path segment or an authority
 * ends.
 */
function segmentEnd(
  s: string,
  k: number,
  end: number,
  backslashIsSlash: boolean,
): number {
  while (k < end) {
    const c = s.charCodeAt(k);
    if (
      c === SLASH || c === QUESTION || c === HASH ||
      (c === BACKSLASH && backslashIsSlash)
    ) break;
    k++;
  }
  return k;
}

/** An identifier character of a `:name` parameter. */
function isIdent(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) || c === 95 || c === DOLLAR || c >= 128;
}

function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isSchemeChar(c: number): boolean {
  return isAlpha(c) || (c >= 48 && c <= 57) || c === PLUS || c === MINUS ||
    c === DOT;
}

/** Case-insensitive comparison of `s[from, to)` with a lower-case word. */
function equalsLower(
  s: string,
  from: number,
  to: number,
  word: string,
): boolean {
  if (to - from !== word.length) return false;
  for (let k = 0; k < word.length; k++) {
    if ((s.charCodeAt(from + k) | 0x20) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/** 0: not special, 1: special (http, https, ws, wss, ftp), 2: file. */
function schemeKind(s: string, from: number, to: number): number {
  if (
    equalsLower(s, from, to, "http") || equalsLower(s, from, to, "https") ||
    equalsLower(s, from, to, "ws") || equalsLower(s, from, to, "wss") ||
    equalsLower(s, from, to, "ftp")
  ) return 1;
  return equalsLower(s, from, to, "file") ? 2 : 0;
}

function isSingleDot(t: string): boolean {
  return t === "." || (t.length === 3 && equalsLower(t, 0, 3, "%2e"));
}

function isDoubleDot(t: string): boolean {
  if (t === "..") return true;
  const n = t.length;
  if (n === 4) {
    return equalsLower(t, 0, 4, ".%2e") || equalsLower(t, 0, 4, "%2e.");
  }
  return n === 6 && equalsLower(t, 0, 6, "%2e%2e");
}

function isAllDigits(t: string): boolean {
  for (let k = 0; k < t.length; k++) {
    const c = t.charCodeAt(k);
    if (c < 48 || c > 57) return false;
  }
  return t.length > 0;
}

/** `*` or `*name`: a wildcard segment. */
function isWildcard(t: string): boolean {
  if (t.charCodeAt(0) !== STAR) return false;
  for (let k = 1; k < t.length; k++) {
    if (!isIdent(t.charCodeAt(k))) return false;
  }
  return true;
}

/** Adds a finished segment: collapses, resolves dot segments, digits. */
function pushSegment(t: string): void {
  if (t === "" || isSingleDot(t)) return;
  if (isDoubleDot(t)) {
    segments.pop();
    return;
  }
  segments.push(isAllDigits(t) || isWildcard(t) ? "{}" : t);
}

/**
 * Normalizes an HTTP route or URL to the path part of a boundary key, so the
 * spellings a server framework and a client use for one route compare
 * equal (`/users/:id`, `/users/{id}`, `/users/<int:id>`,
 * `https://api.example.com/users/42?x=1` all give `/users/{}`).
 *
 * It follows WHATWG URL parsing for what surrounds the path, without ever
 * percent-encoding parameter syntax:
 *
 * - Leading and trailing C0 controls, whitespace and a BOM are trimmed;
 *   tabs and newlines anywhere are removed.
 * - Only a leading `scheme://authority` is a host and is stripped (special
 *   schemes also accept `\` and missing slashes, as in WHATWG); `//host/x`
 *   (protocol-relative) too. A URL in the query or inside the path is
 *   never taken for a host.
 * - Query and fragment (from the first `?` or `#` outside a parameter) are
 *   dropped.
 * - Every parameter becomes `{}`: braces `{id}`, `{id:int}`, `{id?}`,
 *   `{*rest}`, `{id:[0-9]{3}}`, `${id}`; angles `<name>`, `<int:id>`; colon
 *   `:name` at a segment start (the name ends where an identifier ends, may
 *   carry a `(regex)` and a `?`, `*` or `+` modifier; after such a
 *   parameter, a `:` that follows punctuation starts another one, so
 *   `:from-:to` is `{}-{}` while `123:activate` keeps its colon); wildcard
 *   segments `*` and `*name`. Go's `{$}` end marker (a whole segment) is dropped.
 * - A segment of ASCII digits becomes `{}`.
 * - A leading `{}` (what extractors write for an unknown base URL) or
 *   `${...}` not preceded by a slash is a base-URL placeholder and is
 *   dropped: `{}/users/{}` gives `/users/{}`. A named `{id}/posts` is a
 *   route parameter, as in graphlens: `/{}/posts`.
 * - Empty segments collapse, `.` and `..` (also `%2e` forms) resolve, there
 *   is no trailing slash except for the root `/`.
 * - Spaces inside the path are kept as written, as graphlens keeps them
 *   (`/a b/c`), except at its very end, where they would be trimmed away;
 *   there, and for C0 controls, DEL, line and paragraph separators and a
 *   BOM anywhere in the path, the character is percent-encoded (UTF-8,
 *   upper-case hex). Everything else, including `{`, `}` and non-ASCII
 *   letters, is kept as written.
 *
 * A `{` or `<` that is never closed is text, as in graphlens (`/a/{` stays
 * `/a/{`); a `:name(` regex that is never closed makes the parameter run to
 * the end of its segment. The result is a fixed point: normalizing it
 * again gives it back. Running time is linear in the input length.
 *
 * @param raw A route template, a path or a URL.
 * @returns The normalized path; always starts with `/`.
 *
 * @example Usage
 * ```ts
 * import { normalizeHttpPath } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * assert.equal(normalizeHttpPath("/users//:id/"), "/users/{}");
 * assert.equal(normalizeHttpPath("https://api.example.com/users/42?x=1"), "/users/{}");
 * assert.equal(normalizeHttpPath("/flights/:from-:to"), "/flights/{}-{}");
 * assert.equal(normalizeHttpPath("{}/users/{}"), "/users/{}");
 * assert.equal(normalizeHttpPath("/login?next=http://evil.com/admin"), "/login");
 * ```
 */
export function normalizeHttpPath(raw: string): string {
  if (typeof raw !== "string") {
    throw new TypeError("Cannot normalize HTTP path: expected a string");
  }
  let out = normalizeOnce(raw);
  if (!braces.sawUnclosed && !parens.sawUnclosed && !angles.sawUnclosed) {
    return out;
  }
  // An unclosed bracket is text, and text next to a rewritten parameter
  // can read differently a second time (`{\<>` gives `{\{}`, whose `\{` is
  // an escape). Normalize again until nothing changes, so the key is a
  // fixed point; past two more passes, write the text brackets as %7B and
  // %3C, which no pass reads.
  for (let pass = 0; pass < 2; pass++) {
    const again = normalizeOnce(out);
    if (again === out) return out;
    out = again;
  }
  return out.replace(
    TEXT_BRACKET,
    (bracket) => bracket === "<" ? "%3C" : "%7B",
  );
}

/** A `{` that does not open a `{}` parameter, or a `<`. */
const TEXT_BRACKET = /\{(?!\})|</g;

/** One left-to-right pass of {@linkcode normalizeHttpPath}. */
function normalizeOnce(raw: string): string {
  let s = raw;
  if (
    s.indexOf("\t") !== -1 || s.indexOf("\n") !== -1 || s.indexOf("\r") !== -1
  ) {
    s = s.replace(TAB_OR_NEWLINE, "");
  }
  let i = 0;
  let end = s.length;
  while (i < end && isTrimmable(s.charCodeAt(i))) i++;
  while (end > i && isTrimmable(s.charCodeAt(end - 1))) end--;

  braces.reset();
  parens.reset();
  angles.reset();
  let backslashIsSlash = false;
  const first = s.charCodeAt(i);
  const dollar = first === DOLLAR && s.charCodeAt(i + 1) === LBRACE;
  const close = first === LBRACE || dollar
    ? braces.end(s, dollar ? i + 1 : i, end)
    : -1;
  if (close !== -1) {
    // A base-URL placeholder: `{}/users`, `${BASE}/users`, `{}://host/x`;
    // a named `{id}/users` is a route parameter.
    const next = close < end ? s.charCodeAt(close) : -1;
    if (
      (dollar || close === i + 2) &&
      (next === -1 || next === SLASH || next === QUESTION || next === HASH)
    ) {
      i = close;
    } else if (
      next === COLON && s.charCodeAt(close + 1) === SLASH &&
      s.charCodeAt(close + 2) === SLASH && close + 2 < end
    ) {
      i = segmentEnd(s, close + 3, end, false);
    }
  } else if (isAlpha(first)) {
    let j = i + 1;
    while (j < end && isSchemeChar(s.charCodeAt(j))) j++;
    if (j < end && s.charCodeAt(j) === COLON) {
      const kind = schemeKind(s, i, j);
      if (kind === 1) {
        let k = j + 1;
        while (k < end) {
          const c = s.charCodeAt(k);
          if (c !== SLASH && c !== BACKSLASH) break;
          k++;
        }
        i = segmentEnd(s, k, end, true);
        backslashIsSlash = true;
      } else if (kind === 2) {
        const a = s.charCodeAt(j + 1);
        const b = s.charCodeAt(j + 2);
        if (
          (a === SLASH || a === BACKSLASH) &&
          (b === SLASH || b === BACKSLASH) &&
          j + 2 < end
        ) {
          i = segmentEnd(s, j + 3, end, true);
        } else i = j + 1;
        backslashIsSlash = true;
      } else if (
        s.charCodeAt(j + 1) === SLASH && s.charCodeAt(j + 2) === SLASH &&
        j + 2 < end
      ) {
        i = segmentEnd(s, j + 3, end, false);
      }
    }
  } else if (first === SLASH && s.charCodeAt(i + 1) === SLASH && i + 1 < end) {
    i = segmentEnd(s, i + 2, end, false);
  }
  if (backslashIsSlash && s.indexOf("\\", i) !== -1) {
    // In a special URL a backslash is a slash, also inside a parameter
    // (WHATWG reads it so before any route syntax is seen).
    s = s.slice(0, end).replaceAll("\\", "/");
  }

  segments.length = 0;
  let seg = "";
  let lit = i; // start of the pending literal run
  let segStart = true;
  let colonSegment = false; // the segment began with a `:name` parameter
  let k = i;
  while (k < end) {
    const c = s.charCodeAt(k);
    if (c === SLASH || (c === BACKSLASH && backslashIsSlash)) {
      pushSegment(k > lit ? seg + s.slice(lit, k) : seg);
      seg = "";
      k++;
      lit = k;
      segStart = true;
      colonSegment = false;
      continue;
    }
    if (c === QUESTION || c === HASH) break;

    let paramEnd = -1;
    let emit = true;
    if (c === LBRACE) {
      paramEnd = braces.end(s, k, end);
      // Go's `{$}` segment marks the end of a pattern: it matches nothing.
      if (
        segStart && paramEnd - k === 3 && s.charCodeAt(k + 1) === DOLLAR &&
        s.charCodeAt(k + 2) === RBRACE
      ) {
        const next = paramEnd < end ? s.charCodeAt(paramEnd) : -1;
        emit = !(next === -1 || next === SLASH || next === QUESTION ||
          next === HASH || (next === BACKSLASH && backslashIsSlash));
      }
    } else if (c === LANGLE) {
      paramEnd = angles.end(s, k, end);
    } else if (
      c === COLON &&
      (segStart || (colonSegment && !isIdent(s.charCodeAt(k - 1))))
    ) {
      let n = k + 1;
      while (n < end && isIdent(s.charCodeAt(n))) n++;
      const hasRegex = n < end && s.charCodeAt(n) === LPAREN;
      if (n > k + 1 || hasRegex) {
        if (hasRegex) {
          const regexEnd = parens.end(s, n, end);
          // an unclosed regex: the parameter runs to the segment's end
          n = regexEnd !== -1
            ? regexEnd
            : segmentEnd(s, n, end, backslashIsSlash);
        }
        if (n < end) {
          const m = s.charCodeAt(n);
          if (m === STAR || m === PLUS) n++;
          else if (m === QUESTION) {
            // `:id?` is optional only before a separator; else a query.
            const after = n + 1 < end ? s.charCodeAt(n + 1) : -1;
            if (
              after === -1 || after === SLASH ||
              (after === BACKSLASH && backslashIsSlash)
            ) n++;
          }
        }
        if (segStart) colonSegment = true;
        paramEnd = n;
      }
    } else if (
      c < SPACE || c === DEL || (c > 0xa0 && isTrimmable(c) && !isSpace(c))
    ) {
      seg += s.slice(lit, k) + encodeTrimmable(c);
      k++;
      lit = k;
      segStart = false;
      continue;
    }

    if (paramEnd === -1) {
      segStart = false;
      k++;
      continue;
    }
    // A `$` run right before a parameter belongs to it (`${id}`), but not
    // an escaped `\$`.
    let litEnd = k;
    while (
      litEnd > lit && s.charCodeAt(litEnd - 1) === DOLLAR &&
      s.charCodeAt(litEnd - 2) !== BACKSLASH
    ) litEnd--;
    if (litEnd > lit) seg += s.slice(lit, litEnd);
    if (emit) seg += "{}";
    k = paramEnd;
    lit = k;
    segStart = false;
  }
  pushSegment(k > lit ? seg + s.slice(lit, k) : seg);

  let out: string;
  if (segments.length === 0) out = "/";
  else if (segments.length === 1) out = "/" + segments[0];
  else out = "/" + segments.join("/");
  segments.length = 0;
  return isTrimmable(out.charCodeAt(out.length - 1))
    ? encodeTrailingSpaces(out)
    : out;
}

/**
 * Builds the key of an HTTP boundary: the upper-cased method, a space, and
 * the normalized path.
 *
 * @param method An HTTP method token such as `get` or `POST` (`*` and
 *   other token characters are allowed, e.g. for "any method").
 * @param path A route template, a path or a URL; see
 *   {@linkcode normalizeHttpPath}.
 * @returns The key, e.g. `GET /users/{}`.
 * @throws {SyntaxError} If `method` is empty or not an HTTP token.
 *
 * @example Usage
 * ```ts
 * import { httpBoundaryKey } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * assert.equal(httpBoundaryKey("get", "/users/:id"), "GET /users/{}");
 * assert.equal(httpBoundaryKey("POST", "http://localhost:8000/orders/"), "POST /orders");
 * ```
 */
export function httpBoundaryKey(method: string, path: string): string {
  if (typeof method !== "string") {
    throw new TypeError(
      "Cannot build HTTP boundary key: method must be a string",
    );
  }
  const verb = method.trim().toUpperCase();
  if (verb === "" || !isToken(verb)) {
    throw new SyntaxError(
      `Cannot build HTTP boundary key: "${method}" is not an HTTP method`,
    );
  }
  return verb + " " + normalizeHttpPath(path);
}

/** RFC 9110 token characters. */
function isToken(t: string): boolean {
  for (let k = 0; k < t.length; k++) {
    const c = t.charCodeAt(k);
    const ok = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) ||
      (c >= 97 && c <= 122) || "!#$%&'*+-.^_`|~".indexOf(t[k]!) !== -1;
    if (!ok) return false;
  }
  return true;
}
