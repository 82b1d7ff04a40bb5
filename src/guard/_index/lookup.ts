// Decides requests from a CompiledIndex with casbin's answers. A decision
// reads the request's values, finds the buckets of rules whose compared
// values equal them (through the role graphs for role checks), and, when
// the matcher calls pattern functions, tests the candidate rules in policy
// order with casbin's functions, stopping where casbin's effect stops. So
// it evaluates no pattern casbin would not: a subset of casbin's own work,
// which bounds what a hostile request can cost (a slow regular expression
// of the policy costs here at most what it costs casbin).
import type { EffectKind } from "./matcher_plan.ts";
import {
  ALLOWS,
  type CompiledIndex,
  DENIES,
  tupleHash,
} from "./compiled_index.ts";
import { TrieWalker } from "./trie_walker.ts";
import { compileIpPattern, type IpTest, requestAddress } from "./ip_match.ts";
import { compilePattern } from "./pattern.ts";
import { reachRoles } from "./role_graph.ts";
import { stringAt, stringId } from "./string_table.ts";

/** A lookup's outcome when casbin must decide. */
export const NO_ANSWER = -1;

/** The decision of an effect, given the ALLOWS|DENIES mask of matching rules. */
export function decide(effect: EffectKind, mask: number): boolean {
  switch (effect) {
    case "allow":
      return (mask & ALLOWS) !== 0;
    case "deny":
      return (mask & DENIES) === 0;
    case "allowAndDeny":
      return (mask & DENIES) === 0 && (mask & ALLOWS) !== 0;
    case "priority":
      // Only reached with no matching rule.
      return false;
  }
}

// casbin throws on a member of null or undefined, when it gets there.
const THROWS: unique symbol = Symbol("throws");

function resolve(
  value: unknown,
  path: readonly (string | number)[],
): unknown {
  for (let p = 0; p < path.length; p++) {
    if (value === null || value === undefined) return THROWS;
    value = (value as Record<string | number, unknown>)[path[p]!];
  }
  return value;
}

const RECENT_STRINGS = 4096;
const RECENT_STRING_LENGTH = 256;

/**
 * Looks requests up in a compiled index. Holds scratch buffers, reused by
 * every (synchronous) lookup.
 */
export class CompiledLookup {
  readonly index: CompiledIndex;
  // Ids of recently seen request strings: a map lookup (the engine keeps a
  // string's hash) instead of hashing the string's code units each time.
  // Bounded: emptied when full.
  #recent = new Map<string, number>();
  #busy = false;
  #values: unknown[];
  #domains: unknown[];
  #addresses: Float64Array;
  // Per key term: the string id, or the role term's reachable ids.
  #ids: Int32Array;
  #reached: (Uint32Array | null)[];
  #counts: Int32Array;
  #odometer: Int32Array;
  #queue: Uint32Array;
  #marks: Uint32Array;
  #stamp = 0;
  #buckets = new Uint32Array(16);
  #rules: Uint32Array;
  #walker: TrieWalker | null;
  #lists = { n: 0 };
  // The pattern term (an index in the pattern terms) whose test a full
  // trie walk made for the rules it proves; -1 when none did.
  #provenTerm = -1;
  #trieTerm: number;
  // Per pattern term: compiled patterns by string id (compiled on first
  // use; bounded by the policy's distinct patterns).
  #tests: Map<number, IpTest>[];

