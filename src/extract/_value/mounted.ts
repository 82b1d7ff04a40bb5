// A route's path under the prefix of what mounts it (an app, router, group
// or blueprint), marked composed when the prefix adds to it.
import { joinPaths } from "./path.ts";
import { composed, isEmpty, type Value } from "./value.ts";

/**
 * The path of a route under a prefix: the two joined, and marked composed
 * (resolved from elsewhere) unless the prefix is empty.
 */
export function underPrefix(prefix: Value, path: Value): Value {
  const joined = joinPaths(prefix, path);
  return isEmpty(prefix) ? joined : composed(joined);
}
