// Client URLs relative to a base URL the scan does not know (`users/1`
// called on an HttpClient whose BaseAddress is set elsewhere).
import { CONFIDENCE } from "./confidence.ts";
import { clientPath, type PathResult } from "./path.ts";
import { concat, literal, type Value } from "./value.ts";

/**
 * The path a relative client URL calls under a base the scan does not know:
 * read under `/`, and only partly known (`partial`).
 */
export function relativePath(url: Value): PathResult | undefined {
  const path = clientPath(concat([literal("/"), url]));
  return path && { ...path, confidence: CONFIDENCE.partial };
}