  constructor(index: CompiledIndex) {
    this.index = index;
    const terms = index.terms.length;
    const k = index.keyTerms.length;
    this.#values = new Array(terms).fill(undefined);
    this.#domains = new Array(terms).fill(undefined);
    this.#addresses = new Float64Array(terms);
    this.#ids = new Int32Array(k);
    this.#counts = new Int32Array(k);
    this.#odometer = new Int32Array(k);
    let nodes = 0;
    this.#reached = index.keyTerms.map((t) => {
      const graph = index.roles[t];
      if (graph === null || graph === undefined) return null;
      nodes = Math.max(nodes, graph.nodeName.length);
      return new Uint32Array(graph.nodeName.length + 1);
    });
    this.#queue = new Uint32Array(nodes);
    this.#marks = new Uint32Array(nodes);
    this.#rules = new Uint32Array(
      index.patternTerms.length === 0 ? 0 : index.ruleEffect.length,
    );
    this.#walker = index.trie === null
      ? null
      : new TrieWalker(index.trie, index.strings);
    this.#trieTerm = index.trie === null
      ? -1
      : index.patternTerms.indexOf(index.trie.term);
    this.#tests = index.patternTerms.map(() => new Map());
  }

  /**
   * 1 (allowed), 0 (denied), or NO_ANSWER when casbin must decide. May
   * throw (a getter of a request value): the caller sends such a request to
   * casbin.
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
      this.#values.fill(undefined);
      this.#domains.fill(undefined);
      this.#busy = false;
    }
  }

  /** The decision when no rule matches. */
  #none(): number {
    return decide(this.index.effect, 0) ? 1 : 0;
  }

  #lookup(rvals: readonly unknown[]): number {
    const index = this.index;
    const terms = index.terms;
    const values = this.#values;
    let matchable = true;
    for (let t = 0; t < terms.length; t++) {
      const term = terms[t]!;
      const value = resolve(rvals[term.requestIndex], term.path);
      if (value === THROWS) return NO_ANSWER;
      values[t] = value;
      if (term.role !== undefined) {
        // casbin's g() reads `(value || "").toString()`: strings only here.
        if (typeof value !== "string") return NO_ANSWER;
        if (term.domain !== undefined) {
          const domain = resolve(
            rvals[term.domain.requestIndex],
            term.domain.path,
          );
          if (typeof domain !== "string") return NO_ANSWER;
          this.#domains[t] = domain;
        }
      } else if (term.fn !== undefined) {
        if (typeof value !== "string") return NO_ANSWER;
        if (term.fn === "ipMatch") {
          // casbin throws on a request value that is not an address.
          const address = requestAddress(value);
          if (address === undefined) return NO_ANSWER;
          this.#addresses[t] = address;
        }
      } else if (typeof value !== "string") {
        // `==` converts numbers, booleans and objects: casbin decides.
        // null and undefined equal no policy string. Later paths are still
        // resolved, so that one that may throw in casbin goes to casbin.
        if (value === null || value === undefined || term.strict) {
          matchable = false;
        } else {
          return NO_ANSWER;
        }
      }
    }
    if (!matchable) return this.#none();
    const buckets = this.#findBuckets();
    if (buckets === 0) return this.#none();
    if (index.patternTerms.length === 0) return this.#fromBuckets(buckets);
    return this.#fromRules(this.#gatherRules(buckets));
  }

  /** The id of a request string, or -1. */
  #idOf(text: string): number {
    // Long strings are not kept: the map must not hold on to large request
    // values.
    if (text.length > RECENT_STRING_LENGTH) {
      return stringId(this.index.strings, text);
    }
    let id = this.#recent.get(text);
    if (id === undefined) {
      id = stringId(this.index.strings, text);
      if (this.#recent.size >= RECENT_STRINGS) this.#recent.clear();
      this.#recent.set(text, id);
    }
    return id;
  }

  /** Collects the buckets of every key the request reaches; their count. */
  #findBuckets(): number {
    const index = this.index;
    const keyTerms = index.keyTerms;
    const k = keyTerms.length;
    const ids = this.#ids;
    const reached = this.#reached;
    const counts = this.#counts;
    for (let c = 0; c < k; c++) {
      const t = keyTerms[c]!;
      const id = this.#idOf(this.#values[t] as string);
      // A value no rule holds (nor any role link) matches nothing.
      if (id === -1) return 0;
      const graph = index.roles[t];
      if (graph === null || graph === undefined) {
        ids[c] = id;
        continue;
      }
      const domain = index.terms[t]!.domain === undefined
        ? index.defaultDomain
        : this.#idOf(this.#domains[t] as string);
      let stamp = ++this.#stamp;
      if (stamp === 0xffffffff) {
        this.#marks.fill(0);
        stamp = this.#stamp = 1;
      }
      counts[c] = reachRoles(
        graph,
        domain,
        id,
        reached[c]!,
        this.#queue,
        this.#marks,
        stamp,
      );
    }
    // Every combination of the role terms' names (one without roles).
    const odometer = this.#odometer;
    odometer.fill(0);
    let found = 0;
    for (;;) {
      for (let c = 0; c < k; c++) {
        const list = reached[c];
        if (list !== null && list !== undefined) ids[c] = list[odometer[c]!]!;
      }
      const bucket = this.#bucketOf(ids);
      if (bucket !== -1) {
        if (found === this.#buckets.length) {
          const grown = new Uint32Array(found * 2);
          grown.set(this.#buckets);
          this.#buckets = grown;
        }
        this.#buckets[found++] = bucket;
      }
      let c = k - 1;
      for (; c >= 0; c--) {
        if (reached[c] === null) continue;
        if (++odometer[c]! < counts[c]!) break;
        odometer[c] = 0;
      }
      if (c < 0) return found;
    }
  }

  /** The bucket of the rules with these key ids, or -1. */
  #bucketOf(ids: Int32Array): number {
    const index = this.index;
    const k = ids.length;
    const slots = index.tupleSlots;
    const mask = slots.length - 1;
    const tupleIds = index.tupleIds;
    for (let slot = tupleHash(ids, k) & mask;; slot = (slot + 1) & mask) {
      const entry = slots[slot]!;
      if (entry === 0) return -1;
      const base = (entry - 1) * k;
      let c = 0;
      while (c < k && tupleIds[base + c] === ids[c]) c++;
      if (c === k) return entry - 1;
    }
  }

  /** The decision from the buckets alone (no pattern terms). */
  #fromBuckets(found: number): number {
    const index = this.index;
    const buckets = this.#buckets;
    if (index.effect === "priority") {
      // The first rule that allows or denies, in casbin's order, decides.
      let first = -1;
      for (let i = 0; i < found; i++) {
        const rule = index.bucketFirst[buckets[i]!]!;
        if (rule !== -1 && (first === -1 || rule < first)) first = rule;
      }
      return first !== -1 && index.ruleEffect[first] === ALLOWS ? 1 : 0;
    }
    let mask = 0;
    for (let i = 0; i < found; i++) mask |= index.bucketMask[buckets[i]!]!;
    return decide(index.effect, mask) ? 1 : 0;
  }

  /** Appends every rule of a bucket to `#rules` from `at`; the new end. */
  #allRules(bucket: number, at: number): number {
    const index = this.index;
    const from = index.bucketStart[bucket]!;
    const to = index.bucketStart[bucket + 1]!;
    this.#rules.set(index.bucketRules.subarray(from, to), at);
    this.#lists.n++;
    return at + to - from;
  }

  /**
   * Collects the candidate rules of the buckets into `#rules`, ascending;
   * returns their count.
   */
  #gatherRules(found: number): number {
    const out = this.#rules;
    const lists = this.#lists;
    lists.n = 0;
    let count = 0;
    const walker = this.#walker;
    this.#provenTerm = this.#trieTerm;
    if (walker === null) {
      for (let i = 0; i < found; i++) {
        count = this.#allRules(this.#buckets[i]!, count);
      }
    } else {
      walker.prepare(this.#values[walker.trie.term] as string);
      for (let i = 0; i < found; i++) {
        const bucket = this.#buckets[i]!;
        const before = lists.n;
        const end = walker.collect(bucket, out, count, lists);
        if (end === -1) {
          // Too many nodes to walk: every rule of the bucket, each tested.
          this.#provenTerm = -1;
          lists.n = before;
          count = this.#allRules(bucket, count);
        } else {
          count = end;
        }
      }
    }
    // Each list is ascending; casbin's order is the policy's.
    if (lists.n > 1) out.subarray(0, count).sort();
    return count;
  }

  /**
   * Tests the candidate rules in order, as casbin's effect reads them, and
   * stops where casbin would.
   */
  #fromRules(count: number): number {
    const index = this.index;
    const effect = index.effect;
    let allowed = effect === "deny" ? 1 : 0;
    for (let i = 0; i < count; i++) {
      const rule = this.#rules[i]!;
      if (!this.#matches(rule)) continue;
      const result = index.ruleEffect[rule]!;
      switch (effect) {
        case "allow":
          if (result === ALLOWS) return 1;
          break;
        case "deny":
          if (result === DENIES) return 0;
          break;
        case "allowAndDeny":
          if (result === DENIES) return 0;
          if (result === ALLOWS) allowed = 1;
          break;
        case "priority":
          if (result !== 0) return result === ALLOWS ? 1 : 0;
          break;
      }
    }
    return allowed;
  }

  /** Whether a rule's patterns match the request, tested in matcher order. */
  #matches(rule: number): boolean {
    const index = this.index;
    const patternTerms = index.patternTerms;
    const f = patternTerms.length;
    for (let c = 0; c < f; c++) {
      // The walk already checked what casbin's function would.
      if (c === this.#provenTerm && index.trie!.proven[rule] === 1) continue;
      const t = patternTerms[c]!;
      const id = index.rulePatterns[rule * f + c]!;
      const test = this.#tests[c]!.get(id) ?? this.#compile(c, id);
      if (!test(this.#values[t] as string, this.#addresses[t]!)) return false;
    }
    return true;
  }

  #compile(c: number, id: number): IpTest {
    const index = this.index;
    const fn = index.terms[index.patternTerms[c]!]!.fn!;
    const pattern = stringAt(index.strings, id);
    const test = fn === "ipMatch"
      ? compileIpPattern(pattern)
      : compilePattern(fn, pattern);
    // The build refused such patterns: a different casbin copy, or a
    // tampered index. casbin decides (and throws).
    if (typeof test === "string") throw new Error(test);
    this.#tests[c]!.set(id, test);
    return test;
  }
}
