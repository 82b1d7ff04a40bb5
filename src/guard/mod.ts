/**
 * Route-level authorization over casbin for web-standard
 * `(Request) => Response` handlers.
 *
 * @example
 * ```ts
 * import { HttpError } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new HttpError(401, "Unauthorized").toResponse().status, 401);
 * ```
 *
 * @module
 */
export { HttpError, type HttpErrorInit } from "./http_error.ts";
export type { User } from "./user.ts";
