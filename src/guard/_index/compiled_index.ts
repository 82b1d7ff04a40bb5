// The policy index in flat typed arrays: built on the event loop in slices
// (IndexedEnforcer) or in the policy worker, whose buffers it transfers
// without a copy. A 100,000-rule index of objects would be some 200,000
// objects whose garbage collection alone blocks an event loop for tens of
// milliseconds; this one is a few dozen arrays.
//
// Layout: every distinct string (policy values, patterns, role and domain
// names) once, in a hash table (string_table.ts). The terms of the matcher
// that compare a request value with a policy value (equalities, role
// checks) key the rules: rules with the same values form a bucket, found
// through a hash table over tuples of string ids. A bucket records which
// effects its rules have and its first rule that allows or denies. When the
// matcher calls pattern functions, a bucket also lists its rules in policy
// order, and, for the first pattern term of path patterns (keyMatch,
// keyMatch2..5, regexMatch with `^`), a trie of those patterns by segment
// (path_trie.ts), so that a decision looks at the rules whose pattern can
// match the request's path and at few others.
import type { EffectKind, MatcherTerm } from "./matcher_plan.ts";
import {
  finish,
  FNV_OFFSET,
  mix,
  type StringTable,
  stringTableBuffers,
} from "./string_table.ts";
import { type CompiledRoleGraph, roleGraphBuffers } from "./role_graph.ts";
import { type CompiledTrie, trieBuffers } from "./path_trie.ts";

// What a matching rule contributes: ALLOWS, DENIES or nothing (0).
export const ALLOWS = 1;
export const DENIES = 2;

/** A policy index in typed arrays; structured-cloneable and transferable. */
export interface CompiledIndex {
  readonly terms: readonly MatcherTerm[];
  readonly effect: EffectKind;
  readonly requestSize: number;
  readonly strings: StringTable;
  /** Terms that key the buckets (equalities, role checks), in order. */
  readonly keyTerms: readonly number[];
  /** Pattern terms, in matcher order. */
  readonly patternTerms: readonly number[];
  /** Bucket `b`'s key: the string ids `tupleIds[b * keyTerms.length]`... */
  readonly tupleIds: Uint32Array;
  /** Open addressing, power-of-two size: bucket + 1, or 0 for empty. */
  readonly tupleSlots: Int32Array;
  /** Per bucket: ALLOWS | DENIES of its rules. */
  readonly bucketMask: Uint8Array;
  /** Per bucket: its first rule that allows or denies, or -1. */
  readonly bucketFirst: Int32Array;
  /** Per rule: ALLOWS, DENIES or 0 (an `eft` that is neither). */
  readonly ruleEffect: Uint8Array;
  /**
   * Matchers with pattern terms: the rules of bucket `b`, ascending,
   * `bucketRules[bucketStart[b]..bucketStart[b+1])`.
   */
  readonly bucketStart: Uint32Array;
  readonly bucketRules: Uint32Array;
  /** Rule `r`'s pattern of pattern term `f`: string id `rulePatterns[r * F + f]`. */
  readonly rulePatterns: Uint32Array;
  /** The trie of the first pattern term of path patterns, if any. */
  readonly trie: CompiledTrie | null;
  /** Per term: the role graph of a role term, else null. */
  readonly roles: readonly (CompiledRoleGraph | null)[];
  /** The string id of casbin's default domain, or -1. */
  readonly defaultDomain: number;
}

/** The buffers of a compiled index, for a transfer list. */
export function compiledBuffers(index: CompiledIndex): ArrayBuffer[] {
  const arrays: ArrayBufferView[] = [
    index.tupleIds,
    index.tupleSlots,
    index.bucketMask,
    index.bucketFirst,
    index.ruleEffect,
    index.bucketStart,
    index.bucketRules,
    index.rulePatterns,
  ];
  const buffers = arrays.map((array) => array.buffer as ArrayBuffer);
  if (index.trie !== null) buffers.push(...trieBuffers(index.trie));
  buffers.push(...stringTableBuffers(index.strings));
  for (const graph of index.roles) {
    if (graph !== null) buffers.push(...roleGraphBuffers(graph));
  }
  return buffers;
}

/** The hash of a tuple of string ids. */
export function tupleHash(
  ids: Int32Array | Uint32Array,
  count: number,
): number {
  let hash = FNV_OFFSET;
  for (let t = 0; t < count; t++) hash = mix(hash, ids[t]!);
  return finish(hash);
}
