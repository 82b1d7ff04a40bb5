// Turns zod issues into ValidationIssue lists with readable paths.
import type { ValidationIssue } from "./errors.ts";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Formats a path as `$.a[0].b` (root `$`) or `a[0].b` (root ""). */
export function formatPath(
  path: readonly PropertyKey[],
  root: string,
): string {
  let out = root;
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (typeof part === "string" && IDENTIFIER.test(part)) {
      out += out === "" ? part : `.${part}`;
    } else out += `[${JSON.stringify(String(part))}]`;
  }
  return out === "" ? "(root)" : out;
}

/** The shape of a zod issue that this module reads. */
interface ZodLikeIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** Converts zod issues, keeping their order. */
export function toIssues(
  issues: readonly ZodLikeIssue[],
  root: string,
): ValidationIssue[] {
  return issues.map((issue) => ({
    path: formatPath(issue.path, root),
    message: issue.message,
  }));
}
