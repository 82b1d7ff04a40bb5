// `.gitignore` patterns (gitignore(5)) matched segment by segment without
// backtracking: `*`, `?` and `[...]` match within one path segment (see
// _segment_glob.ts), `**` spans whole segments, and the blocks between `**`
// are placed leftmost-first, so no pattern can make matching blow up (as a
// regular expression built from `a/**/a/**/...` does). Case-sensitive, as
// git is by default on Linux.

import {
  ANY_SEGMENT,
  compileSegment,
  type SegmentGlob,
} from "./_segment_glob.ts";

/** `**` as a whole segment: any number of directories. */
const GLOBSTAR = 0;

/** A literal segment, or a segment pattern with wildcards. */
type Part = string | SegmentGlob;

interface Rule {
  negated: boolean;
  directoryOnly: boolean;
  /** Parts between `**` segments: `a`, `**`, `b`, `c` is `[[a], [b, c]]`. */
  blocks: Part[][];
  /** Whether any `**` segment occurs (else `blocks` has one block). */
  spans: boolean;
  /** The pattern of the last segment of a matching path, if fixed. */
  last: Part | undefined;
}

/** The rules of one `.gitignore` file. */
export interface GitignoreRules {
  rules: Rule[];
  /** Patterns that are one literal name at any depth: name -> last index. */
  names: Map<string, number>;
  /** The same for directory-only patterns (`name/`). */
  directoryNames: Map<string, number>;
  /** Indices of every other rule, last first. */
  general: number[];
}

function segmentMatches(part: Part, segment: string): boolean {
  return typeof part === "string" ? part === segment : part.matches(segment);
}

/** Splits a pattern on `/` that is not escaped. */
function splitSegments(pattern: string): string[] {
  const segments: string[] = [];
  let current = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === "\\" && i + 1 < pattern.length) {
      current += char + pattern[++i];
    } else if (char === "/") {
      segments.push(current);
      current = "";
    } else current += char;
  }
  segments.push(current);
  return segments;
}

/** Trailing spaces are dropped unless escaped with a backslash. */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === " ") {
    let backslashes = 0;
    while (line[end - 2 - backslashes] === "\\") backslashes++;
    if (backslashes % 2 === 1) break;
    end--;
  }
  return line.slice(0, end);
}

/** Whether the text ends with an odd run of backslashes (a lone escape). */
function endsWithEscape(text: string): boolean {
  let backslashes = 0;
  while (text[text.length - 1 - backslashes] === "\\") backslashes++;
  return backslashes % 2 === 1;
}

function compileRule(line: string): Rule | undefined {
  let pattern = trimTrailingSpaces(line);
  if (pattern === "" || pattern.startsWith("#")) return undefined;
  const negated = pattern.startsWith("!");
  if (negated) pattern = pattern.slice(1);
  let directoryOnly = false;
  if (pattern.endsWith("/") && !endsWithEscape(pattern.slice(0, -1))) {
    directoryOnly = true;
    pattern = pattern.slice(0, -1);
  }
  if (pattern === "" || endsWithEscape(pattern)) return undefined;
  const segments = splitSegments(pattern);
  const anchored = segments.length > 1;
  if (segments[0] === "") segments.shift();
  const parts: Array<Part | typeof GLOBSTAR> = anchored ? [] : [GLOBSTAR];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === "**") {
      // a trailing `/**` matches what is inside, not the directory itself
      if (i === segments.length - 1 && i > 0) parts.push(ANY_SEGMENT);
      if (parts.at(-1) !== GLOBSTAR) parts.push(GLOBSTAR);
      continue;
    }
    const part = compileSegment(segment);
    if (part === undefined) return undefined;
    parts.push(part);
  }
  const blocks: Part[][] = [[]];
  for (const part of parts) {
    if (part === GLOBSTAR) blocks.push([]);
    else blocks.at(-1)!.push(part);
  }
  return {
    negated,
    directoryOnly,
    blocks,
    spans: blocks.length > 1,
    last: blocks.at(-1)!.at(-1),
  };
}

