// Turns zod issues into ValidationIssue lists with readable paths.
import type { ValidationIssue } from "./errors.ts";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Longest key shown in a path; longer ones are cut. */
const KEY_LENGTH = 100;

/** Formats a path as `$.a[0].b` (root `$`) or `a[0].b` (root ""). */
export function formatPath(
  path: readonly PropertyKey[],
  root: string,
): string {
  let out = root;
  for (const part of path) {
    if (typeof part === "number") {
      out += `[${part}]`;
      continue;
    }
    const key = String(part);
    if (key.length <= KEY_LENGTH && IDENTIFIER.test(key)) {
      out += out === "" ? key : `.${key}`;
    } else {
      const shown = key.length > KEY_LENGTH
        ? `${key.slice(0, KEY_LENGTH)}...`
        : key;
      out += `[${JSON.stringify(shown)}]`;
    }
  }
  return out === "" ? "(root)" : out;
}

/** The shape of a zod issue that this module reads. */
interface ZodLikeIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * Converts zod issues, keeping their order; `prefix` is the path of the
 * value that was validated.
 */
export function toIssues(
  issues: readonly ZodLikeIssue[],
  root: string,
  prefix: readonly PropertyKey[] = [],
): ValidationIssue[] {
  return issues.map((issue) => ({
    path: formatPath(
      prefix.length === 0 ? issue.path : [...prefix, ...issue.path],
      root,
    ),
    message: issue.message,
  }));
}
