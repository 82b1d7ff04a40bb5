import type { BoundaryGraph, GraphNode, GraphRelation } from "./graph.ts";
import { confidenceOf } from "./link.ts";
import type { BoundaryRole } from "./types.ts";
import { portPlace } from "./_relation_metadata.ts";

/**
 * One port of a boundary, as found in a graph: who owns it, on which side,
 * and where.
 *
 * @example
 * ```ts
 * import type { BoundaryPort } from "@portcullis/portcullis/boundary";
 *
 * const port: BoundaryPort = {
 *   boundaryId: "2c3c7cba2c035619",
 *   mechanism: "http",
 *   key: "GET /users/{}",
 *   ownerId: "f1",
 *   role: "client",
 *   confidence: 0.9,
 *   filePath: "src/api.ts",
 *   line: 4,
 *   col: 9,
 * };
 * ```
 */
export interface BoundaryPort {
  /** Id of the boundary node. */
  boundaryId: string;
  /** The boundary's mechanism (`""` if its metadata has none). */
  mechanism: string;
  /** The boundary's key (`""` if its metadata has none). */
  key: string;
  /** Id of the code element that owns the port. */
  ownerId: string;
  /** `server` for an `exposes` relation, `client` for `consumes`. */
  role: BoundaryRole;
  /** The port's confidence (1 when missing or not a number). */
  confidence: number;
  /** The port's file, when recorded. */
  filePath?: string;
  /** The port's line, when recorded. */
  line?: number;
  /** The port's column, when recorded. */
  col?: number;
}

/**
 * One consumer→provider link of a linked graph.
 *
 * @example
 * ```ts
 * import type { Communication } from "@portcullis/portcullis/boundary";
 *
 * const link: Communication = {
 *   consumerId: "f1",
 *   providerId: "f2",
 *   mechanism: "http",
 *   key: "GET /users/{}",
 *   boundaryId: "2c3c7cba2c035619",
 *   confidence: 0.9,
 * };
 * ```
 */
export interface Communication {
  /** Id of the consuming code element. */
  consumerId: string;
  /** Id of the providing code element. */
  providerId: string;
  /** The boundary's mechanism. */
  mechanism: string;
  /** The boundary's key. */
  key: string;
  /** Id of the boundary node. */
  boundaryId: string;
  /** Consumer confidence × provider confidence. */
  confidence: number;
}

function toPort(boundary: GraphNode, relation: GraphRelation): BoundaryPort {
  const metadata = relation.metadata;
  const mechanism = boundary.metadata["mechanism"];
  const key = boundary.metadata["key"];
  const port: BoundaryPort = {
    boundaryId: boundary.id,
    mechanism: typeof mechanism === "string" ? mechanism : "",
    key: typeof key === "string" ? key : "",
    ownerId: relation.sourceId,
    role: relation.kind === "exposes" ? "server" : "client",
    confidence: confidenceOf(metadata["confidence"]),
  };
  return Object.assign(port, portPlace(metadata, undefined));
}

function ports(
  graph: BoundaryGraph,
  boundary: GraphNode,
  kind: "exposes" | "consumes",
): BoundaryPort[] {
  const out: BoundaryPort[] = [];
  for (const relation of graph.incoming(boundary.id, kind)) {
    out.push(toPort(boundary, relation));
  }
  return out;
}

function boundaryNode(graph: BoundaryGraph, boundaryId: string): GraphNode {
  const node = graph.getNode(boundaryId);
  if (node === undefined || node.kind !== "boundary") {
    throw new RangeError(
      `Cannot list ports: "${boundaryId}" is not a boundary node of the graph`,
    );
  }
  return node;
}

/**
 * The providers of a boundary: one entry per `exposes` relation into it.
 *
 * @param graph The graph.
 * @param boundaryId Id of a boundary node.
 * @returns The ports, in insertion order.
 * @throws {RangeError} If `boundaryId` is not a boundary node of the graph.
 *
 * @example Usage
 * ```ts
 * import { addBoundary, BoundaryGraph, providersOf } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "h", kind: "function", qualifiedName: "api.get_user", name: "get_user" });
 * const id = addBoundary(graph, "h", { mechanism: "http", role: "server", key: "GET /users/{}", line: 5, col: 1, confidence: 1, detail: {} });
 * assert.deepEqual(providersOf(graph, id).map((port) => port.ownerId), ["h"]);
 * ```
 */
export function providersOf(
  graph: BoundaryGraph,
  boundaryId: string,
): BoundaryPort[] {
  return ports(graph, boundaryNode(graph, boundaryId), "exposes");
}

