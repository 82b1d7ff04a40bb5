// A trie of path patterns by segment, per bucket of rules: a decision walks
// the request's path segment by segment, following the literal segment and
// the parameter (`:id`, `{id}`) edges, and takes the rules of the nodes it
// reaches. It only narrows the candidates: each candidate is then tested
// with casbin's own function. So a pattern's place in the trie must be one
// that every path it matches reaches; where a pattern stops being plain
// segments (`/*`, a regex, a `.`), its rule hangs below the last plain
// segment and is a candidate for every path through it.
import type { PatternFunction } from "./pattern.ts";
import { finish, FNV_OFFSET, mix, tableSize } from "./string_table.ts";

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
  } else if (pattern.includes("|")) {
    // casbin's rewriting adds no "|": one in the pattern may lift the
    // anchors. (Patterns casbin loops on are refused before.)
    return none;
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
  /**
   * Per rule: 1 when reaching it from a "here" list proves its pattern
   * matches (plain segments of keyMatch, keyMatch2, keyMatch3, keyMatch5:
   * casbin's regular expression then says just what the walk checked).
   */
  readonly proven: Uint8Array;
  /** The deepest node's depth. */
  readonly maxDepth: number;
}

/** The hash of a literal edge: its segment's (unfinished) hash and parent. */
export function edgeKey(raw: number, parent: number): number {
  return finish(mix(raw, parent));
}

/**
 * Lists the rules of each node, ascending (a counting sort by node); rules
 * whose `ruleNode` is -1 are left out.
 */
function byNode(
  ruleNode: Int32Array,
  nodes: number,
): { start: Uint32Array; items: Uint32Array } {
  const start = new Uint32Array(nodes + 1);
  for (const node of ruleNode) if (node !== -1) start[node + 1]!++;
  for (let n = 0; n < nodes; n++) start[n + 1]! += start[n]!;
  const fill = start.slice(0, nodes);
  const items = new Uint32Array(start[nodes]!);
  for (let r = 0; r < ruleNode.length; r++) {
    const node = ruleNode[r]!;
    if (node !== -1) items[fill[node]!++] = r;
  }
  return { start, items };
}

// Rules handled between two pauses of buildTrie().
const CHUNK = 64;

/**
 * Builds the trie of a pattern term: `rulePattern[r]` is rule `r`'s pattern
 * (a string id), `ruleBucket[r]` its bucket. Pauses (yields) after every
 * CHUNK rules.
 */
export function* buildTrie(
  term: number,
  fn: PatternFunction,
  patterns: readonly string[],
  rulePattern: Uint32Array,
  ruleBucket: Uint32Array,
  buckets: number,
): Generator<void, CompiledTrie> {
  // The path of each distinct pattern, and room for every edge.
  const paths = new Map<number, PatternPath>();
  let capacity = 0;
  let maxDepth = 0;
  for (let r = 0; r < rulePattern.length; r++) {
    if (r % CHUNK === CHUNK - 1) yield;
    const id = rulePattern[r]!;
    let path = paths.get(id);
    if (path === undefined) {
      path = patternPath(fn, patterns[id]!);
      paths.set(id, path);
    }
    capacity += path.segments.length;
    maxDepth = Math.max(maxDepth, path.segments.length);
  }
  const nodeParam = new Int32Array(buckets + capacity).fill(-1);
  let nodes = buckets;
  const bucketRoot = new Uint32Array(buckets);
  for (let b = 0; b < buckets; b++) bucketRoot[b] = b;
  // Per rule: the node it ends at ("here") or hangs below, else -1.
  const hereNode = new Int32Array(rulePattern.length).fill(-1);
  const proven = new Uint8Array(rulePattern.length);
  // keyMatch4 also compares the values of repeated parameters.
  const proves = fn === "keyMatch" || fn === "keyMatch2" ||
    fn === "keyMatch3" ||
    fn === "keyMatch5";
  const belowNode = new Int32Array(rulePattern.length).fill(-1);
  const edgeParent = new Uint32Array(capacity);
  const edgeString = new Uint32Array(capacity);
  const edgeOffset = new Uint32Array(capacity);
  const edgeLength = new Uint32Array(capacity);
  const edgeHash = new Uint32Array(capacity);
  const edgeChild = new Uint32Array(capacity);
  const slots = new Int32Array(tableSize(capacity));
  const mask = slots.length - 1;
  let edges = 0;
  for (let r = 0; r < rulePattern.length; r++) {
    if (r % CHUNK === CHUNK - 1) yield;
    const id = rulePattern[r]!;
    const pattern = patterns[id]!;
    const path = paths.get(id)!;
    let node = bucketRoot[ruleBucket[r]!]!;
    for (const [offset, length, kind] of path.segments) {
      if (kind === "param") {
        if (nodeParam[node] === -1) nodeParam[node] = nodes++;
        node = nodeParam[node]!;
        continue;
      }
      let raw = FNV_OFFSET;
      for (let i = offset; i < offset + length; i++) {
        raw = mix(raw, pattern.charCodeAt(i));
      }
      const hash = edgeKey(raw, node);
      let slot = hash & mask;
      let child = -1;
      for (; slots[slot] !== 0; slot = (slot + 1) & mask) {
        const e = slots[slot]! - 1;
        if (
          edgeHash[e] !== hash || edgeParent[e] !== node ||
          edgeLength[e] !== length
        ) {
          continue;
        }
        const other = patterns[edgeString[e]!]!;
        const base = edgeOffset[e]!;
        let i = 0;
        while (
          i < length &&
          other.charCodeAt(base + i) === pattern.charCodeAt(offset + i)
        ) i++;
        if (i === length) {
          child = edgeChild[e]!;
          break;
        }
      }
      if (child === -1) {
        child = nodes++;
        edgeParent[edges] = node;
        edgeString[edges] = id;
        edgeOffset[edges] = offset;
        edgeLength[edges] = length;
        edgeHash[edges] = hash;
        edgeChild[edges] = child;
        slots[slot] = ++edges;
      }
      node = child;
    }
    (path.exact ? hereNode : belowNode)[r] = node;
    if (path.exact && proves) proven[r] = 1;
  }
  yield;
  const hereList = byNode(hereNode, nodes);
  yield;
  const belowList = byNode(belowNode, nodes);
  yield;
  return {
    term,
    fn,
    bucketRoot,
    nodeParam: nodeParam.slice(0, nodes),
    edgeParent: edgeParent.slice(0, edges),
    edgeString: edgeString.slice(0, edges),
    edgeOffset: edgeOffset.slice(0, edges),
    edgeLength: edgeLength.slice(0, edges),
    edgeHash: edgeHash.slice(0, edges),
    edgeChild: edgeChild.slice(0, edges),
    // Sized for the capacity: at most half full.
    slots,
    hereStart: hereList.start,
    here: hereList.items,
    belowStart: belowList.start,
    below: belowList.items,
    proven,
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
    trie.proven,
  ].map((array) => array.buffer as ArrayBuffer);
}
