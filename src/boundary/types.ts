/**
 * The transport of a boundary.
 *
 * @example
 * ```ts
 * import type { Mechanism } from "@portcullis/portcullis/boundary";
 *
 * const mechanism: Mechanism = "http";
 * ```
 */
export type Mechanism = "http" | "grpc" | "queue" | "temporal";

/**
 * Which side of a boundary a port is on: a `server` exposes it, a `client`
 * consumes it.
 *
 * @example
 * ```ts
 * import type { BoundaryRole } from "@portcullis/portcullis/boundary";
 *
 * const role: BoundaryRole = "client";
 * ```
 */
export type BoundaryRole = "server" | "client";

/**
 * One port found in code: a server exposing or a client consuming a
 * boundary. Extractors produce these; {@linkcode addBoundary} puts them in a
 * graph.
 *
 * @example
 * ```ts
 * import type { BoundaryRef } from "@portcullis/portcullis/boundary";
 *
 * const ref: BoundaryRef = {
 *   mechanism: "http",
 *   role: "server",
 *   key: "GET /users/{}",
 *   line: 12,
 *   col: 1,
 *   confidence: 1,
 *   detail: { method: "GET", path: "/users/:id", framework: "express" },
 * };
 * ```
 */
export interface BoundaryRef {
  /** The transport. */
  mechanism: Mechanism;
  /** `server` exposes the boundary, `client` consumes it. */
  role: BoundaryRole;
  /** The normalized match key; for HTTP `<METHOD> <normalized path>`. */
  key: string;
  /** 1-based line of the port in its file. */
  line: number;
  /** 1-based column of the port in its file. */
  col: number;
  /** 0..1; 1 for a literal, exact port, lower when partly inferred. */
  confidence: number;
  /** Free-form string facts: method, path, topic, framework, raw... */
  detail: Record<string, string>;
}
