// The policy index of indexed_enforcer.ts in flat typed arrays, so that a
// worker can build it and hand it over without a copy (the buffers are
// transferred) and without allocating one object per rule on the receiving
// side: a 100,000-rule index of nested maps is some 200,000 objects whose
// garbage collection alone blocks an event loop for tens of milliseconds.
//
// Layout: every distinct string (policy values of the compared fields and
// names of the role graphs) is stored once, as UTF-16 code units, and found
// through an open-addressing hash table. A rule is the tuple of its string
// ids, found through a second hash table; its value is the ALLOWS|DENIES
// mask. A role graph is an adjacency list (CSR) over string ids. Lookups
// read request strings code unit by code unit: no allocation per request.
import type { EffectKind, MatcherTerm } from "./_matcher_plan.ts";
import {
  effectOf,
  type IndexableEnforcer,
  NO_ANSWER,
  plainRoleGraph,
  planIndex,
  type RoleNode,
} from "./indexed_enforcer.ts";

/** The role graph of one role term, as an adjacency list over string ids. */
export interface CompiledRoleGraph {
  /** Edges of string `i`: `edges[start[i]]` to `edges[start[i + 1] - 1]`. */
  readonly start: Uint32Array;
  readonly edges: Uint32Array;
  /** Most links `g()` follows (casbin's `maxHierarchyLevel`). */
  readonly maxLevel: number;
}

/** A policy index in typed arrays; structured-cloneable and transferable. */
export interface CompiledIndex {
  readonly terms: readonly MatcherTerm[];
  readonly effect: EffectKind;
  readonly requestSize: number;
  /** All distinct strings, concatenated. */
  readonly chars: Uint16Array;
  /** String `i` is `chars[stringStart[i]]` to `chars[stringStart[i + 1] - 1]`. */
  readonly stringStart: Uint32Array;
  readonly stringHash: Uint32Array;
  /** Open addressing, power-of-two size: string id + 1, or 0 for empty. */
  readonly stringSlots: Int32Array;
  /** Rule `r` is `tupleIds[r * terms.length]` and the ids after it. */
  readonly tupleIds: Uint32Array;
  readonly masks: Uint8Array;
  /** Open addressing, power-of-two size: rule + 1, or 0 for empty. */
  readonly tupleSlots: Int32Array;
  /** Per term: the role graph of a role term (null for an equality). */
  readonly roles: readonly (CompiledRoleGraph | null)[] | null;
}

/** The buffers of a compiled index, for a transfer list. */
export function compiledBuffers(index: CompiledIndex): ArrayBuffer[] {
  const buffers = [
    index.chars,
    index.stringStart,
    index.stringHash,
    index.stringSlots,
    index.tupleIds,
    index.masks,
    index.tupleSlots,
  ].map((array) => array.buffer as ArrayBuffer);
  for (const graph of index.roles ?? []) {
    if (graph !== null) {
      buffers.push(
        graph.start.buffer as ArrayBuffer,
        graph.edges.buffer as ArrayBuffer,
      );
    }
  }
  return buffers;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function hashString(text: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  }
  return finish(hash);
}

function mix(hash: number, value: number): number {
  return Math.imul(hash ^ value, FNV_PRIME);
}

/**
 * Spreads every input bit over the low bits (murmur3's finalizer): the
 * tables index by the low bits, and FNV over small integers leaves them
 * clustered.
 */
