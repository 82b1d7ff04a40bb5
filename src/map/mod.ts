/**
 * The service map at organisation scale, from linked boundary graphs: a
 * breaking-change gate for CI (render a {@linkcode BoundaryDiff} as text,
 * JSON, Markdown or SARIF and judge it), and exports to where
 * organisations keep such graphs (Backstage, CycloneDX, Neo4j, OpenAPI).
 * Like the boundary core it loads no `node:` module and no parser.
 *
 * @example
 * ```ts
 * import { diffPorts } from "@portcullis/portcullis/boundary";
 * import { gateDiff, renderDiff } from "@portcullis/portcullis/map";
 * import assert from "node:assert/strict";
 *
 * const diff = diffPorts({ base: [], head: [] });
 * assert.equal(gateDiff(diff, "breaking").exitCode, 0);
 * assert.match(renderDiff(diff), /0 breaking changes/);
 * ```
 *
 * @module
 */
import type { BoundaryDiff } from "../boundary/diff.ts";

export type { BoundaryDiff };
export {
  DIFF_FORMATS,
  type DiffFormat,
  renderDiff,
  type RenderDiffOptions,
} from "./diff_report.ts";
export { FAIL_ON, type FailOn, gateDiff, type GateVerdict } from "./gate.ts";
export {
  type MapService,
  type ServiceFlow,
  type ServiceMap,
  serviceMap,
  type ServiceMapOptions,
} from "./service_map.ts";
export {
  backstageEntities,
  type BackstageEntity,
  type BackstageOptions,
  backstageYaml,
} from "./backstage.ts";
export {
  type CycloneDxBom,
  cyclonedxBom,
  type CycloneDxOptions,
} from "./cyclonedx.ts";
export { cypherScript, neo4jCsv } from "./neo4j.ts";
export {
  type OpenApiDocument,
  openApiDocuments,
  type OpenApiOptions,
} from "./openapi.ts";
export {
  EXPORT_FORMATS,
  type ExportFile,
  type ExportFormat,
  exportGraph,
  type ExportOptions,
} from "./export_graph.ts";
