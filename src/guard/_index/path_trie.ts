// A trie of path patterns by segment, per bucket of rules: a decision walks
// the request's path segment by segment, following the literal segment and
// the parameter (`:id`, `{id}`) edges, and takes the rules of the nodes it
// reaches. It only narrows the candidates: each candidate is then tested
// with casbin's own function. So a pattern's place in the trie must be one
// that every path it matches reaches; where a pattern stops being plain
// segments (`/*`, a regex, a `.`), its rule hangs below the last plain
// segment and is a candidate for every path through it.
import type { PatternFunction } from "./pattern.ts";
import { keyMatchSource } from "./pattern.ts";
import {
  finish,
  FNV_OFFSET,
  mix,
  type StringTable,
  tableSize,
} from "./string_table.ts";

/** Where a pattern hangs: its plain segments, and whether it ends there. */
export interface PatternPath {
  /** Segments as `[offset, length, kind]` slices of the pattern. */
  readonly segments:
    readonly (readonly [number, number, "literal" | "param"])[];
  /** True: matches only paths of exactly these segments ("here"). */
  readonly exact: boolean;
}

// Characters with a meaning in a regular expression, and line terminators
// (`.` and `(.*)` do not cross them, which changes casbin's rewriting).
const REGEX_SPECIAL = /[\\^$.|?*+()[\]{}\n\r\u2028\u2029]/;

/**
 * Whether a piece that stops the path starts with a quantifier of the "/"
 * before it (which may then be absent). keyMatch2..5 rewrite "/*" to
 * "/.*", and keyMatch3..5 every "/{...}"; regexMatch rewrites nothing.
 */
function quantifiesSeparator(fn: PatternFunction, piece: string): boolean {
  const quantifiers = fn === "regexMatch"
    ? "?*+{"
    : fn === "keyMatch2"
    ? "?+{"
    : "?+";
  return piece.length > 0 && quantifiers.includes(piece[0]!);
}

/**
 * Splits a path at each "/" (at each run of them with `collapse`, as
 * minimatch does), as `[offset, length]` pairs.
 */
function splitSegments(
  text: string,
  from: number,
  collapse = false,
): [number, number][] {
  const out: [number, number][] = [];
  let start = from;
  for (let i = from; i <= text.length; i++) {
    if (i === text.length || text[i] === "/") {
      out.push([start, i - start]);
      if (collapse) { while (text[i + 1] === "/") i++; }
      start = i + 1;
    }
  }
  return out;
}

// minimatch's special characters (globs, classes, extglobs, braces,
// escapes).
const GLOB_SPECIAL = /[*?[\]()!+@{}\\]/;

/**
 * A glob's leading plain segments: minimatch compares them with the path's
 * (split at runs of "/") one for one, until its first magic segment.
 * Negations, comments, braces and ".." (which removes the segment before
 * it) hang the rule below the root.
 */
function globPath(pattern: string): PatternPath {
  const none: PatternPath = { segments: [], exact: false };
  // casbin drops a leading `*` before a `/`.
  const from = pattern[0] === "*" && pattern[1] === "/" ? 1 : 0;
  const first = pattern[from];
  if (first === "!" || first === "#" || pattern.includes("{")) return none;
  const pieces = splitSegments(pattern, from, true);
  if (pieces.some(([o, l]) => pattern.slice(o, o + l) === "..")) return none;
  const segments: [number, number, "literal"][] = [];
  // The last piece may be followed by a trailing "/" in the path.
  for (const [offset, length] of pieces) {
    const piece = pattern.slice(offset, offset + length);
    if (GLOB_SPECIAL.test(piece) || piece === ".") break;
    segments.push([offset, length, "literal"]);
  }
  return { segments, exact: false };
}

/**
 * The trie path of a pattern for one of casbin's functions (see the module
 * comment); an empty path hangs the rule below the bucket's root.
 */
