// One path segment against one `.gitignore` segment pattern (`*`, `?`,
// `[...]`, escapes), by a bit-parallel automaton: each character of the
// segment costs one pass over the pattern's state words (32 tokens a word),
// whatever the pattern, so no pattern makes matching backtrack.

/** `?`: any one character. */
const ANY = 1;
/** `*`: any run of characters. */
const STAR = 2;

interface CharClass {
  negated: boolean;
  chars: string;
  ranges: number[]; // pairs of code units, inclusive
}

/** One token: a literal character, `?`, `*` or `[...]`. */
type Token = string | typeof ANY | typeof STAR | CharClass;

const POSIX: Readonly<Record<string, (code: number) => boolean>> = {
  alnum: (c) => POSIX.alpha!(c) || POSIX.digit!(c),
  alpha: (c) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122),
  blank: (c) => c === 32 || c === 9,
  cntrl: (c) => c < 32 || c === 127,
  digit: (c) => c >= 48 && c <= 57,
  graph: (c) => c > 32 && c < 127,
  lower: (c) => c >= 97 && c <= 122,
  print: (c) => c >= 32 && c < 127,
  punct: (c) => c > 32 && c < 127 && !POSIX.alnum!(c),
  space: (c) => c === 32 || (c >= 9 && c <= 13 && c !== 11 && c !== 12),
  upper: (c) => c >= 65 && c <= 90,
  xdigit: (c) =>
    POSIX.digit!(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102),
};

/**
 * Reads a bracket expression starting at `pattern[start] === "["`, as git's
 * wildmatch does: the class and the index after `]`, or `undefined` if it
 * never ends or names an unknown class (the pattern then matches nothing).
 */
function readClass(
  pattern: string,
  start: number,
): [CharClass, number] | undefined {
  const found: CharClass = { negated: false, chars: "", ranges: [] };
  let i = start + 1;
  if (pattern[i] === "!" || pattern[i] === "^") {
    found.negated = true;
    i++;
  }
  let first = true;
  while (i < pattern.length) {
    let char = pattern[i]!;
    if (char === "]" && !first) return [found, i + 1];
    first = false;
    if (char === "[" && pattern[i + 1] === ":") {
      const end = pattern.indexOf(":]", i + 2);
      if (end !== -1) {
        const test = POSIX[pattern.slice(i + 2, end)];
        if (test === undefined) return undefined;
        for (let c = 0; c < 128; c++) {
          if (test(c)) found.chars += String.fromCharCode(c);
        }
        i = end + 2;
        continue;
      }
    }
    if (char === "\\") {
      i++;
      if (i >= pattern.length) return undefined;
      char = pattern[i]!;
    }
    if (pattern[i + 1] === "-" && i + 2 < pattern.length) {
      let to = pattern[i + 2]!;
      let next = i + 3;
      if (to === "\\") {
        to = pattern[i + 3] ?? "";
        next = i + 4;
      }
      if (to !== "]" && to !== "") {
        // git tests the lower bound as a member first: `[c-a]` matches `c`
        if (char > to) found.chars += char;
        else found.ranges.push(char.charCodeAt(0), to.charCodeAt(0));
        i = next;
        continue;
      }
    }
    found.chars += char;
    i++;
  }
  return undefined;
}

function inClass(found: CharClass, char: string): boolean {
  let hit = found.chars.includes(char);
  if (!hit) {
    const code = char.charCodeAt(0);
    for (let r = 0; r < found.ranges.length; r += 2) {
      if (code >= found.ranges[r]! && code <= found.ranges[r + 1]!) {
        hit = true;
        break;
      }
    }
  }
  return hit !== found.negated;
}

/** A segment pattern with wildcards, compiled to bit masks. */
export class SegmentGlob {
  /** Literal runs a matching segment must contain. */
  readonly needles: string[];
  /** Fewest characters of a matching segment. */
  readonly shortest: number;
  #tokens: Token[];
  /** 32-bit words per state set; state j: the first j tokens matched. */
  #words: number;
  #stars: Uint32Array;
  /** For each ASCII code, its words: the tokens (not `*`) that accept it. */
  #ascii: Uint32Array;
  /** The same for one other character, filled when needed. */
  #other: Uint32Array;
  #state: Uint32Array;
  #next: Uint32Array;

