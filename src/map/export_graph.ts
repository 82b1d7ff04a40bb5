import type { BoundaryGraph } from "../boundary/graph.ts";
import { escapeJsonText } from "../boundary/_display_text.ts";
import { backstageEntities, backstageYaml } from "./backstage.ts";
import { cyclonedxBom } from "./cyclonedx.ts";
import { cypherScript, neo4jCsv } from "./neo4j.ts";
import { openApiDocuments } from "./openapi.ts";
import { serviceMap } from "./service_map.ts";

/**
 * What {@linkcode exportGraph} writes: Backstage catalog entities,
 * a CycloneDX 1.6 BOM, a Neo4j Cypher script, CSV for `neo4j-admin
 * import`, or OpenAPI 3.1 skeletons.
 *
 * @example
 * ```ts
 * import type { ExportFormat } from "@portcullis/portcullis/map";
 *
 * const format: ExportFormat = "cyclonedx";
 * ```
 */
export type ExportFormat =
  | "backstage"
  | "cyclonedx"
  | "cypher"
  | "csv"
  | "openapi";

/**
 * The formats {@linkcode exportGraph} writes.
 *
 * @example
 * ```ts
 * import { EXPORT_FORMATS } from "@portcullis/portcullis/map";
 * import assert from "node:assert/strict";
 *
 * assert.ok(EXPORT_FORMATS.includes("openapi"));
 * ```
 */
export const EXPORT_FORMATS: readonly ExportFormat[] = [
  "backstage",
  "cyclonedx",
  "cypher",
  "csv",
  "openapi",
];

/**
 * One file of an export: a relative path (no `..`, made of
 * `[A-Za-z0-9._-]` segments) and its text.
 *
 * @example
 * ```ts
 * import type { ExportFile } from "@portcullis/portcullis/map";
 *
 * const file: ExportFile = { path: "catalog-info.yaml", text: "---\n" };
 * ```
 */
export interface ExportFile {
  /** Where to write it, relative to the output directory. */
  path: string;
  /** Its content. */
  text: string;
}

/**
 * Options for {@linkcode exportGraph}.
 *
 * @example
 * ```ts
 * import type { ExportOptions } from "@portcullis/portcullis/map";
 *
 * const options: ExportOptions = { format: "backstage", name: "shop", owner: "team-shop" };
 * ```
 */
export interface ExportOptions {
  /** What to write. */
  format: ExportFormat;
  /**
   * The name of the whole (the BOM's subject, the service of ports whose
   * owner names none).
   * @default {"services"}
   */
  name?: string;
  /**
   * Backstage `spec.owner`.
   * @default {"unknown"}
   */
  owner?: string;
  /**
   * Backstage `spec.system`.
   * @default {undefined}
   */
  system?: string;
  /**
   * OpenAPI `info.version`.
   * @default {"0.0.0"}
   */
  version?: string;
}

function json(value: unknown): string {
  return escapeJsonText(JSON.stringify(value, null, 2)) + "\n";
}

/** A service name as a file name: safe characters only, never `..`. */
function fileName(name: string, taken: Set<string>): string {
  let base = name.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 100) || "service";
  if (taken.has(base)) {
    let n = 2;
    while (taken.has(`${base}_${n}`)) n++;
    base = `${base}_${n}`;
  }
  taken.add(base);
  return base;
}

/**
 * Exports a linked graph to where organisations keep such graphs, as
 * files to write: `backstage` (`catalog-info.yaml`, see
 * `backstageEntities`), `cyclonedx` (`bom.cdx.json`, `cyclonedxBom`),
 * `cypher` (`graph.cypher`, `cypherScript`), `csv` (`nodes.csv` and
 * `relationships.csv`, `neo4jCsv`) or `openapi` (`openapi/<service>.json`
 * per service with HTTP routes, `openApiDocuments`). File names made from
 * service names keep only `[A-Za-z0-9_-]`.
 *
 * @param graph A linked graph.
 * @param options Format, name, owner, system, version.
 * @returns The files, in a stable order.
 * @throws {RangeError} If the format is unknown.
 *
 * @example Usage
 * ```ts
 * import { addBoundary, BoundaryGraph } from "@portcullis/portcullis/boundary";
 * import { exportGraph } from "@portcullis/portcullis/map";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "u", kind: "function", qualifiedName: "app.py::get_user", name: "get_user", metadata: { root: "users" } });
 * addBoundary(graph, "u", { mechanism: "http", role: "server", key: "GET /users/{}", line: 4, col: 1, confidence: 1, detail: {} });
 *
 * const files = exportGraph(graph, { format: "openapi" });
 * assert.deepEqual(files.map((f) => f.path), ["openapi/users.json"]);
 * ```
 */
export function exportGraph(
  graph: BoundaryGraph,
  options: ExportOptions,
): ExportFile[] {
  const map = serviceMap(
    graph,
    options.name === undefined ? {} : { name: options.name },
  );
  switch (options.format) {
    case "backstage": {
      const entities = backstageEntities(map, {
        ...(options.owner === undefined ? {} : { owner: options.owner }),
        ...(options.system === undefined ? {} : { system: options.system }),
      });
      return [{ path: "catalog-info.yaml", text: backstageYaml(entities) }];
    }
    case "cyclonedx":
      return [{ path: "bom.cdx.json", text: json(cyclonedxBom(map)) }];
    case "cypher":
      return [{ path: "graph.cypher", text: cypherScript(graph) }];
    case "csv": {
      const { nodes, relationships } = neo4jCsv(graph);
      return [
        { path: "nodes.csv", text: nodes },
        { path: "relationships.csv", text: relationships },
      ];
    }
    case "openapi": {
      const taken = new Set<string>();
      const documents = openApiDocuments(
        map,
        options.version === undefined ? {} : { version: options.version },
      );
      return Object.entries(documents).map(([service, document]) => ({
        path: `openapi/${fileName(service, taken)}.json`,
        text: json(document),
      }));
    }
    default:
      throw new RangeError(
        `Cannot export the graph: unknown format "${
          String((options as { format: unknown }).format)
        }"`,
      );
  }
}
