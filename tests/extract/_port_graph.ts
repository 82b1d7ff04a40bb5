// Test helper: a graph of HTTP ports, each owned by a function node.
import { addBoundary } from "../../src/boundary/add_boundary.ts";
import type { BoundaryGraph } from "../../src/boundary/graph.ts";

/** Adds an HTTP port of `key` owned by `owner` (a node made on first use). */
export function addHttpPort(
  graph: BoundaryGraph,
  owner: string,
  role: "client" | "server",
  key: string,
): void {
  if (!graph.hasNode(owner)) {
    graph.addNode({
      id: owner,
      kind: "function",
      qualifiedName: owner,
      name: owner,
    });
  }
  addBoundary(graph, owner, {
    mechanism: "http",
    role,
    key,
    line: 1,
    col: 1,
    confidence: 1,
    detail: {},
  });
}