function finish(hash: number): number {
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A power of two at least twice `count` (load factor at most 1/2). */
function tableSize(count: number): number {
  let size = 8;
  while (size < count * 2) size *= 2;
  return size;
}

/**
 * Builds the flat index of a casbin enforcer's policy, with the same
 * content as the nested maps of indexed_enforcer.ts, or returns why casbin
 * must decide (the model's shape, or a role manager the flat form cannot
 * copy). Allocates no object per rule: meant for the worker, where a
 * 100,000-rule policy compiles in about a hundred milliseconds.
 */
export function compileEnforcerIndex(
  enforcer: IndexableEnforcer,
): CompiledIndex | string {
  const planned = planIndex(enforcer);
  if (typeof planned === "string") return planned;
  const { plan, policy, model } = planned;
  const ids = new Map<string, number>();
  const strings: string[] = [];
  const intern = (text: string): number => {
    let id = ids.get(text);
    if (id === undefined) {
      id = strings.length;
      ids.set(text, id);
      strings.push(text);
    }
    return id;
  };

  // Rules: one entry per distinct tuple of compared values, its effects
  // ORed (several rules may share a tuple).
  const terms = plan.terms;
  const k = terms.length;
  const tupleIds = new Uint32Array(policy.length * k);
  const allMasks = new Uint8Array(policy.length);
  const tupleSlots = new Int32Array(tableSize(policy.length));
  const slotMask = tupleSlots.length - 1;
  const tuple = new Int32Array(k);
  let count = 0;
  for (let i = 0; i < policy.length; i++) {
    const rule = policy[i]!;
    let hash = FNV_OFFSET;
    for (let t = 0; t < k; t++) {
      const cell = rule[terms[t]!.policyIndex];
      if (typeof cell !== "string") {
        return `policy rule ${
          i + 1
        } has no string in a field the matcher compares`;
      }
      const id = intern(cell);
      tuple[t] = id;
      hash = mix(hash, id);
    }
    hash = finish(hash);
    const effect = effectOf(rule, plan.eftIndex);
    for (let slot = hash & slotMask;; slot = (slot + 1) & slotMask) {
      const entry = tupleSlots[slot]!;
      if (entry === 0) {
        for (let t = 0; t < k; t++) tupleIds[count * k + t] = tuple[t]!;
        allMasks[count] = effect;
        tupleSlots[slot] = ++count;
        break;
      }
      const base = (entry - 1) * k;
      let t = 0;
      while (t < k && tupleIds[base + t] === tuple[t]) t++;
      if (t === k) {
        allMasks[entry - 1]! |= effect;
        break;
      }
    }
  }

  // Role graphs: copy casbin's, over the same string ids.
  let roles: (CompiledRoleGraph | null)[] | null = null;
  if (terms.some((term) => term.role !== undefined)) {
    const edgeLists: (Map<number, number[]> | null)[] = [];
    const levels: number[] = [];
    for (const term of terms) {
      if (term.role === undefined) {
        edgeLists.push(null);
        levels.push(0);
        continue;
      }
      const graph = plainRoleGraph(model.model.get("g")?.get(term.role));
      if (graph === undefined) return "the role manager cannot be copied";
      const lists = new Map<number, number[]>();
      if (graph !== null) {
        for (const [name, node] of graph.roles as Map<unknown, RoleNode>) {
          if (typeof name !== "string") return "a role name is not a string";
          const list: number[] = [];
          for (const parent of node.roles) {
            if (typeof parent.name !== "string") {
              return "a role name is not a string";
            }
            list.push(intern(parent.name));
          }
          lists.set(intern(name), list);
        }
      }
      edgeLists.push(lists);
      levels.push(graph === null ? 0 : graph.maxLevel);
    }
    roles = edgeLists.map((lists, t) => {
      if (lists === null) return null;
      const start = new Uint32Array(strings.length + 1);
      let total = 0;
      for (let id = 0; id < strings.length; id++) {
        start[id] = total;
        total += lists.get(id)?.length ?? 0;
      }
      start[strings.length] = total;
      const edges = new Uint32Array(total);
      for (const [id, list] of lists) edges.set(list, start[id]!);
      return { start, edges, maxLevel: Math.max(0, levels[t]!) };
    });
  }

  // Strings.
  let charCount = 0;
  for (const text of strings) charCount += text.length;
  const chars = new Uint16Array(charCount);
  const stringStart = new Uint32Array(strings.length + 1);
  const stringHash = new Uint32Array(strings.length);
  const stringSlots = new Int32Array(tableSize(strings.length));
  const stringMask = stringSlots.length - 1;
  let offset = 0;
  for (let id = 0; id < strings.length; id++) {
    const text = strings[id]!;
    stringStart[id] = offset;
    for (let i = 0; i < text.length; i++) chars[offset++] = text.charCodeAt(i);
    const hash = hashString(text);
    stringHash[id] = hash;
    let slot = hash & stringMask;
    while (stringSlots[slot] !== 0) slot = (slot + 1) & stringMask;
    stringSlots[slot] = id + 1;
  }
  stringStart[strings.length] = offset;

  return {
    terms,
    effect: plan.effect,
    requestSize: plan.requestSize,
    chars,
    stringStart,
    stringHash,
    stringSlots,
    tupleIds: tupleIds.slice(0, count * k),
    masks: allMasks.slice(0, count),
    tupleSlots,
    roles,
  };
}

/** The id of `text` in the index, or -1. */
function stringId(index: CompiledIndex, text: string): number {
  const hash = hashString(text);
  const slots = index.stringSlots;
  const mask = slots.length - 1;
  const { chars, stringStart, stringHash } = index;
  for (let slot = hash & mask;; slot = (slot + 1) & mask) {
    const entry = slots[slot]!;
    if (entry === 0) return -1;
    const id = entry - 1;
    if (stringHash[id] !== hash) continue;
    const from = stringStart[id]!;
    if (stringStart[id + 1]! - from !== text.length) continue;
    let i = 0;
    while (i < text.length && chars[from + i] === text.charCodeAt(i)) i++;
    if (i === text.length) return id;
  }
}

/** The mask of the rule with these string ids, or 0 when there is none. */
function ruleMask(index: CompiledIndex, ids: Int32Array): number {
  const k = ids.length;
  let hash = FNV_OFFSET;
  for (let t = 0; t < k; t++) hash = mix(hash, ids[t]!);
  hash = finish(hash);
  const slots = index.tupleSlots;
  const mask = slots.length - 1;
  const tupleIds = index.tupleIds;
  for (let slot = hash & mask;; slot = (slot + 1) & mask) {
    const entry = slots[slot]!;
    if (entry === 0) return 0;
    const base = (entry - 1) * k;
    let t = 0;
    while (t < k && tupleIds[base + t] === ids[t]) t++;
    if (t === k) return index.masks[entry - 1]!;
  }
}

const RECENT_STRINGS = 4096;
const RECENT_STRING_LENGTH = 256;

/**
 * Looks requests up in a compiled index, with the same answers as the
 * nested-map lookups of indexed_enforcer.ts. Holds scratch buffers, reused
 * by every (synchronous) lookup.
 */
export class CompiledLookup {
  readonly index: CompiledIndex;
  // Ids of recently seen request strings: a map lookup (the engine keeps a
  // string's hash) instead of hashing the string's code units each time.
  // Bounded: emptied when full.
  #recent = new Map<string, number>();
  #busy = false;
  #ids: Int32Array;
  // Role terms: the candidate ids of each term, how many, and BFS marks.
  #candidates: (Uint32Array | null)[];
  #counts: Int32Array;
  #marks: Uint32Array;
  #generation = 0;
  #odometer: Int32Array;

  constructor(index: CompiledIndex) {
    this.index = index;
    const k = index.terms.length;
    this.#ids = new Int32Array(k);
    this.#counts = new Int32Array(k);
    this.#odometer = new Int32Array(k);
    const strings = index.stringHash.length;
    this.#candidates = index.terms.map((_term, t) =>
      index.roles?.[t] ? new Uint32Array(Math.max(1, strings)) : null
    );
    this.#marks = new Uint32Array(index.roles === null ? 0 : strings);
  }

  /**
   * The ALLOWS|DENIES mask of the rules that match the request, or
   * NO_ANSWER when casbin must decide. May throw (a getter of a request
   * value): the caller sends such a request to casbin.
   */
  lookup(rvals: readonly unknown[]): number {
    // A getter of a request value may decide another request on this same
    // enforcer before this lookup is done: that one must not touch the
    // scratch buffers this one is filling (casbin decides it).
    if (this.#busy) return NO_ANSWER;
    this.#busy = true;
    try {
      return this.#lookup(rvals);
    } finally {
      this.#busy = false;
    }
  }

  #lookup(rvals: readonly unknown[]): number {
    const index = this.index;
    const terms = index.terms;
    const ids = this.#ids;
    const roles = index.roles;
    let matchable = true;
    for (let t = 0; t < terms.length; t++) {
      const term = terms[t]!;
      let value = rvals[term.requestIndex];
      const path = term.path;
      for (let p = 0; p < path.length; p++) {
        // casbin throws on a member of null or undefined, if it gets there.
        if (value === null || value === undefined) return NO_ANSWER;
        value = (value as Record<string | number, unknown>)[path[p]!];
      }
      const graph = roles === null ? null : roles[t]!;
      if (graph !== null) {
        // casbin's g() reads `(value || "").toString()`: strings only here.
        if (typeof value !== "string") return NO_ANSWER;
        if (matchable) {
          const id = this.#idOf(value);
          // A name nobody mentions reaches only itself, in no rule.
          if (id === -1) matchable = false;
          else this.#reach(t, graph, id);
        }
      } else if (typeof value === "string") {
        if (matchable) {
          const id = this.#idOf(value);
          if (id === -1) matchable = false;
          else ids[t] = id;
        }
      } else if (value === null || value === undefined || term.strict) {
        // Equal to no policy string: no rule matches. Later paths are still
        // resolved, so that one that may throw in casbin goes to casbin.
        matchable = false;
      } else {
        // `==` converts numbers, booleans and objects: casbin decides.
        return NO_ANSWER;
      }
    }
    if (!matchable) return 0;
    return roles === null ? ruleMask(index, ids) : this.#visitAll();
  }

  /** The id of a request string, or -1. */
  #idOf(text: string): number {
    // Long strings are not kept: the map must not hold on to large request
    // values.
    if (text.length > RECENT_STRING_LENGTH) return stringId(this.index, text);
    let id = this.#recent.get(text);
    if (id === undefined) {
      id = stringId(this.index, text);
      if (this.#recent.size >= RECENT_STRINGS) this.#recent.clear();
      this.#recent.set(text, id);
    }
    return id;
  }

  /** Collects the ids `g(id, x)` is true for into the term's candidates. */
  #reach(t: number, graph: CompiledRoleGraph, id: number): void {
    const out = this.#candidates[t]!;
    const marks = this.#marks;
    const generation = ++this.#generation;
    if (generation === 0xffffffff) {
      marks.fill(0);
      this.#generation = 1;
    }
    const stamp = this.#generation;
    out[0] = id;
    marks[id] = stamp;
    let count = 1;
    let from = 0;
    for (let depth = 0; depth < graph.maxLevel && from < count; depth++) {
      const to = count;
      for (let i = from; i < to; i++) {
        const node = out[i]!;
        for (let e = graph.start[node]!; e < graph.start[node + 1]!; e++) {
          const parent = graph.edges[e]!;
          if (marks[parent] !== stamp) {
            marks[parent] = stamp;
            out[count++] = parent;
          }
        }
      }
      from = to;
    }
    this.#counts[t] = count;
  }

  /** ORs the masks of every combination of the role terms' candidates. */
  #visitAll(): number {
    const k = this.index.terms.length;
    const ids = this.#ids;
    const odometer = this.#odometer;
    const candidates = this.#candidates;
    const counts = this.#counts;
    odometer.fill(0);
    let mask = 0;
    for (;;) {
      for (let t = 0; t < k; t++) {
        const list = candidates[t]!;
        if (list !== null) ids[t] = list[odometer[t]!]!;
      }
      mask |= ruleMask(this.index, ids);
      // Next combination.
      let t = k - 1;
      for (; t >= 0; t--) {
        if (candidates[t] === null) continue;
        if (++odometer[t]! < counts[t]!) break;
        odometer[t] = 0;
      }
      if (t < 0) return mask;
    }
  }
}
