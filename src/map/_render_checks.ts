// The checks of the options every renderer of a report takes (the scan's
// report, the diff): a known format, and a size limit a report can fit.

/**
 * The format the options name, `text` when they name none.
 *
 * @throws {RangeError} `Cannot render <what>: unknown format ...` for a
 * format not in `formats`.
 */
export function checkFormat<F extends string>(
  what: string,
  format: F | undefined,
  formats: readonly F[],
): F {
  const named = format ?? "text" as F;
  if (!formats.includes(named)) {
    throw new RangeError(
      `Cannot render ${what}: unknown format "${String(named)}"`,
    );
  }
  return named;
}

/**
 * Checks the size limit option `name`: none, or an integer from 1024.
 *
 * @throws {RangeError} `Cannot render <what>: <name> must be ...` otherwise.
 */
export function checkSizeLimit(
  what: string,
  name: string,
  limit: number | undefined,
): void {
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1024)) {
    throw new RangeError(
      `Cannot render ${what}: ${name} must be an integer from 1024, got ${
        String(limit)
      }`,
    );
  }
}
