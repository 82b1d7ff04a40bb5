// Where the bracketed groups of a route end (`{id}`, `<int:id>`, the
// `(regex)` of `:id(regex)`), found in linear time over a whole path even
// when many groups are never closed: an unclosed group is kept as text, so
// the next opening bracket is tried again, and a naive rescan to the end
// from each of them would be quadratic.

const BACKSLASH = 92;
const LBRACKET = 91;
const RBRACKET = 93;

/**
 * Skips a balanced group opened at `s[open]` (`{` or `(`), honouring
 * backslash escapes and `[...]` character classes inside it. Returns the
 * index after the closing character, or -1 when the group is never closed.
 */
export function skipGroup(
  s: string,
  open: number,
  end: number,
  openChar: number,
  closeChar: number,
): number {
  let depth = 0;
  let k = open;
  while (k < end) {
    const c = s.charCodeAt(k);
    if (c === BACKSLASH) {
      k += 2;
      continue;
    }
    if (c === LBRACKET && depth > 0) {
      k = skipClass(s, k, end);
      continue;
    }
    if (c === openChar) depth++;
    else if (c === closeChar && --depth === 0) return k + 1;
    k++;
  }
  return -1;
}

/** The index after the `]` closing the class at `s[k]` (or `end`). */
function skipClass(s: string, k: number, end: number): number {
  k++;
  while (k < end) {
    const d = s.charCodeAt(k);
    if (d === BACKSLASH) k += 2;
    else if (d === RBRACKET) break;
    else k++;
  }
  return k + 1;
}

/**
 * The ends of the groups of one bracket kind in one input, asked for in
 * increasing positions. Until a group is found unclosed each is skipped
 * directly (the common case allocates nothing); from the first unclosed
 * one, a single stack pass records where every later group opened inside
 * it ends, as {@linkcode skipGroup} would find.
 */
export class GroupEnds {
  #open: number;
  #close: number;
  #table: Map<number, number> | undefined;
  #from = 0;

  constructor(openChar: number, closeChar: number) {
    this.#open = openChar;
    this.#close = closeChar;
  }

  /** Forgets the previous input. */
  reset(): void {
    this.#table = undefined;
  }

  /** Whether a group of this input was found unclosed. */
  get sawUnclosed(): boolean {
    return this.#table !== undefined;
  }

  /** The index after the group opened at `s[k]`, or -1 if unclosed. */
  end(s: string, k: number, end: number): number {
    const table = this.#table;
    if (table !== undefined && k >= this.#from) return table.get(k) ?? -1;
    const close = skipGroup(s, k, end, this.#open, this.#close);
    if (close === -1) {
      this.#table = this.#match(s, k, end);
      this.#from = k;
    }
    return close;
  }

  /** Open index -> index after its close, for groups opened from `k` on. */
  #match(s: string, k: number, end: number): Map<number, number> {
    const table = new Map<number, number>();
    const stack: number[] = [];
    while (k < end) {
      const c = s.charCodeAt(k);
      if (c === BACKSLASH) {
        k += 2;
        continue;
      }
      if (c === LBRACKET && stack.length > 0) {
        k = skipClass(s, k, end);
        continue;
      }
      if (c === this.#open) stack.push(k);
      else if (c === this.#close && stack.length > 0) {
        table.set(stack.pop()!, k + 1);
      }
      k++;
    }
    return table;
  }
}

/**
 * The `>` closing angle groups, asked for in increasing positions: one
 * search answers every `<` up to the `>` it found.
 */
export class AngleEnds {
  #found = -2;

  /** Forgets the previous input. */
  reset(): void {
    this.#found = -2;
  }

  /** Whether a `<` of this input was found unclosed. */
  get sawUnclosed(): boolean {
    return this.#found === -1;
  }

  /** The index after the `>` closing the `<` at `s[k]`, or -1 if none. */
  end(s: string, k: number, end: number): number {
    if (this.#found !== -1 && this.#found < k) {
      const at = s.indexOf(">", k);
      this.#found = at === -1 || at >= end ? -1 : at;
    }
    return this.#found === -1 ? -1 : this.#found + 1;
  }
}
