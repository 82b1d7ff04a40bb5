import {
  parseJsonBytes,
  readBodyBytes,
  resolveBodyLimits,
} from "./_request_data.ts";

/**
 * Limits on reading a request body: how many bytes, and for how long. A
 * client controls both, so every body the guard reads is bounded by them.
 *
 * @example
 * ```ts
 * import type { BodyLimits } from "@portcullis/portcullis/guard";
 *
 * const limits: BodyLimits = { maxBodyBytes: 64 * 1024, bodyTimeoutMs: 2_000 };
 * ```
 */
export interface BodyLimits {
  /**
   * The largest body accepted, in bytes. A `Content-Length` above it
   * answers 413 at once, without reading; a body sent without one (chunked)
   * is counted while it is read and answers 413 as soon as it passes the
   * limit, without reading the rest.
   * @default {1048576} (1 MiB)
   */
  maxBodyBytes?: number;
  /**
   * The longest time reading the whole body may take, in milliseconds. A
   * body still incomplete then (a client sending a byte every few seconds)
   * answers 408; the read is cancelled.
   * @default {5000}
   */
  bodyTimeoutMs?: number;
}

/**
 * Reads and parses a request's JSON body within size and time limits, for
 * handlers that read their own body: a body over `maxBodyBytes` answers 413
 * (before reading when `Content-Length` says so, and as soon as a streamed
 * body passes it), one that takes longer than `bodyTimeoutMs` answers 408,
 * and one that is not JSON answers 400. Memory stays bounded whatever the
 * client sends. It consumes the body.
 *
 * @param request The request whose body to read.
 * @param limits The size and time limits (1 MiB and 5 s by default).
 * @returns The parsed body.
 * @throws {HttpError} 413, 408 or 400 as above; the guard and the
 * reference application turn it into its JSON answer.
 * @throws {TypeError} When the body was already read.
 * @throws {RangeError} When a limit is not a valid number.
 *
 * @example A limit of 16 bytes
 * ```ts
 * import { HttpError, readJsonBody } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * const small = new Request("http://localhost/posts", {
 *   method: "POST",
 *   body: '{"title":"Hi"}',
 * });
 * assert.deepEqual(await readJsonBody(small, { maxBodyBytes: 16 }), { title: "Hi" });
 *
 * const large = new Request("http://localhost/posts", {
 *   method: "POST",
 *   body: JSON.stringify({ title: "x".repeat(100) }),
 * });
 * await assert.rejects(
 *   readJsonBody(large, { maxBodyBytes: 16 }),
 *   (error) => error instanceof HttpError && error.status === 413,
 * );
 * ```
 */
export async function readJsonBody(
  request: Request,
  limits?: BodyLimits,
): Promise<unknown> {
  const resolved = resolveBodyLimits(limits, "read request body");
  if (request.bodyUsed) {
    throw new TypeError(
      "Cannot read request body: the body was already consumed",
    );
  }
  return parseJsonBytes(
    await readBodyBytes(request.headers, request.body, resolved),
  );
}