export function patternPath(fn: PatternFunction, pattern: string): PatternPath {
  const none: PatternPath = { segments: [], exact: false };
  if (fn === "ipMatch") return none;
  if (fn === "globMatch") return globPath(pattern);
  if (fn === "keyMatch") {
    // Every character is literal but `*`, from which anything goes.
    const star = pattern.indexOf("*");
    const pieces = splitSegments(
      star === -1 ? pattern : pattern.slice(0, star),
      0,
    );
    // With a `*`, the last piece is only the start of a segment.
    if (star !== -1) pieces.pop();
    return {
      segments: pieces.map(([o, l]) => [o, l, "literal"] as const),
      exact: star === -1,
    };
  }
  let from = 0;
  if (fn === "regexMatch") {
    // Unanchored unless it starts with "^"; an alternation may lift it.
    if (pattern[0] !== "^" || pattern.includes("|")) return none;
    from = 1;
  } else {
    const source = keyMatchSource(fn, pattern);
    if (source === undefined || source.includes("|")) return none;
  }
  const pieces = splitSegments(pattern, from);
  const segments: [number, number, "literal" | "param"][] = [];
  let exact = fn !== "regexMatch";
  for (let i = 0; i < pieces.length; i++) {
    const [offset, length] = pieces[i]!;
    const piece = pattern.slice(offset, offset + length);
    // regexMatch is not anchored at the end: its last piece may be the
    // start of a segment.
    const last = i === pieces.length - 1;
    const kind = fn === "regexMatch" && last
      ? undefined
      : pieceKind(fn, piece, i === 0);
    if (kind === undefined) {
      exact = false;
      // A quantifier at the start of a piece applies to the "/" before
      // it, which may then be absent: the previous piece may be only the
      // start of a segment.
      if (quantifiesSeparator(fn, piece)) segments.pop();
      break;
    }
    segments.push([offset, length, kind]);
  }
  return { segments, exact };
}

/** A piece of a keyMatch2..5 or regexMatch pattern: literal, param, or neither. */
function pieceKind(
  fn: PatternFunction,
  piece: string,
  first: boolean,
): "literal" | "param" | undefined {
  if (fn === "keyMatch2") {
    // casbin rewrites each ":name" after a "/" to "[^/]+"; a ":" elsewhere
    // in a segment is rewritten too, into something else.
    if (!first && /^:[^/:\n\r\u2028\u2029]+$/.test(piece)) return "param";
    if (piece.includes(":")) return undefined;
  } else if (fn !== "regexMatch") {
    if (!first && /^\{[^/{}\n\r\u2028\u2029]+\}$/.test(piece)) return "param";
  }
  return REGEX_SPECIAL.test(piece) ? undefined : "literal";
}

/** The trie of one pattern term's patterns; structured-cloneable. */
export interface CompiledTrie {
  /** The pattern term (an index in `terms`). */
  readonly term: number;
  readonly fn: PatternFunction;
  /** The root node of each bucket. */
  readonly bucketRoot: Uint32Array;
  /** Per node: its parameter child, or -1. */
  readonly nodeParam: Int32Array;
  /**
   * Literal edges: from `edgeParent[e]` by the segment `edgeLength[e]`
   * characters of string `edgeString[e]` from `edgeOffset[e]`.
   */
  readonly edgeParent: Uint32Array;
  readonly edgeString: Uint32Array;
  readonly edgeOffset: Uint32Array;
  readonly edgeLength: Uint32Array;
  readonly edgeHash: Uint32Array;
  readonly edgeChild: Uint32Array;
  /** Open addressing, power-of-two size: edge + 1, or 0 for empty. */
  readonly slots: Int32Array;
  /** Rules that match only paths ending at node `n`, ascending. */
  readonly hereStart: Uint32Array;
  readonly here: Uint32Array;
  /** Rules that match paths through node `n`, ascending. */
  readonly belowStart: Uint32Array;
  readonly below: Uint32Array;
  /** The deepest node's depth. */
  readonly maxDepth: number;
}

function edgeHash(raw: number, parent: number): number {
  return finish(mix(raw, parent));
}

/** Lists a CSR of per-node rule lists (rules pushed in ascending order). */
function csr(lists: number[][]): { start: Uint32Array; items: Uint32Array } {
  const start = new Uint32Array(lists.length + 1);
  let total = 0;
  for (let n = 0; n < lists.length; n++) {
    start[n] = total;
    total += lists[n]!.length;
  }
  start[lists.length] = total;
  const items = new Uint32Array(total);
  for (let n = 0; n < lists.length; n++) items.set(lists[n]!, start[n]!);
  return { start, items };
}

