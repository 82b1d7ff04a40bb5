/**
 * One problem found while validating input: where (`path`) and what.
 *
 * @example
 * ```ts
 * import type { ValidationIssue } from "@portcullis/portcullis/boundary";
 *
 * const issue: ValidationIssue = {
 *   path: "$.nodes[0].kind",
 *   message: "invalid node kind",
 * };
 * ```
 */
export interface ValidationIssue {
  /**
   * Where the problem is: a field name for a boundary ref (`line`,
   * `detail.method`) or a JSON path for a graph document
   * (`$.nodes[3].kind`).
   */
  readonly path: string;
  /** What is wrong there. */
  readonly message: string;
}

/**
 * Thrown when a boundary ref or a graph document is invalid. The message
 * names every problem; {@linkcode BoundaryValidationError.issues} lists them.
 *
 * @example
 * ```ts
 * import {
 *   BoundaryValidationError,
 *   parseBoundaryRef,
 * } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * try {
 *   parseBoundaryRef({ mechanism: "smtp", role: "server", key: "x", line: 0, col: 1 });
 *   assert.fail("expected an error");
 * } catch (error) {
 *   assert.ok(error instanceof BoundaryValidationError);
 *   assert.deepEqual(error.issues.map((issue) => issue.path), ["mechanism", "line"]);
 * }
 * ```
 */
export class BoundaryValidationError extends TypeError {
  /** Every problem found, in document order. */
  readonly issues: readonly ValidationIssue[];

  /**
   * Creates the error.
   *
   * @param action What was being done, e.g. `parse boundary ref`.
   * @param issues Every problem found; at least one.
   * @param options The cause, if any.
   */
  constructor(
    action: string,
    issues: readonly ValidationIssue[],
    options?: ErrorOptions,
  ) {
    const detail = issues.map((issue) => `${issue.path}: ${issue.message}`)
      .join("; ");
    super(`Cannot ${action}: ${detail}`, options);
    this.name = "BoundaryValidationError";
    this.issues = issues;
  }
}

/**
 * Thrown when a node id is already taken by a node (or, when merging with
 * `allowShared`, by a different node).
 *
 * @example
 * ```ts
 * import { BoundaryGraph, DuplicateNodeError } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "a", kind: "function", qualifiedName: "a", name: "a" });
 * assert.throws(
 *   () => graph.addNode({ id: "a", kind: "function", qualifiedName: "a", name: "a" }),
 *   DuplicateNodeError,
 * );
 * ```
 */
export class DuplicateNodeError extends Error {
  /** The id that collided. */
  readonly nodeId: string;

  /**
   * Creates the error.
   *
   * @param action What was being done, e.g. `add node`.
   * @param nodeId The id that collided.
   * @param options The cause, if any.
   */
  constructor(action: string, nodeId: string, options?: ErrorOptions) {
    super(`Cannot ${action}: node id "${nodeId}" already exists`, options);
    this.name = "DuplicateNodeError";
    this.nodeId = nodeId;
  }
}
