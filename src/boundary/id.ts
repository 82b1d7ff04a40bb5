import { sha256 } from "@noble/hashes/sha2.js";
import type { Mechanism } from "./types.ts";

const encoder = new TextEncoder();
const HEX = "0123456789abcdef";

/**
 * Returns the id of the boundary node for `(mechanism, key)`.
 *
 * The id is the first 16 hex digits of the SHA-256 of
 * `boundary::<mechanism>::<key>` encoded as UTF-8, exactly as graphlens
 * computes it, so a graph made by graphlens's adapters and one made here
 * share their boundary nodes. It depends on nothing else: no project, no
 * language, no file. The function is synchronous (it uses the pure
 * JavaScript SHA-256 of `@noble/hashes`, because Web Crypto is async only).
 * A lone UTF-16 surrogate in `key` is encoded as U+FFFD, as `TextEncoder`
 * does (graphlens cannot encode such a key at all).
 *
 * @param mechanism The transport of the boundary.
 * @param key The normalized match key, e.g. `GET /users/{}`.
 * @returns 16 lower-case hex digits.
 *
 * @example Usage
 * ```ts
 * import { makeBoundaryId } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const id = makeBoundaryId("http", "GET /users/{}");
 * assert.match(id, /^[0-9a-f]{16}$/);
 * assert.equal(makeBoundaryId("http", "GET /users/{}"), id);
 * ```
 */
export function makeBoundaryId(mechanism: Mechanism, key: string): string {
  if (typeof mechanism !== "string" || typeof key !== "string") {
    throw new TypeError(
      "Cannot make boundary id: mechanism and key must be strings",
    );
  }
  const digest = sha256(encoder.encode(`boundary::${mechanism}::${key}`));
  let out = "";
  for (let i = 0; i < 8; i++) {
    const byte = digest[i]!;
    out += HEX[byte >> 4]! + HEX[byte & 15]!;
  }
  return out;
}
