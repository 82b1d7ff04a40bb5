// Walks the path trie (path_trie.ts) for a request's path: segment by
// segment, along the literal edge and the parameter edge, collecting the
// rules of the nodes it reaches. Bounded: past MAX_VISITS nodes the caller
// tests every rule of the bucket instead.
import type { CompiledTrie } from "./path_trie.ts";
import { edgeKey } from "./path_trie.ts";
import { FNV_OFFSET, mix, type StringTable } from "./string_table.ts";

// Most trie nodes one decision visits; past it, the decision tests every
// rule of the bucket (as casbin would), so that no policy makes a walk
// cost more than that.
export const MAX_VISITS = 512;

/**
 * Walks tries for request paths. Holds scratch buffers, reused by every
 * (synchronous) walk.
 */
export class TrieWalker {
  readonly trie: CompiledTrie;
  readonly #strings: StringTable;
  // Per request segment (up to the trie's depth): start, end, raw hash.
  #starts: Int32Array;
  #ends: Int32Array;
  #raw: Int32Array;
  #count = 0;
  #stack: Int32Array;

  constructor(trie: CompiledTrie, strings: StringTable) {
    this.trie = trie;
    this.#strings = strings;
    const depth = trie.maxDepth + 1;
    this.#starts = new Int32Array(depth);
    this.#ends = new Int32Array(depth);
    this.#raw = new Int32Array(depth);
    this.#stack = new Int32Array(2 * (MAX_VISITS + 2));
  }

  /** Splits the request path into the segments the trie can use. */
  prepare(text: string): void {
    let path = text;
    if (this.trie.fn === "keyMatch5") {
      // keyMatch5 ignores the query string.
      const query = path.indexOf("?");
      if (query !== -1) path = path.slice(0, query);
    }
    const depth = this.#starts.length;
    // minimatch splits at runs of "/".
    const collapse = this.trie.fn === "globMatch";
    let count = 0;
    let start = 0;
    let raw = FNV_OFFSET;
    for (let i = 0; i <= path.length; i++) {
      const c = i === path.length ? 47 : path.charCodeAt(i);
      if (c === 47) {
        // "/"
        if (
          collapse && i > 0 && i < path.length && path.charCodeAt(i - 1) === 47
        ) {
          start = i + 1;
          continue;
        }
        if (count < depth) {
          this.#starts[count] = start;
          this.#ends[count] = i;
          this.#raw[count] = raw;
        }
        count++;
        start = i + 1;
        raw = FNV_OFFSET;
        if (count > depth) break;
      } else {
        raw = mix(raw, c);
      }
    }
    // More segments than the trie is deep: no rule ends at the last one.
    this.#count = count;
    this.#text = path;
  }

  #text = "";

  /**
   * Appends the candidate rules of a bucket to `out` from `at`; returns the
   * new end, the number of lists appended in `lists`, or -1 when the walk
   * visited too many nodes (the caller then takes every rule).
   */
  collect(
    bucket: number,
    out: Uint32Array,
    at: number,
    lists: { n: number },
  ): number {
    const trie = this.trie;
    const stack = this.#stack;
    let top = 0;
    stack[top++] = trie.bucketRoot[bucket]!;
    stack[top++] = 0;
    let visits = 0;
    while (top > 0) {
      const depth = stack[--top]!;
      const node = stack[--top]!;
      if (++visits > MAX_VISITS) return -1;
      at = append(trie.below, trie.belowStart, node, out, at, lists);
      if (depth === this.#count) {
        at = append(trie.here, trie.hereStart, node, out, at, lists);
        continue;
      }
      if (depth >= this.#starts.length) continue;
      const from = this.#starts[depth]!;
      const to = this.#ends[depth]!;
      const param = trie.nodeParam[node]!;
      if (param !== -1 && to > from) {
        stack[top++] = param;
        stack[top++] = depth + 1;
      }
      const child = this.#literal(node, from, to, this.#raw[depth]!);
      if (child !== -1) {
        stack[top++] = child;
        stack[top++] = depth + 1;
      }
    }
    return at;
  }

  /** The child of `node` by the request segment `from..to`, or -1. */
  #literal(node: number, from: number, to: number, raw: number): number {
    const trie = this.trie;
    const hash = edgeKey(raw, node);
    const slots = trie.slots;
    const mask = slots.length - 1;
    const { chars, start } = this.#strings;
    const length = to - from;
    const text = this.#text;
    for (let slot = hash & mask;; slot = (slot + 1) & mask) {
      const entry = slots[slot]!;
      if (entry === 0) return -1;
      const e = entry - 1;
      if (
        trie.edgeHash[e] !== hash || trie.edgeParent[e] !== node ||
        trie.edgeLength[e] !== length
      ) {
        continue;
      }
      const base = start[trie.edgeString[e]!]! + trie.edgeOffset[e]!;
      let i = 0;
      while (i < length && chars[base + i] === text.charCodeAt(from + i)) i++;
      if (i === length) return trie.edgeChild[e]!;
    }
  }
}

function append(
  items: Uint32Array,
  starts: Uint32Array,
  node: number,
  out: Uint32Array,
  at: number,
  lists: { n: number },
): number {
  const from = starts[node]!;
  const to = starts[node + 1]!;
  if (to === from) return at;
  out.set(items.subarray(from, to), at);
  lists.n++;
  return at + to - from;
}
