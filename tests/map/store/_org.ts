// Organisations for the store's tests: a linked graph split into one graph
// per service (each a repository, as each would be scanned on its own), the
// in-memory linker's links of the whole graph as comparable strings, and
// small repositories made by hand.
import { fileURLToPath } from "node:url";
import { addBoundary } from "../../../src/boundary/add_boundary.ts";
import { BoundaryGraph } from "../../../src/boundary/graph.ts";
import type { Mechanism } from "../../../src/boundary/types.ts";
import type { OrgLink } from "../../../src/map/store/mod.ts";
import { scan } from "../../../src/extract/scan.ts";
import { linkGraph } from "../../../src/boundary/link.ts";
import { linkAnyMethod } from "../../../src/extract/_link_any.ts";

interface Doc {
  "schema_version": number;
  metadata: Record<string, unknown>;
  nodes: { id: string; kind: string; metadata: Record<string, unknown> }[];
  relations: {
    source_id: string;
    target_id: string;
    kind: string;
    metadata: Record<string, unknown>;
  }[];
}

/** One graph per service (`root` metadata), without the links. */
export function splitByService(
  graph: BoundaryGraph,
): Map<string, BoundaryGraph> {
  const doc = JSON.parse(JSON.stringify(graph)) as Doc;
  const services = new Map<string, Set<string>>();
  for (const node of doc.nodes) {
    const root = node.metadata["root"];
    if (typeof root !== "string") continue;
    let ids = services.get(root);
    if (ids === undefined) services.set(root, ids = new Set());
    ids.add(node.id);
  }
  const out = new Map<string, BoundaryGraph>();
  for (const [service, ids] of [...services].sort()) {
    const relations = doc.relations.filter((r) =>
      r.kind !== "communicates_with" && ids.has(r.source_id)
    );
    const targets = new Set(relations.map((r) => r.target_id));
    const nodes = doc.nodes.filter((n) => ids.has(n.id) || targets.has(n.id));
    out.set(
      service,
      BoundaryGraph.fromJSON({ ...doc, metadata: {}, nodes, relations }),
    );
  }
  return out;
}

/** A link as a comparable string: consumer, provider, both boundaries, confidence. */
export function linkText(link: OrgLink): string {
  return [
    link.consumer.ownerId,
    link.provider.ownerId,
    link.consumer.boundaryId,
    link.provider.boundaryId,
    link.confidence,
  ].join(" | ");
}

/**
 * The graph linked again by the rules the store applies in SQL: exact
 * boundary keys and `ANY`-method routes, without the scan's passes that need
 * one repository's whole picture (service affinity, gateways, near matches;
 * see docs/service_map.md, "Organisation store").
 */
export function baseLinked(graph: BoundaryGraph): BoundaryGraph {
  const doc = graph.toJSON() as unknown as Doc;
  const unlinked = BoundaryGraph.fromJSON(JSON.stringify({
    ...doc,
    relations: doc.relations.filter((r) => r.kind !== "communicates_with"),
  }));
  linkGraph(unlinked);
  linkAnyMethod(unlinked, {});
  return unlinked;
}

/** The `communicates_with` relations of a linked graph, as {@linkcode linkText}. */
export function graphLinks(graph: BoundaryGraph): string[] {
  return graph.relationsByKind("communicates_with").map((relation) => {
    const m = relation.metadata;
    return [
      relation.sourceId,
      relation.targetId,
      m["boundary_id"],
      m["provider_boundary_id"] ?? m["boundary_id"],
      m["confidence"],
    ].join(" | ");
  }).sort();
}

const FIXTURES = fileURLToPath(
  new URL("../../fixtures/extract", import.meta.url),
);
let fixtures: Promise<string> | undefined;

/** Every extractor fixture scanned as one linked graph (a fresh copy). */
export async function fixturesGraph(): Promise<BoundaryGraph> {
  fixtures ??= (async () => {
    const roots = [...Deno.readDirSync(FIXTURES)].filter((e) => e.isDirectory)
      .map((e) => `${FIXTURES}/${e.name}`).sort();
    return JSON.stringify((await scan(roots)).graph);
  })();
  return BoundaryGraph.fromJSON(await fixtures);
}

/** A port of {@linkcode repoGraph}. */
export interface Port {
  owner: string;
  role: "server" | "client";
  key: string;
  mechanism?: Mechanism;
  confidence?: number;
  line?: number;
}

/** A repository's graph with these ports (owners in `<owner>.ts`). */
export function repoGraph(
  ports: readonly Port[],
  metadata: Record<string, string | string[]> = {},
): BoundaryGraph {
  const graph = new BoundaryGraph({ metadata });
  for (const port of ports) {
    if (!graph.hasNode(port.owner)) {
      graph.addNode({
        id: port.owner,
        kind: "function",
        qualifiedName: `${port.owner}.ts::${port.owner}`,
        name: port.owner,
        filePath: `${port.owner}.ts`,
      });
    }
    addBoundary(graph, port.owner, {
      mechanism: port.mechanism ?? "http",
      role: port.role,
      key: port.key,
      line: port.line ?? 1,
      col: 1,
      confidence: port.confidence ?? 1,
      detail: {},
    }, { filePath: `${port.owner}.ts` });
  }
  return graph;
}
