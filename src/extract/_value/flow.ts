// Values that flow into a function through its parameters: which
// `parameter` holes of a value stand for a path or URL the callers supply
// (a wrapper), and the value with those holes replaced by a call site's
// arguments.
import { fromParts, hole, type Part, type Value } from "./value.ts";

/** How far a value is followed out through callers of callers. */
export const MAX_FLOW_DEPTH = 3;

/** How many call sites of one function are followed. */
export const MAX_CALL_SITES = 32;

/**
 * The names of the `parameter` holes of a value that stand for a whole path,
 * a prefix or a base URL (`BASE + path`, `f"{prefix}/users"`), not a value
 * inside one: a hole right after `/`, `?`, `#`, `=` or `&`, or in the host
 * of a URL, is a path segment, query value or host (`/users/{id}`).
 */
export function flowingParameters(value: Value): Set<string> {
  const out = new Set<string>();
  let before = "";
  for (const part of value.parts) {
    if (typeof part === "string") {
      before += part;
      continue;
    }
    if (
      part.hole === "parameter" && !/[/?#=&]$/.test(before) &&
      !/^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/]*$/i.test(before)
    ) out.add(part.text);
    before += "\u0000";
  }
  return out;
}

/**
 * The value with each `parameter` hole named in `bound` replaced by its
 * value, and every other `parameter` hole made an `unknown` one (it stands
 * for a value the path only carries).
 */
export function bindParameters(
  value: Value,
  bound: ReadonlyMap<string, Value>,
): Value {
  const parts: Part[] = [];
  let composed = value.composed;
  for (const part of value.parts) {
    if (typeof part === "string" || part.hole !== "parameter") {
      parts.push(part);
      continue;
    }
    const argument = bound.get(part.text);
    if (argument) {
      parts.push(...argument.parts);
      composed = true;
    } else parts.push(...hole(part.text).parts);
  }
  return fromParts(parts, composed);
}
