// Text that came from a scanned repository or a graph file, made safe to
// print: characters that a terminal, a log viewer or an XML parser would act
// on, or that hide or reorder what is shown, are written as `\uXXXX`.

/**
 * C0 controls (newlines, ESC...), DEL and C1 controls (CSI U+009B...), the
 * bidirectional marks, embeddings, overrides and isolates, line and
 * paragraph separators, invisible spaces and joiners that hide a difference,
 * the byte order mark, the two non-characters XML forbids and lone
 * surrogates.
 */
const UNSAFE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The same characters, minus C0 controls (which `JSON.stringify` escapes). */
const UNSAFE_IN_JSON =
  /[\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff\ufffe\uffff]/g;

function escapeOne(char: string): string {
  return "\\u" + char.charCodeAt(0).toString(16).padStart(4, "0");
}

/**
 * The text with every unsafe character written as `\uXXXX`, cut to at most
 * `maxLength` characters (plus a note of how many were left out).
 */
export function displayText(value: string, maxLength = Infinity): string {
  UNSAFE.lastIndex = 0;
  let out = UNSAFE.test(value) ? value.replace(UNSAFE, escapeOne) : value;
  if (out.length > maxLength) {
    // never cut inside an escape or a surrogate pair
    let end = maxLength;
    const escape = out.lastIndexOf("\\u", end);
    if (escape !== -1 && escape + 6 > end) end = escape;
    const code = out.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    out = `${out.slice(0, end)}... (${out.length - end} more characters)`;
  }
  return out;
}

/**
 * JSON text (from `JSON.stringify`) with the unsafe characters that
 * `JSON.stringify` leaves raw written as `\uXXXX` escapes: the same JSON
 * value, safe to show in a terminal.
 */
export function escapeJsonText(json: string): string {
  UNSAFE_IN_JSON.lastIndex = 0;
  return UNSAFE_IN_JSON.test(json)
    ? json.replace(UNSAFE_IN_JSON, escapeOne)
    : json;
}
