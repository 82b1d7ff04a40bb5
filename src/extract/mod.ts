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
export { pythonExtractor } from "./python.ts";
export { goExtractor } from "./go.ts";
export { grpcExtractor } from "./grpc.ts";
export { temporalExtractor } from "./temporal.ts";
