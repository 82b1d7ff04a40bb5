// Structural equality and canonical keys for JSON-like values.

/** Deep equality of JSON values; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (
    typeof a !== "object" || typeof b !== "object" || a === null || b === null
  ) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      if (!jsonEqual(a[i], b[i])) return false;
    }
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let count = 0;
  for (const key in ao) {
    if (!Object.hasOwn(ao, key)) continue;
    if (!Object.hasOwn(bo, key) || !jsonEqual(ao[key], bo[key])) return false;
    count++;
  }
  for (const key in bo) if (Object.hasOwn(bo, key)) count--;
  return count === 0;
}

/** A canonical string for a JSON value: equal values give equal keys. */
export function canonicalKey(value: unknown): string {
  if (value === null || typeof value !== "object") {
    return value === undefined ? "u" : JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      out += canonicalKey(value[i]);
    }
    return out + "]";
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) out += ",";
    const key = keys[i]!;
    out += JSON.stringify(key) + ":" + canonicalKey(record[key]);
  }
  return out + "}";
}
