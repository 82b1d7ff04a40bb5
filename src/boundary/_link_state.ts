// What the last linkGraph pass over a graph saw, so the next pass (with the
// same options) skips every boundary whose incoming relations did not
// change since: relations are only ever appended, so an unchanged length
// means unchanged consumers and providers, and nothing left to link.
import type { BoundaryGraph } from "./graph.ts";

/** A boundary whose pairs were cut by the budget: its side sizes. */
export interface CutSides {
  consumers: number;
  providers: number;
}

/** The outcome of the last pass, per boundary (by index among boundaries). */
export interface LinkState {
  readonly minConfidence: number;
  readonly budget: number;
  /** The pass's pair filter (`undefined`: none); another one starts afresh. */
  readonly accept: unknown;
  /** Incoming relations of the boundary when it was last linked. */
  readonly lengths: number[];
  /** Whether the boundary has a link passing `minConfidence`. */
  readonly linked: boolean[];
  /** Boundaries cut by the budget. */
  readonly cuts: Map<number, CutSides>;
}

const states = new WeakMap<BoundaryGraph, LinkState>();

/**
 * The state of the graph's last pass if it ran with these options, else a
 * fresh one (every boundary then counts as changed).
 */
export function linkState(
  graph: BoundaryGraph,
  minConfidence: number,
  budget: number,
  accept?: unknown,
): LinkState {
  const last = states.get(graph);
  if (
    last !== undefined && last.minConfidence === minConfidence &&
    last.budget === budget && last.accept === accept
  ) return last;
  const state: LinkState = {
    minConfidence,
    budget,
    accept,
    lengths: [],
    linked: [],
    cuts: new Map(),
  };
  states.set(graph, state);
  return state;
}
