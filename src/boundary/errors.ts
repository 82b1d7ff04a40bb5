import { displayText } from "./_display_text.ts";

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
 * Options for {@linkcode BoundaryValidationError}.
 *
 * @example
 * ```ts
 * import type { BoundaryValidationErrorOptions } from "@portcullis/portcullis/boundary";
 *
 * const options: BoundaryValidationErrorOptions = { issueCount: 1200 };
 * ```
 */
export interface BoundaryValidationErrorOptions extends ErrorOptions {
  /**
   * How many problems were found in all, when `issues` holds only the
   * first ones.
   * @default {issues.length}
   */
  issueCount?: number;
}

/** Issues named in the message; the rest are counted. */
const ISSUES_IN_MESSAGE = 10;
/** Longest path or message of one issue in the error message. */
const ISSUE_TEXT_LENGTH = 200;

/**
 * Thrown when a boundary ref or a graph document is invalid. The message
 * names the first ten problems (control and bidirectional characters
 * escaped as `\uXXXX`, long texts cut) and counts the others;
 * {@linkcode BoundaryValidationError.issues} lists the problems kept and
 * {@linkcode BoundaryValidationError.issueCount} counts all of them.
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
 *   assert.equal(error.issueCount, 2);
 * }
 * ```
 */
export class BoundaryValidationError extends TypeError {
  /** The problems kept, in document order (all of them unless capped). */
  readonly issues: readonly ValidationIssue[];
  /** How many problems were found, kept or not. */
  readonly issueCount: number;

  /**
   * Creates the error.
   *
   * @param action What was being done, e.g. `parse boundary ref`.
   * @param issues The problems found (or the first ones); at least one.
   * @param options The total count of problems and the cause, if any.
   */
  constructor(
    action: string,
    issues: readonly ValidationIssue[],
    options: BoundaryValidationErrorOptions = {},
  ) {
    const count = Math.max(options.issueCount ?? 0, issues.length);
    const shown = issues.slice(0, ISSUES_IN_MESSAGE).map((issue) =>
      `${displayText(issue.path, ISSUE_TEXT_LENGTH)}: ${
        displayText(issue.message, ISSUE_TEXT_LENGTH)
      }`
    );
    const more = count - shown.length;
    const detail = shown.join("; ") +
      (more > 0 ? `; and ${more} more issue${more === 1 ? "" : "s"}` : "");
    super(
      `Cannot ${action}: ${detail}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "BoundaryValidationError";
    this.issues = issues;
    this.issueCount = count;
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
    super(
      `Cannot ${action}: node id "${
        displayText(nodeId, ISSUE_TEXT_LENGTH)
      }" already exists`,
      options,
    );
    this.name = "DuplicateNodeError";
    this.nodeId = nodeId;
  }
}
