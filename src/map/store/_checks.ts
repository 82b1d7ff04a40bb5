// The checks of the store's arguments: repository names, limits and
// confidence floors, each a RangeError with a clear message.

const DEFAULT_LIMIT = 100_000;
// Letters, digits and the punctuation of repository names and paths
// (`org/web`, `payments-py`, `team.api@v2`), at most 200 characters.
const REPO_NAME = /^[A-Za-z0-9][A-Za-z0-9._\-/@:+]{0,199}$/;

/** `repo` if it is a valid repository name; a RangeError otherwise. */
export function checkRepo(repo: string, action: string): string {
  if (typeof repo !== "string" || !REPO_NAME.test(repo)) {
    throw new RangeError(
      `Cannot ${action}: a repository name is 1 to 200 letters, digits and . _ - / @ : +, starting with a letter or digit, got ${
        JSON.stringify(String(repo).slice(0, 100))
      }`,
    );
  }
  return repo;
}

/** A query's row limit (its default when undefined). */
export function checkLimit(limit: number | undefined, action: string): number {
  const value = limit ?? DEFAULT_LIMIT;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(
      `Cannot ${action}: limit must be an integer from 1, got ${String(value)}`,
    );
  }
  return value;
}

/** A confidence floor from 0 to 1 (0 when undefined). */
export function checkConfidence(
  value: number | undefined,
  action: string,
): number {
  const floor = value ?? 0;
  if (typeof floor !== "number" || !(floor >= 0 && floor <= 1)) {
    throw new RangeError(
      `Cannot ${action}: minConfidence must be a number from 0 to 1, got ${
        String(floor)
      }`,
    );
  }
  return floor;
}
