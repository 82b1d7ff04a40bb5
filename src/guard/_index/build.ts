// Builds a CompiledIndex from a casbin enforcer's parsed model and policy,
// as a generator that pauses after every CHUNK rules: IndexedEnforcer
// yields to the event loop there, the worker runs straight through.
import { compilePattern, type PatternFunction } from "./pattern.ts";
import { compileIpPattern } from "./ip_match.ts";
import { compileRoleGraph, DEFAULT_DOMAIN } from "./role_graph.ts";
import type { CompiledRoleGraph } from "./role_graph.ts";
import { StringInterner, tableSize } from "./string_table.ts";
import {
  ALLOWS,
  type CompiledIndex,
  DENIES,
  tupleHash,
} from "./compiled_index.ts";
import { buildTrie, type CompiledTrie } from "./path_trie.ts";
import { type IndexPlan, planIndex } from "./enforcer_plan.ts";

// Rules handled between two pauses.
export const CHUNK = 64;

/** What a matching rule contributes: ALLOWS, DENIES or nothing (0). */
export function effectOf(rule: readonly unknown[], eftIndex: number): number {
  // casbin: a matching rule allows, unless its eft field is set to
  // anything but "allow" ("deny" denies, other values count for nothing).
  const eft = eftIndex < 0 ? undefined : rule[eftIndex];
  if (!eft || eft === "allow") return ALLOWS;
  return eft === "deny" ? DENIES : 0;
}

function missingField(rule: number): string {
  return `policy rule ${rule} has no string in a field the matcher compares`;
}

function shortened(text: string): string {
  return JSON.stringify(text.length > 60 ? text.slice(0, 57) + "..." : text);
}

/**
 * Checks a pattern as its function will read it: a reason when casbin
 * would throw or loop on it.
 */
function patternProblem(fn: PatternFunction, pattern: string): string | null {
  const compiled = fn === "ipMatch"
    ? compileIpPattern(pattern)
    : compilePattern(fn, pattern);
  return typeof compiled === "string" ? compiled : null;
}

/**
 * The pattern term whose patterns go in the trie: the first keyMatch family
 * term, else the first regexMatch term, else the first globMatch term; -1
 * when there is none (an index in the pattern terms).
 */
function trieTermOf(fns: readonly PatternFunction[]): number {
  const key = fns.findIndex((fn) => fn.startsWith("keyMatch"));
  if (key !== -1) return key;
  const regex = fns.indexOf("regexMatch");
  return regex !== -1 ? regex : fns.indexOf("globMatch");
}

/** Lists each bucket's rules, ascending (a counting sort by bucket). */
function groupByBucket(
  ruleBucket: Uint32Array,
  buckets: number,
): { start: Uint32Array; rules: Uint32Array } {
  const start = new Uint32Array(buckets + 1);
  for (const b of ruleBucket) start[b + 1]!++;
  for (let b = 0; b < buckets; b++) start[b + 1]! += start[b]!;
  const fill = start.slice(0, buckets);
  const rules = new Uint32Array(ruleBucket.length);
  for (let r = 0; r < ruleBucket.length; r++) {
    rules[fill[ruleBucket[r]!]!++] = r;
  }
  return { start, rules };
}

