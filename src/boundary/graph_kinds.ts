/**
 * Every node kind of the graph: graphlens's kinds (schema version 1,
 * including `symbol`, which older graphlens versions write) plus nothing of
 * our own, so documents move both ways.
 *
 * @example
 * ```ts
 * import { NODE_KINDS } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * assert.ok(NODE_KINDS.includes("boundary"));
 * ```
 */
export const NODE_KINDS = [
  "project",
  "module",
  "file",
  "class",
  "function",
  "method",
  "parameter",
  "import",
  "dependency",
  "symbol",
  "external_symbol",
  "variable",
  "attribute",
  "type_alias",
  "boundary",
] as const;

/**
 * The kind of a graph node; `boundary` nodes stand for one interface
 * (mechanism + key), the others for code elements.
 *
 * @example
 * ```ts
 * import type { NodeKind } from "@portcullis/portcullis/boundary";
 *
 * const kind: NodeKind = "function";
 * ```
 */
export type NodeKind = typeof NODE_KINDS[number];

/**
 * Every relation kind of the graph, as graphlens writes them.
 *
 * @example
 * ```ts
 * import { RELATION_KINDS } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * assert.ok(RELATION_KINDS.includes("communicates_with"));
 * ```
 */
export const RELATION_KINDS = [
  "contains",
  "declares",
  "imports",
  "calls",
  "references",
  "depends_on",
  "resolves_to",
  "inherits_from",
  "has_type",
  "exposes",
  "consumes",
  "communicates_with",
] as const;

/**
 * The kind of a relation. `exposes` goes from a server's code element to a
 * boundary, `consumes` from a client's, and `communicates_with` from a
 * consumer to a provider (added by `linkGraph`).
 *
 * @example
 * ```ts
 * import type { RelationKind } from "@portcullis/portcullis/boundary";
 *
 * const kind: RelationKind = "exposes";
 * ```
 */
export type RelationKind = typeof RELATION_KINDS[number];

export const nodeKindSet: ReadonlySet<string> = new Set(NODE_KINDS);
export const relationKindSet: ReadonlySet<string> = new Set(RELATION_KINDS);
