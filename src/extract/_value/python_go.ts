// String values evaluated statically from source code (Python and Go):
// literal text with holes for the parts that cannot be resolved, and the
// rules that turn such a value into an HTTP path and a confidence.

/** Stands for an unresolved part of a string inside `Value.text`. */
export const HOLE = "\u0000";

/** A statically evaluated string: literal text with `HOLE` characters. */
export interface Value {
  /** The text; unresolved parts are single `HOLE` characters. */
  text: string;
  /** Whether a constant, default or prefix elsewhere was resolved. */
  composed: boolean;
}

/** Confidence of a literal port. */
export const CONFIDENCE_LITERAL = 1;
/** Confidence of a port composed from statically resolved parts. */
export const CONFIDENCE_COMPOSED = 0.95;
/** Confidence of a port with unresolved parts turned into `{}`. */
export const CONFIDENCE_PARTIAL = 0.8;
/** Confidence of a port inferred from weak evidence. */
export const CONFIDENCE_WEAK = 0.6;

/** A literal value. */
export function literal(text: string): Value {
  return { text, composed: false };
}

/** An unresolved value. */
export function hole(): Value {
  return { text: HOLE, composed: false };
}

/** The values joined; a missing one becomes a hole. */
export function concat(values: ReadonlyArray<Value | undefined>): Value {
  let text = "";
  let composed = false;
  for (const value of values) {
    if (!value) {
      text += HOLE;
      continue;
    }
    text += value.text;
    composed ||= value.composed;
  }
  return { text, composed };
}

/** Marks a value as composed from something resolved elsewhere. */
export function composedValue(value: Value): Value {
  return { text: value.text, composed: true };
}

const PRINTF = /%(?:\(([^)]*)\))?[-+ #0]*(?:\d+|\*)?(?:\.\d+)?([a-zA-Z%])/g;

/**
 * `printf`-style formatting (`%s`, `%d`, `%v`... and Python's `%(name)s`):
 * each verb takes the next argument (or the named one), `%%` is a percent
 * sign, and a missing argument is a hole.
 */
export function formatPrintf(
  format: Value,
  args: ReadonlyArray<Value | undefined>,
  named?: ReadonlyMap<string, Value | undefined>,
): Value {
  let index = 0;
  let composed = format.composed;
  const text = format.text.replace(
    PRINTF,
    (_m, name: string | undefined, verb: string) => {
      if (verb === "%") return "%";
      const value = name !== undefined ? named?.get(name) : args[index++];
      if (!value || verb === "q") return HOLE;
      composed ||= value.composed;
      return value.text;
    },
  );
  return { text, composed };
}

/**
 * Python `str.format`: `{}`, `{0}` and `{name}` fields take the matching
 * argument; `{{` and `}}` are braces; a missing argument is a hole.
 */
export function formatBraces(
  format: Value,
  args: ReadonlyArray<Value | undefined>,
  named: ReadonlyMap<string, Value | undefined>,
): Value {
  let index = 0;
  let composed = format.composed;
  const text = format.text.replace(
    /\{\{|\}\}|\{([^{}]*)\}/g,
    (match, field: string | undefined) => {
      if (match === "{{") return "{";
      if (match === "}}") return "}";
      const name = (field ?? "").split(/[.[!:]/)[0] ?? "";
      let value: Value | undefined;
      if (name === "") value = args[index++];
      else if (/^\d+$/.test(name)) value = args[Number(name)];
      else value = named.get(name);
      if (!value) return HOLE;
      composed ||= value.composed;
      return value.text;
    },
  );
  return { text, composed };
}

/** An HTTP path taken from a value, with its confidence. */
export interface PathResult {
  /** The path: holes became `{}`; query and fragment removed. */
  path: string;
  /** See the `CONFIDENCE_*` scale. */
  confidence: number;
}

const SCHEME_HOST = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The path part of a URL a client calls. An absolute URL keeps its path; a
 * leading unresolved base (`f"{BASE}/users"`) is dropped; a relative URL is
 * joined to the client's base URL path. `undefined` when no path can be
 * told (a wholly unresolved URL, or a relative one without a base).
 */
export function clientPath(
  url: Value,
  base?: Value,
): PathResult | undefined {
  let composed = url.composed;
  let text = url.text;
  const absolute = SCHEME_HOST.exec(text);
  if (absolute) {
    text = text.slice(absolute[0].length);
    if (text === "" || text[0] !== "/") text = "/" + text;
  } else if (text.startsWith(HOLE)) {
    // a base URL variable that could not be resolved: keep the path after it
    // (an unresolved part: partial confidence, as for other languages)
    const rest = text.slice(1);
    if (!rest.startsWith("/")) return undefined;
    return finishPath(rest, true, true);
  } else if (base) {
    const basePath = clientPath(base);
    if (!basePath) return undefined;
    const prefix = basePath.path === "/"
      ? ""
      : basePath.path.replace(/\/$/, "");
    text = prefix + (text.startsWith("/") || text === "" ? text : "/" + text);
    if (text === "") text = "/";
    composed ||= prefix !== "" || basePath.confidence < 1;
    if (basePath.confidence < CONFIDENCE_COMPOSED) {
      return finishPath(text, true, true);
    }
  } else if (!text.startsWith("/")) {
    return undefined;
  }
  return finishPath(text, composed, false);
}

function finishPath(
  text: string,
  composed: boolean,
  partial: boolean,
): PathResult | undefined {
  const cut = text.search(/[?#]/);
  if (cut !== -1) text = text.slice(0, cut);
  if (text === "") text = "/";
  const holes = text.includes(HOLE);
  return {
    path: text.replaceAll(HOLE, "{}"),
    confidence: holes || partial
      ? CONFIDENCE_PARTIAL
      : composed
      ? CONFIDENCE_COMPOSED
      : CONFIDENCE_LITERAL,
  };
}

/**
 * A server route path from a value (already joined with its prefixes):
 * holes become `{}`, a missing leading slash is added.
 */
export function serverPath(value: Value): PathResult {
  let text = value.text;
  if (!text.startsWith("/")) text = "/" + text;
  return finishPath(text, value.composed, false) ??
    { path: "/", confidence: CONFIDENCE_PARTIAL };
}

/** Joins route path segments with single slashes. */
export function joinPaths(a: Value, b: Value): Value {
  let left = a.text;
  let right = b.text;
  if (left.endsWith("/") && right.startsWith("/")) right = right.slice(1);
  else if (
    left !== "" && right !== "" && !left.endsWith("/") && !right.startsWith("/")
  ) {
    left += "/";
  }
  return { text: left + right, composed: a.composed || b.composed };
}
