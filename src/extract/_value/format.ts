// String formatting as values: printf verbs, Python's `str.format` fields,
// Rust's `format!` and the placeholders of `String.format`/`sprintf` whose
// arguments are not evaluated.
import { fromParts, hole, type Part, type Value } from "./value.ts";

const PRINTF = /%(?:\(([^)]*)\))?[-+ #0]*(?:\d+|\*)?(?:\.\d+)?([a-zA-Z%])/g;
const BRACES = /\{\{|\}\}|\{([^{}]*)\}/g;

/**
 * Replaces the matches of `pattern` in the literal parts of `format` with
 * what `field` gives for each (a value, or a string to keep as text).
 */
function substitute(
  format: Value,
  pattern: RegExp,
  field: (match: RegExpExecArray) => Value | string,
): Value {
  const parts: Part[] = [];
  let composed = format.composed;
  for (const part of format.parts) {
    if (typeof part !== "string") {
      parts.push(part);
      continue;
    }
    let start = 0;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(part); m; m = pattern.exec(part)) {
      parts.push(part.slice(start, m.index));
      const value = field(m);
      if (typeof value === "string") parts.push(value);
      else {
        composed ||= value.composed;
        parts.push(...value.parts);
      }
      start = m.index + m[0].length;
    }
    parts.push(part.slice(start));
  }
  return fromParts(parts, composed);
}

/**
 * `printf`-style formatting (`%s`, `%d`, `%v`... and Python's `%(name)s`):
 * each verb takes the next argument (or the named one), `%%` is a percent
 * sign, and a missing argument (or `%q`) is a hole.
 */
export function formatPrintf(
  format: Value,
  args: ReadonlyArray<Value | undefined>,
  named?: ReadonlyMap<string, Value | undefined>,
): Value {
  let index = 0;
  return substitute(format, PRINTF, (m) => {
    const name = m[1];
    const verb = m[2];
    if (verb === "%") return "%";
    const value = name !== undefined ? named?.get(name) : args[index++];
    return value && verb !== "q" ? value : hole(m[0]);
  });
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
  return substitute(format, BRACES, (m) => {
    if (m[0] === "{{") return "{";
    if (m[0] === "}}") return "}";
    const name = (m[1] ?? "").split(/[.[!:]/)[0] ?? "";
    let value: Value | undefined;
    if (name === "") value = args[index++];
    else if (/^\d+$/.test(name)) value = args[Number(name)];
    else value = named.get(name);
    return value ?? hole(m[0]);
  });
}

const PLACEHOLDERS = /%[sdvf]|\{\d*\}/g;

/**
 * A format string whose arguments are not evaluated (`String.format`,
 * `sprintf`, `string.Format`): each `%s`/`%d`/`%v`/`%f` and `{}`/`{0}`
 * placeholder is a hole.
 */
export function formatPlaceholders(format: Value): Value {
  return substitute(format, PLACEHOLDERS, (m) => hole(m[0]));
}

const RUST_FIELDS = /\{\{|\}\}|\{[^}]*\}/g;

/** Rust's `format!`: `{}`, `{0}`, `{name}`, `{:?}` are holes; `{{` is `{`. */
export function formatRust(format: Value): Value {
  return substitute(format, RUST_FIELDS, (m) => {
    if (m[0] === "{{") return "{";
    if (m[0] === "}}") return "}";
    return hole(m[0]);
  });
}