/** Builds the index of a plan's policy, pausing after every CHUNK rules. */
function* buildSteps(
  planned: IndexPlan,
): Generator<void, CompiledIndex | string> {
  const { plan, policy, model } = planned;
  const terms = plan.terms;
  const strings = new StringInterner();
  const roles: (CompiledRoleGraph | null)[] = [];
  for (const term of terms) {
    if (term.role === undefined) {
      roles.push(null);
      continue;
    }
    const graph = compileRoleGraph(
      model.model.get("g")?.get(term.role),
      strings,
    );
    if (typeof graph === "string") return graph;
    roles.push(graph);
  }
  const defaultDomain = terms.some((t) => t.role !== undefined && !t.domain)
    ? strings.intern(DEFAULT_DOMAIN)
    : -1;
  const keyTerms: number[] = [];
  const patternTerms: number[] = [];
  terms.forEach((term, t) => (term.fn ? patternTerms : keyTerms).push(t));
  const fns = patternTerms.map((t) => terms[t]!.fn!);
  const trieTerm = trieTermOf(fns);
  const k = keyTerms.length;
  const f = patternTerms.length;
  const n = policy.length;

  const tupleIds = new Uint32Array(n * k);
  const tupleSlots = new Int32Array(tableSize(n));
  const slotMask = tupleSlots.length - 1;
  const ruleBucket = new Uint32Array(n);
  const ruleEffect = new Uint8Array(n);
  const rulePatterns = new Uint32Array(n * f);
  // Per pattern term: the patterns checked.
  const checked = fns.map(() => new Set<number>());
  const tuple = new Int32Array(k);
  let buckets = 0;
  for (let i = 0; i < n; i++) {
    if (i !== 0 && i % CHUNK === 0) yield;
    const rule = policy[i]!;
    for (let c = 0; c < k; c++) {
      const cell = rule[terms[keyTerms[c]!]!.policyIndex];
      if (typeof cell !== "string") return missingField(i + 1);
      tuple[c] = strings.intern(cell);
    }
    for (let c = 0; c < f; c++) {
      const cell = rule[terms[patternTerms[c]!]!.policyIndex];
      if (typeof cell !== "string") return missingField(i + 1);
      const id = strings.intern(cell);
      rulePatterns[i * f + c] = id;
      if (!checked[c]!.has(id)) {
        const problem = patternProblem(fns[c]!, cell);
        if (problem !== null) {
          return `policy rule ${i + 1}: the ${fns[c]} pattern ${
            shortened(cell)
          }: ${problem}`;
        }
        checked[c]!.add(id);
      }
    }
    ruleEffect[i] = effectOf(rule, plan.eftIndex);
    const hash = tupleHash(tuple, k);
    for (let slot = hash & slotMask;; slot = (slot + 1) & slotMask) {
      const entry = tupleSlots[slot]!;
      if (entry === 0) {
        tupleIds.set(tuple, buckets * k);
        ruleBucket[i] = buckets;
        tupleSlots[slot] = ++buckets;
        break;
      }
      const base = (entry - 1) * k;
      let c = 0;
      while (c < k && tupleIds[base + c] === tuple[c]) c++;
      if (c === k) {
        ruleBucket[i] = entry - 1;
        break;
      }
    }
  }

  const bucketMask = new Uint8Array(buckets);
  const bucketFirst = new Int32Array(buckets).fill(-1);
  for (let r = 0; r < n; r++) {
    const b = ruleBucket[r]!;
    const effect = ruleEffect[r]!;
    bucketMask[b]! |= effect;
    if (effect !== 0 && bucketFirst[b] === -1) bucketFirst[b] = r;
  }
  yield;
  let trie: CompiledTrie | null = null;
  let grouped: { start: Uint32Array; rules: Uint32Array } = {
    start: new Uint32Array(0),
    rules: new Uint32Array(0),
  };
  if (f > 0) grouped = groupByBucket(ruleBucket, buckets);
  if (trieTerm !== -1) {
    const rulePattern = new Uint32Array(n);
    for (let r = 0; r < n; r++) {
      rulePattern[r] = rulePatterns[r * f + trieTerm]!;
    }
    yield;
    trie = yield* buildTrie(
      patternTerms[trieTerm]!,
      fns[trieTerm]!,
      strings.strings,
      rulePattern,
      ruleBucket,
      buckets,
    );
  }
  yield;
  const table = yield* strings.table();
  return {
    terms,
    effect: plan.effect,
    requestSize: plan.requestSize,
    strings: table,
    keyTerms,
    patternTerms,
    tupleIds: tupleIds.slice(0, buckets * k),
    tupleSlots,
    bucketMask,
    bucketFirst,
    ruleEffect,
    bucketStart: grouped.start,
    bucketRules: grouped.rules,
    rulePatterns,
    trie,
    roles,
    defaultDomain,
  };
}

/**
 * Builds the index of a casbin enforcer's policy, pausing after every
 * CHUNK rules; returns why casbin must decide instead when it cannot.
 */
export function* compileIndexSteps(
  enforcer: { getModel(): unknown },
): Generator<void, CompiledIndex | string> {
  const planned = planIndex(enforcer);
  if (typeof planned === "string") return planned;
  return yield* buildSteps(planned);
}

/** Builds the index in one run (the worker's way). */
export function compileIndex(
  enforcer: { getModel(): unknown },
): CompiledIndex | string {
  const steps = compileIndexSteps(enforcer);
  let step = steps.next();
  while (step.done !== true) step = steps.next();
  return step.value;
}
