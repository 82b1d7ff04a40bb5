/**
 * Reads a claim from a JWT payload by path, following own properties only.
 *
 * @module
 */

/**
 * Splits a claim path into segments: a string is a dot-separated path
 * (`"realm_access.role"`), an array lists the segments literally, for claim
 * names that contain dots (`["https://example.com/claims", "role"]`).
 *
 * @param path The claim path.
 * @returns The segments, frozen.
 * @throws {TypeError} When the path or a segment is empty.
 */
export function claimPath(path: string | readonly string[]): readonly string[] {
  const segments = typeof path === "string" ? path.split(".") : [...path];
  if (
    segments.length === 0 ||
    segments.some((s) => typeof s !== "string" || s === "")
  ) {
    throw new TypeError(
      `Cannot use claim path ${
        JSON.stringify(path)
      }: segments must be non-empty strings`,
    );
  }
  return Object.freeze(segments);
}

/**
 * Follows `segments` through `value`, reading own properties only (so
 * `__proto__` or `constructor` never reach the prototype chain).
 *
 * @param value The JWT payload or any nested value.
 * @param segments The path from {@linkcode claimPath}.
 * @returns The value at the path, or `undefined`.
 */
export function readClaim(
  value: unknown,
  segments: readonly string[],
): unknown {
  let current = value;
  for (const segment of segments) {
    if (
      current === null || typeof current !== "object" ||
      !Object.hasOwn(current, segment)
    ) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}
