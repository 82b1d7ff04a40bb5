// The relations of one node id, both ways, as the graph indexes them. Lists
// are kept at their exact size while short: V8 gives a pushed array 16
// spare slots, which for the millions of one- to four-element lists of a
// large graph would be most of its memory (and of its garbage collection).
// A list may therefore be replaced by a longer copy: hold the record, never
// a list, across insertions.
import type { GraphRelation } from "./graph_types.ts";

/** A node id's relations; `undefined` for none. */
export interface Edges {
  /** Relations whose source is the id. */
  out: GraphRelation[] | undefined;
  /** Relations whose target is the id. */
  in: GraphRelation[] | undefined;
  /**
   * For a boundary node only: the record of the source of each incoming
   * relation, aligned with `in`, so the linker reaches consumers and
   * providers without a lookup by id.
   */
  sources: Edges[] | undefined;
}

/** A new record with no relations. */
export function newEdges(): Edges {
  return { out: undefined, in: undefined, sources: undefined };
}

// Lists up to this long are copied to an exact size when they grow.
const SHORT_LIST = 8;

/** The list with `value` appended: a copy while short, else the list. */
export function appended<T>(list: T[] | undefined, value: T): T[] {
  if (list === undefined) return [value];
  const n = list.length;
  if (n > SHORT_LIST) {
    list.push(value);
    return list;
  }
  const copy: T[] = new Array(n + 1);
  for (let i = 0; i < n; i++) copy[i] = list[i]!;
  copy[n] = value;
  return copy;
}

/** Every `step`th value of `values[from, to)`. */
export interface Stride {
  from: number;
  to: number;
  step: number;
}

/** The list with a stride of `values` appended (copied to size if short). */
export function extended<T>(
  list: T[] | undefined,
  values: readonly T[],
  range: Stride,
): T[] {
  const { from, to, step } = range;
  if (list !== undefined && list.length > SHORT_LIST) {
    for (let i = from; i < to; i += step) list.push(values[i]!);
    return list;
  }
  const before = list === undefined ? 0 : list.length;
  const copy: T[] = new Array(before + Math.ceil((to - from) / step));
  for (let i = 0; i < before; i++) copy[i] = list![i]!;
  let at = before;
  for (let i = from; i < to; i += step) copy[at++] = values[i]!;
  return copy;
}

/** Records a relation from `source` to `target`. */
export function addEdge(
  source: Edges,
  target: Edges,
  relation: GraphRelation,
): void {
  source.out = appended(source.out, relation);
  target.in = appended(target.in, relation);
  if (target.sources !== undefined) {
    target.sources = appended(target.sources, source);
  }
}
