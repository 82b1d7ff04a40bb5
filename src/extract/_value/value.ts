// The symbolic string value every extractor evaluates expressions to: the
// literal parts a route path, URL, topic or name is built from, holes for
// the parts that could not be resolved (with where each came from), and
// whether anything resolved elsewhere (a constant, an environment default,
// a prefix) went into it.

/**
 * Where an unresolved part came from: a `constant` (a name not resolved
 * yet, or that nothing in the scan defines), an `env` variable read without
 * a default, a `parameter` of the enclosing function (a wrapper's callers
 * supply it), or anything else (`unknown`).
 */
export type HoleSource = "constant" | "env" | "parameter" | "unknown";

/** An unresolved part of a value. */
export interface Hole {
  /** Where it came from. */
  readonly hole: HoleSource;
  /** The source text (or name) it stands for. */
  readonly text: string;
}

/** A literal piece of text or a hole. */
export type Part = string | Hole;

/** A statically evaluated string. */
export interface Value {
  /** Literal text and holes in order; adjacent texts merged, none empty. */
  readonly parts: readonly Part[];
  /** Whether something resolved elsewhere went into the value. */
  readonly composed: boolean;
}

/** Stands for every hole in {@linkcode textOf} (never in source text). */
export const HOLE = "\u0000";

const EMPTY: Value = { parts: [], composed: false };

/** A literal value (`composed` when it was resolved elsewhere). */
export function literal(text: string, composed = false): Value {
  if (text === "" && !composed) return EMPTY;
  return { parts: text === "" ? [] : [text], composed };
}

/** A value that is one unresolved part. */
export function hole(text = "", source: HoleSource = "unknown"): Value {
  return { parts: [{ hole: source, text }], composed: false };
}

/**
 * The values one after the other; a missing one is an unknown hole.
 * `composed` when any part was.
 */
export function concat(values: ReadonlyArray<Value | undefined>): Value {
  const parts: Part[] = [];
  let composed = false;
  for (const value of values) {
    if (!value) {
      parts.push({ hole: "unknown", text: "" });
      continue;
    }
    composed ||= value.composed;
    for (const part of value.parts) pushPart(parts, part);
  }
  return { parts, composed };
}

function pushPart(parts: Part[], part: Part): void {
  if (typeof part === "string") {
    if (part === "") return;
    const last = parts[parts.length - 1];
    if (typeof last === "string") parts[parts.length - 1] = last + part;
    else parts.push(part);
  } else parts.push(part);
}

/** A value made of the given parts. */
export function fromParts(parts: readonly Part[], composed = false): Value {
  const out: Part[] = [];
  for (const part of parts) pushPart(out, part);
  return { parts: out, composed };
}

/** The same value, marked as resolved from elsewhere. */
export function composed(value: Value): Value {
  return value.composed ? value : { parts: value.parts, composed: true };
}

/** Whether a value has an unresolved part. */
export function hasHoles(value: Value): boolean {
  return value.parts.some((part) => typeof part !== "string");
}

/** Whether a value has no part at all (the empty string). */
export function isEmpty(value: Value): boolean {
  return value.parts.length === 0;
}

/** The text of a value without holes, else (or without a value) `undefined`. */
export function exactText(value: Value | undefined): string | undefined {
  if (!value) return undefined;
  let text = "";
  for (const part of value.parts) {
    if (typeof part !== "string") return undefined;
    text += part;
  }
  return text;
}

/** The text of a value, each hole written `{}` (how keys show them). */
export function keyText(value: Value): string {
  let text = "";
  for (const part of value.parts) {
    text += typeof part === "string" ? part : "{}";
  }
  return text;
}

/**
 * The text of a value with each hole written {@linkcode HOLE}, for text
 * rewrites (route syntaxes); {@linkcode fromText} reads it back.
 */
export function textOf(value: Value): string {
  let text = "";
  for (const part of value.parts) {
    text += typeof part === "string" ? part : HOLE;
  }
  return text;
}

/**
 * The value of a text written by {@linkcode textOf}: each {@linkcode HOLE}
 * is an unknown hole (where one came from is not kept through a rewrite).
 */
export function fromText(text: string, composed = false): Value {
  if (!text.includes(HOLE)) return literal(text, composed);
  const parts: Part[] = [];
  let start = 0;
  for (let at = text.indexOf(HOLE); at !== -1; at = text.indexOf(HOLE, start)) {
    pushPart(parts, text.slice(start, at));
    parts.push({ hole: "unknown", text: "" });
    start = at + 1;
  }
  pushPart(parts, text.slice(start));
  return { parts, composed };
}

/** Rewrites the text of a value (holes kept as {@linkcode HOLE}). */
export function mapText(
  value: Value,
  rewrite: (text: string) => string,
): Value {
  return fromText(rewrite(textOf(value)), value.composed);
}

/**
 * The value with each hole of `source` that `fill` gives a value for
 * replaced by it (composed: it was resolved elsewhere); other holes kept.
 */
export function fillHoles(
  value: Value,
  source: HoleSource,
  fill: (name: string) => Value | undefined,
): Value {
  if (!value.parts.some((p) => typeof p !== "string" && p.hole === source)) {
    return value;
  }
  const parts: Part[] = [];
  let composed = value.composed;
  for (const part of value.parts) {
    const filled = typeof part === "string" || part.hole !== source
      ? undefined
      : fill(part.text);
    if (filled) {
      parts.push(...filled.parts);
      composed = true;
    } else parts.push(part);
  }
  return fromParts(parts, composed);
}

/**
 * Resolves the `constant` holes of a table of constants that name other
 * entries (`USERS = API + "/users"`), a few rounds deep (a cycle stays a
 * hole): a hole names an entry by its text, or (`C.X`) by what follows the
 * class.
 */
export function settleConstants(constants: Map<string, Value>): void {
  // `C.X` names the constant `X` of class `C`, else a bare `X` (imported)
  const lookup = (name: string) =>
    constants.get(name) ??
      (name.includes(".")
        ? constants.get(name.slice(name.indexOf(".") + 1))
        : undefined);
  for (let round = 0; round < 4; round++) {
    let changed = false;
    for (const [name, value] of constants) {
      const next = fillHoles(
        value,
        "constant",
        (ref) => ref === name ? undefined : lookup(ref),
      );
      if (next !== value) {
        constants.set(name, next);
        changed = true;
      }
    }
    if (!changed) return;
  }
}
