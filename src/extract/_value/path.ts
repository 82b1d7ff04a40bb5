// HTTP paths from values: joining route prefixes, the path a server route
// serves and the path a client URL calls, each with its confidence.
import { CONFIDENCE, confidenceOf } from "./confidence.ts";
import {
  exactText,
  fromParts,
  HOLE,
  isEmpty,
  literal,
  type Part,
  textOf,
  type Value,
} from "./value.ts";

/** An HTTP path taken from a value. */
export interface PathResult {
  /** The path, starting with `/`: holes written `{}`, query and fragment cut. */
  path: string;
  /** Whether a part of the path is unresolved. */
  holes: boolean;
  /** The confidence level's number (see `CONFIDENCE`). */
  confidence: number;
}

/**
 * Joins route path segments (values or literal texts) with exactly one
 * slash at each seam (an empty segment adds nothing); everything else,
 * such as a trailing slash, is kept as written.
 */
export function joinPaths(...values: ReadonlyArray<Value | string>): Value {
  const parts: Part[] = [];
  let composed = false;
  for (const item of values) {
    const value = typeof item === "string" ? literal(item) : item;
    composed ||= value.composed;
    if (isEmpty(value)) continue;
    const next = [...value.parts];
    const last = parts[parts.length - 1];
    if (last !== undefined) {
      const left = typeof last === "string" && last.endsWith("/");
      const first = next[0];
      const right = typeof first === "string" && first.startsWith("/");
      if (left && right) next[0] = (first as string).slice(1);
      else if (!left && !right) parts.push("/");
    }
    parts.push(...next);
  }
  return fromParts(parts, composed);
}

/**
 * Whether a route prefix adds to the paths under it: any prefix but one
 * known to be empty (an unresolved one may add segments).
 */
export function addsPrefix(prefix: Value): boolean {
  return (exactText(prefix) ?? "x") !== "";
}

/**
 * The path a server route serves, from its value (already joined with its
 * prefixes): a missing leading slash is added; `prefixed` (a prefix from
 * elsewhere went into it) counts as composed.
 */
export function routePath(value: Value, prefixed = false): PathResult {
  let text = textOf(value);
  if (!text.startsWith("/")) text = "/" + text;
  // A `?` inside a `{...}` parameter marks it optional (ASP.NET
  // `{month:int?}`, Laravel `{name?}`, fasthttp/router `{slug?:[a-z]+}`);
  // it starts no query string.
  if (text.indexOf("?") !== -1) {
    text = text.replace(/\{([^{}?]*)\?\}/g, "{$1}")
      .replace(/\{(\w+)\?(:[^{}]*)\}/g, "{$1$2}");
  }
  return finishPath(text, value.composed || prefixed, false);
}

const ORIGIN = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:)?\/\/[^/?#]*/;

/**
 * The path of a URL a client calls: an absolute URL keeps its path (holes
 * in the host do not count); a leading unresolved base (`BASE + "/users"`)
 * is dropped: held in the program it is taken for the service's origin
 * (`composed`), read from the environment it may hide a path prefix
 * (`partial`). A URL that is neither is a path under the client's `base`
 * URL (joined with one slash; a base with a path makes it `composed`).
 * `undefined` when no path can be told (a wholly unresolved URL, a relative
 * one without a base, a URL whose path is the unresolved part).
 */
export function clientPath(url: Value, base?: Value): PathResult | undefined {
  const lead = url.parts[0];
  if (
    base && !isEmpty(base) &&
    (lead === undefined || (typeof lead === "string" && !ORIGIN.test(lead)))
  ) {
    const result = clientPath(joinPaths(base, url));
    const basePath = clientPath(base)?.path;
    if (
      result?.confidence === CONFIDENCE.literal && basePath !== undefined &&
      basePath !== "/"
    ) {
      result.confidence = CONFIDENCE.composed;
    }
    return result;
  }
  let text = textOf(url);
  let composed = url.composed;
  let partial = false;
  if (lead !== undefined && typeof lead !== "string") {
    text = text.slice(1);
    if (text === "" || text.startsWith(HOLE) || /^[?#]/.test(text)) {
      return undefined;
    }
    if (lead.hole === "env") partial = true;
    else composed = true;
    if (!text.startsWith("/") && !ORIGIN.test(text)) text = "/" + text;
  }
  const origin = ORIGIN.exec(text);
  if (origin) {
    text = text.slice(origin[0].length);
    // `http://${host}${path}`: the path is what is unknown
    if (origin[0].endsWith(HOLE) && !text.startsWith("/")) return undefined;
    if (!text.startsWith("/")) text = "/" + text;
  } else if (!text.startsWith("/")) {
    return undefined;
  }
  return finishPath(text, composed, partial);
}

function finishPath(
  text: string,
  composed: boolean,
  partial: boolean,
): PathResult {
  const cut = text.search(/[?#]/);
  if (cut !== -1) text = text.slice(0, cut);
  if (text === "") text = "/";
  const holes = text.includes(HOLE);
  return {
    path: holes ? text.replaceAll(HOLE, "{}") : text,
    holes: holes || partial,
    confidence: confidenceOf({ holes: holes || partial, composed }),
  };
}