/**
 * The consumers of a boundary: one entry per `consumes` relation into it.
 *
 * @param graph The graph.
 * @param boundaryId Id of a boundary node.
 * @returns The ports, in insertion order.
 * @throws {RangeError} If `boundaryId` is not a boundary node of the graph.
 *
 * @example Usage
 * ```ts
 * import { addBoundary, BoundaryGraph, consumersOf } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "c", kind: "module", qualifiedName: "src/api.ts", name: "api.ts" });
 * const id = addBoundary(graph, "c", { mechanism: "http", role: "client", key: "GET /users/{}", line: 2, col: 7, confidence: 0.9, detail: {} }, { filePath: "src/api.ts" });
 * assert.deepEqual(consumersOf(graph, id).map((port) => [port.filePath, port.line]), [["src/api.ts", 2]]);
 * ```
 */
export function consumersOf(
  graph: BoundaryGraph,
  boundaryId: string,
): BoundaryPort[] {
  return ports(graph, boundaryNode(graph, boundaryId), "consumes");
}

/**
 * Consumers of boundaries that nobody in the graph provides: calls to an
 * interface with no server, likely broken (a typo in a path, a removed
 * route, a missing service).
 *
 * @param graph The graph.
 * @returns One entry per such `consumes` relation, by boundary in insertion
 *   order.
 *
 * @example Usage
 * ```ts
 * import { addBoundary, BoundaryGraph, unmatchedConsumers } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "c", kind: "function", qualifiedName: "web.load", name: "load" });
 * addBoundary(graph, "c", { mechanism: "http", role: "client", key: "GET /usres/{}", line: 3, col: 1, confidence: 1, detail: {} });
 * assert.deepEqual(unmatchedConsumers(graph).map((port) => port.key), ["GET /usres/{}"]);
 * ```
 */
export function unmatchedConsumers(graph: BoundaryGraph): BoundaryPort[] {
  return oneSided(graph, "consumes", "exposes");
}

/**
 * Providers of boundaries that nobody in the graph consumes: routes,
 * topics or activities no scanned client uses (possibly dead, or used
 * from outside the scanned code).
 *
 * @param graph The graph.
 * @returns One entry per such `exposes` relation, by boundary in insertion
 *   order.
 *
 * @example Usage
 * ```ts
 * import { addBoundary, BoundaryGraph, unconsumedProviders } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "s", kind: "function", qualifiedName: "api.legacy", name: "legacy" });
 * addBoundary(graph, "s", { mechanism: "http", role: "server", key: "GET /legacy", line: 9, col: 1, confidence: 1, detail: {} });
 * assert.deepEqual(unconsumedProviders(graph).map((port) => port.ownerId), ["s"]);
 * ```
 */
export function unconsumedProviders(graph: BoundaryGraph): BoundaryPort[] {
  return oneSided(graph, "exposes", "consumes");
}

function oneSided(
  graph: BoundaryGraph,
  present: "exposes" | "consumes",
  absent: "exposes" | "consumes",
): BoundaryPort[] {
  const out: BoundaryPort[] = [];
  for (const boundary of graph.nodesByKind("boundary")) {
    const incoming = graph.incoming(boundary.id);
    if (incoming.some((relation) => relation.kind === absent)) continue;
    for (const relation of incoming) {
      if (relation.kind === present) out.push(toPort(boundary, relation));
    }
  }
  return out;
}

/**
 * Every consumer→provider link of the graph (its `communicates_with`
 * relations, as {@linkcode linkGraph} writes them), in insertion order.
 *
 * @param graph A linked graph.
 * @returns One entry per link.
 *
 * @example Usage
 * ```ts
 * import { addBoundary, BoundaryGraph, communications, linkGraph } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "c", kind: "function", qualifiedName: "web.load", name: "load" });
 * graph.addNode({ id: "s", kind: "function", qualifiedName: "api.get", name: "get" });
 * const port = { mechanism: "http", key: "GET /x", line: 1, col: 1, detail: {} } as const;
 * addBoundary(graph, "s", { ...port, role: "server", confidence: 1 });
 * addBoundary(graph, "c", { ...port, role: "client", confidence: 0.5 });
 * linkGraph(graph);
 * assert.deepEqual(
 *   communications(graph).map(({ consumerId, providerId, key, confidence }) => [consumerId, providerId, key, confidence]),
 *   [["c", "s", "GET /x", 0.5]],
 * );
 * ```
 */
export function communications(graph: BoundaryGraph): Communication[] {
  const out: Communication[] = [];
  for (const relation of graph.relationsByKind("communicates_with")) {
    const metadata = relation.metadata;
    const mechanism = metadata["mechanism"];
    const key = metadata["boundary_key"];
    const boundaryId = metadata["boundary_id"];
    out.push({
      consumerId: relation.sourceId,
      providerId: relation.targetId,
      mechanism: typeof mechanism === "string" ? mechanism : "",
      key: typeof key === "string" ? key : "",
      boundaryId: typeof boundaryId === "string" ? boundaryId : "",
      confidence: confidenceOf(metadata["confidence"]),
    });
  }
  return out;
}
