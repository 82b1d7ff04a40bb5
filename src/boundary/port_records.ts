import type { BoundaryGraph, GraphNode, JsonValue } from "./graph.ts";
import { graphInternals } from "./_graph_internals.ts";
import { confidenceOf } from "./_link_pairs.ts";
import type { BoundaryRole } from "./types.ts";
import { portPlace } from "./_relation_metadata.ts";

/**
 * One port of a graph as a flat record: which graph (repository) it is in,
 * the boundary, the owner and where it is. What {@linkcode diffPorts}
 * compares, and a row an organisation-wide store can keep.
 *
 * @example
 * ```ts
 * import type { PortRecord } from "@portcullis/portcullis/boundary";
 *
 * const port: PortRecord = {
 *   graph: "shop",
 *   boundaryId: "2c3c7cba2c035619",
 *   mechanism: "http",
 *   key: "GET /users/{}",
 *   role: "client",
 *   ownerId: "web:src/api.ts::loadUser",
 *   owner: "src/api.ts::loadUser",
 *   service: "web",
 *   confidence: 0.9,
 *   filePath: "src/api.ts",
 *   line: 4,
 *   col: 9,
 * };
 * ```
 */
export interface PortRecord {
  /** The graph (repository) the port was read from. */
  graph: string;
  /** Id of the boundary node. */
  boundaryId: string;
  /** The boundary's mechanism. */
  mechanism: string;
  /** The boundary's key. */
  key: string;
  /** `server` exposes, `client` consumes. */
  role: BoundaryRole;
  /** Id of the owner node. */
  ownerId: string;
  /** Qualified name of the owner (its id when the node is missing). */
  owner: string;
  /**
   * The service the owner belongs to: its `root` metadata (a scan's root
   * label), else its `service` metadata, else `""`.
   */
  service: string;
  /** The port's confidence (1 when missing). */
  confidence: number;
  /** File of the port, relative to its root. */
  filePath?: string;
  /** 1-based line. */
  line?: number;
  /** 1-based column. */
  col?: number;
  /**
   * What a provider requires of its callers, when the guard or the
   * framework tells: a permission (`post:read`, from `permission`
   * metadata) or `user` (`auth: "required"` metadata).
   */
  requires?: string;
}

function text(value: JsonValue | undefined): string {
  return typeof value === "string" ? value : "";
}

/**
 * The service a node belongs to: its `root` metadata (the label of the
 * root a scan found it in), else its `service` metadata, else `""`.
 *
 * @param node A node, or `undefined` for an id with no node.
 * @returns The service name, or `""`.
 *
 * @example Usage
 * ```ts
 * import { serviceOf } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * assert.equal(serviceOf({ id: "a", kind: "function", qualifiedName: "a", name: "a", metadata: { root: "web" } }), "web");
 * assert.equal(serviceOf(undefined), "");
 * ```
 */
export function serviceOf(node: GraphNode | undefined): string {
  if (node === undefined) return "";
  return text(node.metadata["root"]) || text(node.metadata["service"]);
}

/**
 * Every port of a graph (each `exposes` / `consumes` relation into a
 * boundary node) as a {@linkcode PortRecord}, in boundary order.
 *
 * @param graph The graph.
 * @param name The name its records carry in `graph`, e.g. a repository.
 * @returns One record per port.
 *
 * @example Usage
 * ```ts
 * import { addBoundary, BoundaryGraph, portRecords } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "h", kind: "function", qualifiedName: "api.py::get_user", name: "get_user", metadata: { root: "api" } });
 * addBoundary(graph, "h", { mechanism: "http", role: "server", key: "GET /users/{}", line: 5, col: 1, confidence: 1, detail: {} }, { filePath: "api.py" });
 * const [port] = portRecords(graph, "shop");
 * assert.deepEqual([port?.graph, port?.service, port?.owner, port?.line], ["shop", "api", "api.py::get_user", 5]);
 * ```
 */
export function portRecords(graph: BoundaryGraph, name: string): PortRecord[] {
  const out: PortRecord[] = [];
  const boundaries = graphInternals.nodesOfKind(graph, "boundary");
  for (const boundary of boundaries) {
    const mechanism = text(boundary.metadata["mechanism"]);
    const key = text(boundary.metadata["key"]);
    for (const relation of graphInternals.incoming(graph, boundary.id)) {
      const kind = relation.kind;
      if (kind !== "exposes" && kind !== "consumes") continue;
      const owner = graph.getNode(relation.sourceId);
      const metadata = relation.metadata;
      const port: PortRecord = {
        graph: name,
        boundaryId: boundary.id,
        mechanism,
        key,
        role: kind === "exposes" ? "server" : "client",
        ownerId: relation.sourceId,
        owner: owner?.qualifiedName ?? relation.sourceId,
        service: serviceOf(owner),
        confidence: confidenceOf(metadata["confidence"]),
      };
      Object.assign(port, portPlace(metadata, owner));
      const permission = text(metadata["permission"]);
      if (permission !== "") port.requires = permission;
      else if (metadata["auth"] === "required") port.requires = "user";
      out.push(port);
    }
  }
  return out;
}
