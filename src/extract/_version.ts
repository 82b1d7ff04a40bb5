// The package's version, as `portcullis-scan --version` prints it (a test
// keeps it equal to deno.json's).

/** The version of this package. */
export const VERSION = "0.1.0";