/**
 * Builds the trie of a pattern term: `rulePattern[r]` is rule `r`'s pattern
 * (a string id), `ruleBucket[r]` its bucket.
 */
export function buildTrie(
  term: number,
  fn: PatternFunction,
  patterns: readonly string[],
  rulePattern: Uint32Array,
  ruleBucket: Uint32Array,
  buckets: number,
): CompiledTrie {
  const paths = new Map<number, PatternPath>();
  const nodeParam: number[] = [];
  const here: number[][] = [];
  const below: number[][] = [];
  const newNode = (): number => {
    nodeParam.push(-1);
    here.push([]);
    below.push([]);
    return nodeParam.length - 1;
  };
  const bucketRoot = new Uint32Array(buckets);
  for (let b = 0; b < buckets; b++) bucketRoot[b] = newNode();
  const edgeOf = new Map<string, number>();
  const edgeParent: number[] = [];
  const edgeString: number[] = [];
  const edgeOffset: number[] = [];
  const edgeLength: number[] = [];
  const edgeChild: number[] = [];
  let maxDepth = 0;
  for (let r = 0; r < rulePattern.length; r++) {
    const id = rulePattern[r]!;
    const pattern = patterns[id]!;
    let path = paths.get(id);
    if (path === undefined) {
      path = patternPath(fn, pattern);
      paths.set(id, path);
    }
    let node = bucketRoot[ruleBucket[r]!]!;
    for (const [offset, length, kind] of path.segments) {
      if (kind === "param") {
        let child = nodeParam[node]!;
        if (child === -1) {
          child = newNode();
          nodeParam[node] = child;
        }
        node = child;
        continue;
      }
      const key = `${node}\u0000${pattern.slice(offset, offset + length)}`;
      let edge = edgeOf.get(key);
      if (edge === undefined) {
        edge = edgeParent.length;
        edgeOf.set(key, edge);
        edgeParent.push(node);
        edgeString.push(id);
        edgeOffset.push(offset);
        edgeLength.push(length);
        edgeChild.push(newNode());
      }
      node = edgeChild[edge]!;
    }
    maxDepth = Math.max(maxDepth, path.segments.length);
    (path.exact ? here : below)[node]!.push(r);
  }
  const count = edgeParent.length;
  const hashes = new Uint32Array(count);
  const slots = new Int32Array(tableSize(count));
  const mask = slots.length - 1;
  for (let e = 0; e < count; e++) {
    const text = patterns[edgeString[e]!]!;
    let raw = FNV_OFFSET;
    const end = edgeOffset[e]! + edgeLength[e]!;
    for (let i = edgeOffset[e]!; i < end; i++) {
      raw = mix(raw, text.charCodeAt(i));
    }
    const hash = edgeHash(raw, edgeParent[e]!);
    hashes[e] = hash;
    let slot = hash & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = e + 1;
  }
  const hereList = csr(here);
  const belowList = csr(below);
  return {
    term,
    fn,
    bucketRoot,
    nodeParam: Int32Array.from(nodeParam),
    edgeParent: Uint32Array.from(edgeParent),
    edgeString: Uint32Array.from(edgeString),
    edgeOffset: Uint32Array.from(edgeOffset),
    edgeLength: Uint32Array.from(edgeLength),
    edgeHash: hashes,
    edgeChild: Uint32Array.from(edgeChild),
    slots,
    hereStart: hereList.start,
    here: hereList.items,
    belowStart: belowList.start,
    below: belowList.items,
    maxDepth,
  };
}

/** The buffers of a trie, for a transfer list. */
export function trieBuffers(trie: CompiledTrie): ArrayBuffer[] {
  return [
    trie.bucketRoot,
    trie.nodeParam,
    trie.edgeParent,
    trie.edgeString,
    trie.edgeOffset,
    trie.edgeLength,
    trie.edgeHash,
    trie.edgeChild,
    trie.slots,
    trie.hereStart,
    trie.here,
    trie.belowStart,
    trie.below,
  ].map((array) => array.buffer as ArrayBuffer);
}

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
    const hash = edgeHash(raw, node);
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
