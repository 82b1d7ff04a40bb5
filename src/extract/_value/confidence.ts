// The confidence scale of extracted ports, by name. Every extractor states
// how sure it is with one of these levels (or the lowest of several).

/**
 * The levels: `literal` (written out in full), `composed` (put together from
 * constants, defaults or prefixes resolved elsewhere), `partial` (some part
 * unresolved and written `{}`), `weak` (inferred from weak evidence, such as
 * a method that could not be told).
 */
export const CONFIDENCE = {
  literal: 1,
  composed: 0.95,
  partial: 0.8,
  weak: 0.6,
} as const;

/** The name of a confidence level. */
export type ConfidenceLevel = keyof typeof CONFIDENCE;

/** What the confidence of a value depends on. */
export interface ConfidenceFacts {
  /** Some part could not be resolved. */
  holes: boolean;
  /** Something resolved elsewhere (a constant, a prefix) went into it. */
  composed: boolean;
  /** The evidence is weak (an unknown method, a guess). */
  weak?: boolean;
}

/**
 * The one rule: weak evidence gives `weak`, an unresolved part `partial`,
 * a composed value `composed`, else `literal`.
 */
export function confidenceLevel(facts: ConfidenceFacts): ConfidenceLevel {
  return facts.weak
    ? "weak"
    : facts.holes
    ? "partial"
    : facts.composed
    ? "composed"
    : "literal";
}

/** The number of {@linkcode confidenceLevel}. */
export function confidenceOf(facts: ConfidenceFacts): number {
  return CONFIDENCE[confidenceLevel(facts)];
}
