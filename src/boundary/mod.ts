/**
 * A graph model of language-agnostic interface boundaries: HTTP routes,
 * queue topics, gRPC methods and Temporal activities.
 *
 * @example
 * ```ts
 * import type { Mechanism } from "@portcullis/portcullis/boundary";
 *
 * const mechanisms: Mechanism[] = ["http", "grpc", "queue", "temporal"];
 * ```
 *
 * @module
 */
export type { BoundaryRef, BoundaryRole, Mechanism } from "./types.ts";
