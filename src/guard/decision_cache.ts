/**
 * Options for the decision cache of {@linkcode IndexedEnforcer}.
 *
 * @example Cache decisions, keyed on the user's id and the other arguments
 * ```ts
 * import {
 *   canonicalRequestKey,
 *   type DecisionCacheOptions,
 * } from "@portcullis/portcullis/guard";
 *
 * const options: DecisionCacheOptions = {
 *   maxEntries: 50_000,
 *   key: ([user, ...rest]) =>
 *     typeof (user as { id?: unknown })?.id === "string"
 *       ? `${(user as { id: string }).id}\u0000${canonicalRequestKey(rest)}`
 *       : undefined,
 * };
 * ```
 */
export interface DecisionCacheOptions {
  /**
   * The most decisions kept; past it the oldest entry is dropped first.
   * @default {10000}
   */
  maxEntries?: number;
  /**
   * Maps the request values to a cache key, or to `undefined` to decide the
   * request without the cache. Two requests that may get different answers
   * must never get the same key: a key function that returns the user's id
   * alone, for a model that matches on `r.sub.role`, would serve one user's
   * answer to another user with the same id but a new role.
   * @default {canonicalRequestKey}
   */
  key?: (rvals: readonly unknown[]) => string | undefined;
}

const MAX_DEPTH = 8;

/**
 * Encodes one value, or returns `undefined` when it cannot be encoded
 * safely. Every encoding starts with a type tag, so values of different
 * types never share an encoding.
 */
function encode(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Object.is(value, -0) ? "n-0" : `n${value}`;
    case "boolean":
      return value ? "t" : "f";
    case "undefined":
      return "u";
    case "bigint":
      return `b${value}`;
    case "object":
      return value === null ? "z" : encodeObject(value, depth);
    default:
      // Functions and symbols: their behaviour is not part of any key.
      return undefined;
  }
}

function encodeObject(value: object, depth: number): string | undefined {
  if (depth >= MAX_DEPTH) return undefined;
  const prototype = Object.getPrototypeOf(value);
  const isArray = Array.isArray(value);
  if (
    isArray
      ? prototype !== Array.prototype
      : prototype !== Object.prototype && prototype !== null
  ) {
    // Class instances, dates, maps, proxies of them: a matcher or a custom
    // function may read anything from them. Use a key function instead.
    return undefined;
  }
  if (Object.getOwnPropertySymbols(value).length !== 0) return undefined;
  const names = Object.getOwnPropertyNames(value);
  let out = isArray ? "[" : "{";
  for (const name of names) {
    const descriptor = Object.getOwnPropertyDescriptor(value, name);
    if (descriptor === undefined || !("value" in descriptor)) {
      return undefined; // a getter may answer differently each time
    }
    if (isArray && name === "length") continue;
    const encoded = encode(descriptor.value, depth + 1);
    if (encoded === undefined) return undefined;
    // Names are JSON strings: no name can run into the next one.
    out += `${JSON.stringify(name)}:${encoded},`;
  }
  if (isArray) out += `#${(value as unknown[]).length}`;
  return out + (isArray ? "]" : "}");
}

/**
 * Builds a cache key for a request that two requests share only when casbin
 * cannot tell them apart: strings, numbers, booleans, `null`, `undefined`,
 * bigints, and plain objects and arrays of those (own data properties, in
 * their order, at most 8 levels deep). Anything else (class instances,
 * functions, symbols, getters) makes the request uncachable: the result is
 * `undefined`.
 *
 * @param rvals The request values, as passed to `enforce`.
 * @returns The key, or `undefined` when the request must not be cached.
 *
 * @example Keys never collide across types or separators
 * ```ts
 * import { canonicalRequestKey } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * assert.notEqual(
 *   canonicalRequestKey(["a$$b", "c"]),
 *   canonicalRequestKey(["a", "b$$c"]),
 * );
 * assert.notEqual(canonicalRequestKey(["1"]), canonicalRequestKey([1]));
 * assert.equal(
 *   canonicalRequestKey([{ role: "editor" }, "post", "read"]),
 *   canonicalRequestKey([{ role: "editor" }, "post", "read"]),
 * );
 * assert.equal(canonicalRequestKey([new Date(0)]), undefined);
 * ```
 */
export function canonicalRequestKey(
  rvals: readonly unknown[],
): string | undefined {
  let out = "";
  for (let i = 0; i < rvals.length; i++) {
    const value = rvals[i];
    const encoded = typeof value === "string"
      ? JSON.stringify(value)
      : encode(value, 0);
    if (encoded === undefined) return undefined;
    out += encoded + ",";
  }
  return out;
}

/**
 * A bounded map from request keys to decisions, owned by one
 * {@linkcode IndexedEnforcer} and so by one casbin enforcer: a reload builds
 * a new enforcer, a new indexed enforcer and so an empty cache, and an
 * answer of the old policy can never be served after the swap.
 *
 * @example
 * ```ts
 * import { DecisionCache } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * const cache = new DecisionCache({ maxEntries: 2 });
 * const key = cache.keyOf(["alice", "post", "read"]);
 * assert.ok(key !== undefined);
 * cache.set(key, true);
 * assert.equal(cache.get(key), true);
 * ```
 */
export class DecisionCache {
  #entries: Map<string, boolean> = new Map();
  #maxEntries: number;
  #key: (rvals: readonly unknown[]) => string | undefined;

  /**
   * Creates an empty cache.
   *
   * @param options The size bound and the key function.
   */
  constructor(options: DecisionCacheOptions = {}) {
    const maxEntries = options.maxEntries ?? 10_000;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(
        `Cannot create the decision cache: maxEntries must be a positive integer, got ${
          String(maxEntries)
        }`,
      );
    }
    this.#maxEntries = maxEntries;
    this.#key = options.key ?? canonicalRequestKey;
  }

  /** The number of decisions held. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Computes the key of a request with the configured key function.
   *
   * @param rvals The request values.
   * @returns The key, or `undefined` when the request is not cached.
   */
  keyOf(rvals: readonly unknown[]): string | undefined {
    const key = this.#key(rvals);
    return typeof key === "string" ? key : undefined;
  }

  /**
   * Looks a decision up.
   *
   * @param key A key from {@linkcode DecisionCache.prototype.keyOf}.
   * @returns The decision, or `undefined` when none is held.
   */
  get(key: string): boolean | undefined {
    return this.#entries.get(key);
  }

  /**
   * Stores a decision, dropping the oldest one when the cache is full.
   *
   * @param key A key from {@linkcode DecisionCache.prototype.keyOf}.
   * @param decision The decision casbin returned.
   */
  set(key: string, decision: boolean): void {
    if (
      this.#entries.size >= this.#maxEntries && !this.#entries.has(key)
    ) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, decision);
  }

  /** Drops every decision. */
  clear(): void {
    this.#entries.clear();
  }
}