  constructor(tokens: Token[]) {
    this.#tokens = tokens;
    const words = (tokens.length + 32) >>> 5;
    this.#words = words;
    this.#stars = new Uint32Array(words);
    this.#other = new Uint32Array(words);
    this.#state = new Uint32Array(words);
    this.#next = new Uint32Array(words);
    this.needles = [];
    this.shortest = 0;
    let run = "";
    for (let j = 0; j < tokens.length; j++) {
      const token = tokens[j]!;
      if (token === STAR) this.#stars[j >>> 5]! |= 1 << (j & 31);
      else this.shortest++;
      if (typeof token === "string") run += token;
      else {
        if (run !== "") this.needles.push(run);
        run = "";
      }
    }
    if (run !== "") this.needles.push(run);
    this.#ascii = new Uint32Array(128 * words);
    for (let c = 0; c < 128; c++) {
      this.#fillAccept(String.fromCharCode(c), this.#ascii, c * words);
    }
  }

  #fillAccept(char: string, into: Uint32Array, at: number): void {
    into.fill(0, at, at + this.#words);
    for (let j = 0; j < this.#tokens.length; j++) {
      const token = this.#tokens[j]!;
      const hit = typeof token === "string"
        ? token === char
        : token === ANY
        ? true
        : token !== STAR && inClass(token, char);
      if (hit) into[at + (j >>> 5)]! |= 1 << (j & 31);
    }
  }

  /** Adds `(from & and[at..]) << 1` to `into`, word by word. */
  #shiftIn(
    from: Uint32Array,
    and: Uint32Array,
    at: number,
    into: Uint32Array,
  ): void {
    let carry = 0;
    for (let w = 0; w < this.#words; w++) {
      const bits = from[w]! & and[at + w]!;
      into[w]! |= (bits << 1) | carry;
      carry = bits >>> 31;
    }
  }

  /** Whether the whole segment matches. */
  matches(segment: string): boolean {
    const words = this.#words;
    const stars = this.#stars;
    let state = this.#state;
    let next = this.#next;
    state.fill(0);
    state[0] = 1;
    // a `*` may match nothing: after it, the next token may start
    this.#shiftIn(state, stars, 0, state);
    for (let i = 0; i < segment.length; i++) {
      const code = segment.charCodeAt(i);
      let accept = this.#ascii;
      let at = code * words;
      if (code >= 128) {
        accept = this.#other;
        at = 0;
        this.#fillAccept(segment[i]!, accept, 0);
      }
      for (let w = 0; w < words; w++) next[w] = state[w]! & stars[w]!;
      this.#shiftIn(state, accept, at, next);
      this.#shiftIn(next, stars, 0, next);
      let alive = 0;
      for (let w = 0; w < words; w++) alive |= next[w]!;
      if (alive === 0) return false;
      const swap = state;
      state = next;
      next = swap;
    }
    const end = this.#tokens.length;
    return (state[end >>> 5]! & (1 << (end & 31))) !== 0;
  }
}

/**
 * A segment pattern: a plain string when it has no wildcard, else a
 * {@linkcode SegmentGlob}; `undefined` if it can never match.
 */
export function compileSegment(
  pattern: string,
): string | SegmentGlob | undefined {
  const tokens: Token[] = [];
  let literal = true;
  for (let i = 0; i < pattern.length;) {
    const char = pattern[i]!;
    if (char === "\\") {
      tokens.push(pattern[i + 1] ?? "\\");
      i += 2;
    } else if (char === "*") {
      // `**` inside a segment is a plain `*`
      if (tokens.at(-1) !== STAR) tokens.push(STAR);
      literal = false;
      i++;
    } else if (char === "?") {
      tokens.push(ANY);
      literal = false;
      i++;
    } else if (char === "[") {
      const found = readClass(pattern, i);
      if (found === undefined) return undefined;
      tokens.push(found[0]);
      literal = false;
      i = found[1];
    } else {
      tokens.push(char);
      i++;
    }
  }
  return literal ? tokens.join("") : new SegmentGlob(tokens);
}

/** A segment pattern `*` (any one segment). */
export const ANY_SEGMENT: SegmentGlob = new SegmentGlob([STAR]);