/** A quick test that rules out most rules before matching them. */
function mayMatch(rule: Rule, name: string): boolean {
  const last = rule.last;
  if (last === undefined) return true;
  if (typeof last === "string") return last === name;
  if (name.length < last.shortest) return false;
  for (const needle of last.needles) {
    if (!name.includes(needle)) return false;
  }
  return true;
}

/**
 * Compiles the text of a `.gitignore` file (blank lines, `#` comments,
 * `!` negation, trailing `/` for directories, leading or inner `/` to
 * anchor, `*`, `?`, `[...]`, `**`, backslash escapes).
 */
export function parseGitignore(text: string): GitignoreRules {
  const compiled: GitignoreRules = {
    rules: [],
    names: new Map(),
    directoryNames: new Map(),
    general: [],
  };
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = body.split("\n");
  // a line repeated later is decided by its last copy alone
  const lastCopy = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    lines[i] = line.endsWith("\r") ? line.slice(0, -1) : line;
    lastCopy.set(lines[i]!, i);
  }
  for (let i = 0; i < lines.length; i++) {
    if (lastCopy.get(lines[i]!) !== i) continue;
    const rule = compileRule(lines[i]!);
    if (rule === undefined) continue;
    const index = compiled.rules.push(rule) - 1;
    const [first, last] = [rule.blocks[0]!, rule.blocks.at(-1)!];
    const name = last[0];
    if (
      rule.blocks.length === 2 && first.length === 0 && last.length === 1 &&
      typeof name === "string"
    ) {
      (rule.directoryOnly ? compiled.directoryNames : compiled.names)
        .set(name, index);
    } else compiled.general.push(index);
  }
  compiled.general.reverse();
  return compiled;
}

/** Whether `block` matches `segments[at .. at + block.length)`. */
function blockAt(
  block: readonly Part[],
  segments: readonly string[],
  at: number,
): boolean {
  for (let i = 0; i < block.length; i++) {
    if (!segmentMatches(block[i]!, segments[at + i]!)) return false;
  }
  return true;
}

/** Whether a rule matches the path `segments[from..]`. */
function ruleMatches(
  rule: Rule,
  segments: readonly string[],
  from: number,
): boolean {
  const blocks = rule.blocks;
  const length = segments.length - from;
  const head = blocks[0]!;
  if (!rule.spans) {
    return head.length === length && blockAt(head, segments, from);
  }
  const tail = blocks.at(-1)!;
  if (head.length + tail.length > length) return false;
  if (!blockAt(head, segments, from)) return false;
  const end = segments.length - tail.length;
  if (!blockAt(tail, segments, end)) return false;
  // middle blocks, each at its leftmost place: fixed lengths, free gaps
  let at = from + head.length;
  for (let b = 1; b < blocks.length - 1; b++) {
    const block = blocks[b]!;
    while (at + block.length <= end && !blockAt(block, segments, at)) at++;
    if (at + block.length > end) return false;
    at += block.length;
  }
  return true;
}

/**
 * What one `.gitignore` says about a path (its segments from `from` on,
 * relative to the file's directory): `true` ignored, `false` re-included by
 * a `!` pattern, `undefined` no pattern matches. The last matching pattern
 * decides.
 */
export function gitignoreVerdict(
  compiled: GitignoreRules,
  segments: readonly string[],
  from: number,
  directory: boolean,
): boolean | undefined {
  const name = segments.at(-1)!;
  let best = compiled.names.get(name) ?? -1;
  if (directory) {
    best = Math.max(best, compiled.directoryNames.get(name) ?? -1);
  }
  for (const index of compiled.general) {
    if (index < best) break;
    const rule = compiled.rules[index]!;
    if (rule.directoryOnly && !directory) continue;
    if (!mayMatch(rule, name)) continue;
    if (ruleMatches(rule, segments, from)) return !rule.negated;
  }
  return best === -1 ? undefined : !compiled.rules[best]!.negated;
}
