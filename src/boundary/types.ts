import { z } from "zod";
import { BoundaryValidationError } from "./errors.ts";
import { toIssues } from "./_issues.ts";

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

/**
 * The input accepted by {@linkcode parseBoundaryRef} and
 * {@linkcode BoundaryRefSchema}: a {@linkcode BoundaryRef} whose
 * `confidence` (default 1) and `detail` (default `{}`) may be left out.
 *
 * @example
 * ```ts
 * import type { BoundaryRefInput } from "@portcullis/portcullis/boundary";
 *
 * const input: BoundaryRefInput = {
 *   mechanism: "queue",
 *   role: "client",
 *   key: "orders.created",
 *   line: 3,
 *   col: 5,
 * };
 * ```
 */
export interface BoundaryRefInput {
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
  /**
   * 0..1; 1 for a literal, exact port, lower when partly inferred.
   * @default {1}
   */
  confidence?: number | undefined;
  /**
   * Free-form string facts: method, path, topic, framework, raw...
   * @default {{}}
   */
  detail?: Record<string, string> | undefined;
}

/**
 * The result of {@linkcode BoundaryRefSchemaType.safeParse}.
 *
 * @example
 * ```ts
 * import {
 *   type BoundaryRefParseResult,
 *   BoundaryRefSchema,
 * } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const result: BoundaryRefParseResult = BoundaryRefSchema.safeParse({ key: "x" });
 * assert.equal(result.success, false);
 * ```
 */
export type BoundaryRefParseResult =
  | { success: true; data: BoundaryRef }
  | {
    success: false;
    error: {
      issues: readonly {
        path: readonly PropertyKey[];
        message: string;
      }[];
    };
  };

/**
 * The part of zod's schema API that {@linkcode BoundaryRefSchema} is typed
 * with, so the public types do not depend on zod's internals.
 *
 * @example
 * ```ts
 * import { BoundaryRefSchema, type BoundaryRefSchemaType } from "@portcullis/portcullis/boundary";
 *
 * const schema: BoundaryRefSchemaType = BoundaryRefSchema;
 * ```
 */
export interface BoundaryRefSchemaType {
  /**
   * Validates `input` and returns a new ref with defaults filled in.
   *
   * @param input Any value.
   * @returns The ref.
   * @throws {Error} zod's `ZodError` if `input` is invalid.
   */
  parse(input: unknown): BoundaryRef;
  /**
   * Validates `input` without throwing.
   *
   * @param input Any value.
   * @returns The ref, or the issues found.
   */
  safeParse(input: unknown): BoundaryRefParseResult;
}

const schema: z.ZodType<BoundaryRef, BoundaryRefInput> = z
  .object({
    mechanism: z.enum(["http", "grpc", "queue", "temporal"], {
      error: 'expected "http", "grpc", "queue" or "temporal"',
    }),
    role: z.enum(["server", "client"], {
      error: 'expected "server" or "client"',
    }),
    key: z.string({ error: "expected a string" }).min(1, {
      error: "expected a non-empty string",
    }),
    line: z.number({ error: "expected a number" }).int({
      error: "expected an integer",
    }).min(1, { error: "expected an integer >= 1" }),
    col: z.number({ error: "expected a number" }).int({
      error: "expected an integer",
    }).min(1, { error: "expected an integer >= 1" }),
    confidence: z.number({ error: "expected a number" }).min(0, {
      error: "expected a number from 0 to 1",
    }).max(1, { error: "expected a number from 0 to 1" }).default(1),
    detail: z.record(z.string(), z.string({ error: "expected a string" }), {
      error: "expected an object of strings",
    }).default(() => ({})),
  }, { error: "expected an object" });

/**
 * The zod schema of a {@linkcode BoundaryRef}. Unknown keys are dropped;
 * `confidence` defaults to 1 and `detail` to `{}`. At run time it is the
 * zod object schema itself; its declared type is
 * {@linkcode BoundaryRefSchemaType} so that the public types do not expose
 * zod's. To compose it with other zod schemas, cast it:
 * `BoundaryRefSchema as unknown as z.ZodType<BoundaryRef>`.
 *
 * @example
 * ```ts
 * import { BoundaryRefSchema } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const ref = BoundaryRefSchema.parse({
 *   mechanism: "grpc",
 *   role: "server",
 *   key: "users.v1.UserService/GetUser",
 *   line: 10,
 *   col: 3,
 * });
 * assert.equal(ref.confidence, 1);
 * assert.deepEqual(ref.detail, {});
 * ```
 */
export const BoundaryRefSchema: BoundaryRefSchemaType = schema;

/**
 * Validates an unknown value as a {@linkcode BoundaryRef}, filling in the
 * defaults (`confidence` 1, `detail` `{}`).
 *
 * @param input Any value, e.g. parsed JSON.
 * @returns A new, valid boundary ref.
 * @throws {BoundaryValidationError} Naming every invalid field.
 *
 * @example Usage
 * ```ts
 * import { parseBoundaryRef } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const ref = parseBoundaryRef({
 *   mechanism: "http",
 *   role: "client",
 *   key: "GET /users/{}",
 *   line: 4,
 *   col: 9,
 *   confidence: 0.9,
 * });
 * assert.equal(ref.confidence, 0.9);
 *
 * assert.throws(
 *   () => parseBoundaryRef({ mechanism: "http", role: "peer", key: "", line: 1.5, col: 1 }),
 *   { name: "BoundaryValidationError", message: /role: .*; key: .*; line: / },
 * );
 * ```
 */
export function parseBoundaryRef(input: unknown): BoundaryRef {
  const result = BoundaryRefSchema.safeParse(input);
  if (result.success) return result.data;
  throw new BoundaryValidationError(
    "parse boundary ref",
    toIssues(result.error.issues, ""),
  );
}
