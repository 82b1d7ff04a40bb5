// Which consumer -> provider pairs of one boundary get a link, within a
// budget: every pair while consumers x providers fit it; otherwise a cover
// (each consumer to its most confident provider, each provider from its most
// confident consumer) plus the first pairs in order, so links stay linear in
// ports and nobody who could be linked looks unmatched.
import type { GraphRelation, JsonValue } from "./graph.ts";

/**
 * The nodes of one side with their best confidence, first-seen order. A
 * node may appear more than once when the side spans several boundaries.
 */
export interface LinkSide {
  ids: string[];
  confidences: number[];
}

/** Where the chosen pairs go, by index into the two sides. */
export interface PairSink {
  /** Whether this pair is already linked (it is then skipped). */
  has(consumer: number, provider: number): boolean;
  /** Links the pair. */
  add(consumer: number, provider: number, confidence: number): void;
  /** Whether this pair must never be linked (it is then not offered). */
  refuses?(consumer: number, provider: number): boolean;
}

/** What {@linkcode linkPairs} did on one boundary. */
export interface PairOutcome {
  /** Links added. */
  added: number;
  /** Whether at least one pair passes the threshold (added now or before). */
  linked: boolean;
  /** Whether pairs were left untried because of the budget. */
  cut: boolean;
}

/** Default of `LinkOptions.maxLinksPerBoundary`. */
const DEFAULT_MAX_LINKS_PER_BOUNDARY = 1000;

/**
 * Reads the `confidence` of a relation's or port's metadata: a finite
 * number is returned as it is; a missing or non-numeric value counts as 1
 * (certain), as the linker counts it.
 *
 * @param value The `confidence` metadata value.
 * @returns The confidence, a number.
 *
 * @example
 * ```ts
 * import { confidenceOf } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * assert.equal(confidenceOf(0.6), 0.6);
 * assert.equal(confidenceOf(undefined), 1);
 * assert.equal(confidenceOf("high"), 1);
 * ```
 */
export function confidenceOf(value: JsonValue | undefined): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 1;
}

/** Reads the distinct sources of `consumes` and `exposes` relations. */
export function collectSides(
  incoming: readonly GraphRelation[],
  consumers: Map<string, number>,
  providers: Map<string, number>,
): void {
  consumers.clear();
  providers.clear();
  for (let i = 0; i < incoming.length; i++) {
    const relation = incoming[i]!;
    const into = relation.kind === "consumes"
      ? consumers
      : relation.kind === "exposes"
      ? providers
      : undefined;
    if (into === undefined) continue;
    const confidence = confidenceOf(relation.metadata["confidence"]);
    const previous = into.get(relation.sourceId);
    if (previous === undefined || confidence > previous) {
      into.set(relation.sourceId, confidence);
    }
  }
}

/** The side as arrays (reusing `into`), for the allocation-free pair loop. */
export function toLinkSide(from: Map<string, number>, into: LinkSide): void {
  into.ids.length = 0;
  into.confidences.length = 0;
  for (const [id, confidence] of from) {
    into.ids.push(id);
    into.confidences.push(confidence);
  }
}

/** The budget option, checked. */
export function linkBudget(value: number | undefined): number {
  const budget = value ?? DEFAULT_MAX_LINKS_PER_BOUNDARY;
  if (!Number.isInteger(budget) || budget < 1) {
    throw new RangeError(
      `Cannot link graph: maxLinksPerBoundary must be an integer from 1, got ${
        String(budget)
      }`,
    );
  }
  return budget;
}

/**
 * The index of the most confident entry, and of the most confident entry
 * of another node (-1 if none); the first one wins a tie.
 */
function topTwo(side: LinkSide): [number, number] {
  const { ids, confidences } = side;
  let first = -1;
  for (let i = 0; i < confidences.length; i++) {
    if (first === -1 || confidences[i]! > confidences[first]!) first = i;
  }
  let second = -1;
  for (let i = 0; i < confidences.length; i++) {
    if (ids[i] === ids[first]) continue;
    if (second === -1 || confidences[i]! > confidences[second]!) second = i;
  }
  return [first, second];
}

/** The most confident index of `side` whose id is not `self` (-1 if none). */
function bestOther(
  side: LinkSide,
  top: readonly [number, number],
  self: string,
): number {
  return side.ids[top[0]] !== self ? top[0] : top[1];
}

/**
 * Links the pairs of one boundary into `sink`: all of them (never a node to
 * itself, never below `minConfidence`) when `consumers × providers` is at
 * most `budget`, else the cover plus up to `budget` more pairs tried in
 * order.
 */
export function linkPairs(
  consumers: LinkSide,
  providers: LinkSide,
  minConfidence: number,
  budget: number,
  sink: PairSink,
): PairOutcome {
  const outcome: PairOutcome = { added: 0, linked: false, cut: false };
  const c = consumers.ids.length;
  const p = providers.ids.length;
  const offer = (ci: number, pi: number): void => {
    if (consumers.ids[ci] === providers.ids[pi]) return;
    if (sink.refuses?.(ci, pi)) return;
    const confidence = consumers.confidences[ci]! * providers.confidences[pi]!;
    if (confidence < minConfidence) return;
    outcome.linked = true;
    if (sink.has(ci, pi)) return;
    sink.add(ci, pi, confidence);
    outcome.added++;
  };
  if (c * p <= budget) {
    for (let ci = 0; ci < c; ci++) {
      for (let pi = 0; pi < p; pi++) offer(ci, pi);
    }
    return outcome;
  }
  const topProviders = topTwo(providers);
  const topConsumers = topTwo(consumers);
  const bestProvider = (ci: number): number =>
    bestOther(providers, topProviders, consumers.ids[ci]!);
  const bestConsumer = (pi: number): number =>
    bestOther(consumers, topConsumers, providers.ids[pi]!);
  for (let ci = 0; ci < c; ci++) {
    const pi = bestProvider(ci);
    if (pi !== -1) offer(ci, pi);
  }
  for (let pi = 0; pi < p; pi++) {
    const ci = bestConsumer(pi);
    // the pair may already be some consumer's own best
    if (ci !== -1 && bestProvider(ci) !== pi) offer(ci, pi);
  }
  let tried = 0;
  for (let ci = 0; ci < c && tried < budget; ci++) {
    const own = bestProvider(ci);
    for (let pi = 0; pi < p && tried < budget; pi++) {
      tried++;
      if (pi !== own && bestConsumer(pi) !== ci) offer(ci, pi);
    }
  }
  outcome.cut = true;
  return outcome;
}
