// Paths in SARIF logs: a relative path as a URI reference, for the diff's
// and the policy audit's logs. No imports, so any package can copy it.

const LONE_SURROGATE =
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A relative path as a URI reference (percent-encoded, never throwing). */
export function uriOf(path: string): string {
  return encodeURI(path.replace(LONE_SURROGATE, "\ufffd"))
    .replaceAll("#", "%23").replaceAll("?", "%3F");
}
