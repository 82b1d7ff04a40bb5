// The short name of a file-system error (`ENOENT`, `EACCES`...) for messages.

/** The error's `code` (`ENOENT`...), else its message. */
export function errorCode(error: unknown): string {
  if (error && typeof error === "object" && "code" in error) {
    return String((error as { code: unknown }).code);
  }
  return error instanceof Error ? error.message : String(error);
}
