/**
 * Finds interface boundaries (HTTP routes and calls, gRPC methods, queue
 * topics, Temporal activities) in source code of many languages, parsing
 * with tree-sitter grammars compiled to WASM. A separate entry point, so
 * that users of the guard or of the boundary core never load a parser.
 *
 * @example
 * ```ts
 * import type { ExtractedPort } from "@portcullis/portcullis/extract";
 *
 * const ports: ExtractedPort[] = [];
 * ```
 *
 * @module
 */
export type { ExtractedPort, PortOwner, SourceSpan } from "./types.ts";
export type {
  EnvironmentSetting,
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  ServiceFolder,
  SourceFile,
} from "./extractor.ts";
export { EXTRACTORS } from "./registry.ts";
export { extractPorts, type ExtractPortsOptions } from "./extract_ports.ts";
export {
  DEFAULT_SKIP_DIRECTORIES,
  languageOf,
  scan,
  SCAN_BUDGET_DEFAULTS,
  type ScanBudget,
  type ScanDiagnostic,
  ScanError,
  type ScanErrorCode,
  type ScannedPort,
  type ScannedRoot,
  type ScanOptions,
  type ScanProgress,
  type ScanResult,
  type SkippedFile,
  type SkipReason,
} from "./scan.ts";
export {
  buildReport,
  type PortCounts,
  type ReportBudgetHit,
  type ReportLink,
  type ReportPort,
  type ScanReport,
} from "./report.ts";
export {
  type DiagramOptions,
  renderReport,
  type RenderReportOptions,
  REPORT_FORMATS,
  type ReportFormat,
} from "./render_report.ts";
export { runScanCli, type ScanCliIo } from "./scan_cli.ts";
export { runCli } from "./run_cli.ts";
export { runDiffCli } from "./diff_cli.ts";
export { runExportCli } from "./export_cli.ts";
export { runPublishCli } from "./publish_cli.ts";
export { runQueryCli } from "./query_cli.ts";
export { javascriptExtractor } from "./javascript/mod.ts";
export { openapiExtractor } from "./openapi/mod.ts";
export { javaExtractor } from "./java/mod.ts";
export { kotlinExtractor } from "./kotlin/mod.ts";
export { forwardedPath, type GatewayRoute } from "./_port/gateway.ts";
export { csharpExtractor } from "./csharp/mod.ts";
export { cppExtractor } from "./cpp/mod.ts";
export { rustExtractor } from "./rust/mod.ts";
export { phpExtractor } from "./php/mod.ts";
export { rubyExtractor } from "./ruby/mod.ts";
export { elixirExtractor } from "./elixir/mod.ts";
export { queueExtractor } from "./queue/mod.ts";
export {
  describeGuardedRoutes,
  type DescribeGuardedRoutesOptions,
  type GuardedRoute,
} from "./guard_routes.ts";
export { pythonExtractor } from "./python/mod.ts";
export { goExtractor } from "./go/mod.ts";
export { grpcExtractor } from "./grpc/mod.ts";
export { temporalExtractor } from "./temporal/mod.ts";
export { deployExtractor } from "./deploy/mod.ts";
export { htmlExtractor } from "./html/mod.ts";
