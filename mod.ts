/**
 * portcullis: route-level authorization over casbin for web-standard
 * handlers ({@link https://jsr.io/@portcullis/portcullis/doc/guard | guard}),
 * and a graph of the interface boundaries between services
 * ({@link https://jsr.io/@portcullis/portcullis/doc/boundary | boundary}).
 *
 * @example
 * ```ts
 * import { HttpError } from "@portcullis/portcullis";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new HttpError(403, "Forbidden").status, 403);
 * ```
 *
 * @module
 */
export * from "./src/guard/mod.ts";
export * from "./src/boundary/mod.ts";
