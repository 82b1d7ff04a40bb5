/**
 * Options for {@linkcode HttpError}.
 *
 * @example
 * ```ts
 * import { HttpError, type HttpErrorInit } from "@portcullis/portcullis/guard";
 *
 * const init: HttpErrorInit = { headers: { "WWW-Authenticate": "Bearer" } };
 * const error = new HttpError(401, "Unauthorized", init);
 * ```
 */
export interface HttpErrorInit {
  /**
   * Extra response headers, such as `WWW-Authenticate` on a 401.
   * @default {undefined}
   */
  headers?: HeadersInit;
  /**
   * The underlying error, kept for logs and never sent to the client.
   * @default {undefined}
   */
  cause?: unknown;
}

/**
 * An error that stands for an HTTP error answer. Raise it from a user
 * provider, an error factory or a handler; the guard turns it into a JSON
 * response `{"detail": "..."}` with its status and headers.
 *
 * @example Refusing a request with 401
 * ```ts
 * import { HttpError } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * const error = new HttpError(401, "Unauthorized", {
 *   headers: { "WWW-Authenticate": "Bearer" },
 * });
 * const response = error.toResponse();
 * assert.equal(response.status, 401);
 * assert.equal(response.headers.get("www-authenticate"), "Bearer");
 * assert.deepEqual(await response.json(), { detail: "Unauthorized" });
 * ```
 */
export class HttpError extends Error {
  /** The HTTP status code, 400 to 599. */
  readonly status: number;
  /** The short, client-safe message sent as `{"detail": ...}`. */
  readonly detail: string;
  /** Headers sent with the error answer. */
  readonly headers: Headers;

  /**
   * Creates an HTTP error.
   *
   * @param status An HTTP error status, an integer from 400 to 599.
   * @param detail A short message that is safe to show to the client.
   * @param init Extra headers and the cause.
   */
  constructor(status: number, detail: string, init: HttpErrorInit = {}) {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(
        `Cannot create HttpError: status must be an integer from 400 to 599, got ${
          String(status)
        }`,
      );
    }
    super(
      detail,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.name = "HttpError";
    this.status = status;
    this.detail = detail;
    this.headers = new Headers(init.headers);
  }

  /**
   * Builds the JSON error answer: `{"detail": "..."}` with this error's
   * status and headers. Each call returns a fresh `Response`.
   *
   * @returns The error response.
   *
   * @example Usage
   * ```ts
   * import { HttpError } from "@portcullis/portcullis/guard";
   * import assert from "node:assert/strict";
   *
   * const response = new HttpError(403, "Forbidden").toResponse();
   * assert.equal(response.headers.get("content-type"), "application/json");
   * assert.equal(await response.text(), '{"detail":"Forbidden"}');
   * ```
   */
  toResponse(): Response {
    const headers = new Headers(this.headers);
    headers.set("content-type", "application/json");
    return new Response(JSON.stringify({ detail: this.detail }), {
      status: this.status,
      headers,
    });
  }
}
