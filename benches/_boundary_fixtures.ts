// Synthetic graphs for the boundary benchmarks: `size` HTTP boundaries,
// each with 2 consumers in a "client" graph and 2 providers in a "server"
// graph (distinct owner nodes), as a TypeScript front end and a Python
// back end would produce.
import { addBoundary } from "../src/boundary/add_boundary.ts";
import { BoundaryGraph } from "../src/boundary/graph.ts";

export function sideGraph(
  size: number,
  role: "server" | "client",
  perBoundary = 2,
): BoundaryGraph {
  const graph = new BoundaryGraph();
  const prefix = role === "server" ? "s" : "c";
  for (let i = 0; i < size; i++) {
    const key = `GET /svc${i % 97}/items${i}/{}`;
    for (let j = 0; j < perBoundary; j++) {
      const owner = `${prefix}${i}_${j}`;
      graph.addNode({
        id: owner,
        kind: "function",
        qualifiedName: `pkg/${prefix}${i}.py::handler${j}`,
        name: `handler${j}`,
        filePath: `pkg/${prefix}${i}.py`,
      });
      addBoundary(graph, owner, {
        mechanism: "http",
        role,
        key,
        line: 10 + j,
        col: 5,
        confidence: role === "server" ? 1 : 0.9,
        detail: { method: "GET" },
      }, { filePath: `pkg/${prefix}${i}.py` });
    }
  }
  return graph;
}

/** Client and server graphs merged: ready to link. */
export function mergedGraph(size: number): BoundaryGraph {
  const graph = sideGraph(size, "client");
  graph.merge(sideGraph(size, "server"), { allowShared: true });
  return graph;
}

/** One boundary with `consumers` × `providers` ports. */
export function wideGraph(consumers: number, providers: number): BoundaryGraph {
  const graph = new BoundaryGraph();
  const add = (id: string, role: "server" | "client"): void => {
    graph.addNode({ id, kind: "function", qualifiedName: id, name: id });
    addBoundary(graph, id, {
      mechanism: "queue",
      role,
      key: "orders.created",
      line: 1,
      col: 1,
      confidence: 1,
      detail: {},
    });
  };
  for (let i = 0; i < consumers; i++) add(`c${i}`, "client");
  for (let i = 0; i < providers; i++) add(`p${i}`, "server");
  return graph;
}
