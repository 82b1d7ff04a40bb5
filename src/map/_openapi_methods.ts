// The HTTP methods an OpenAPI path item names operations by, for the
// OpenAPI reader (src/extract/openapi) and writer (map/openapi.ts). Private:
// each package bundles it.

/** The operation keys of an OpenAPI path item. */
export const OPERATION_METHODS: ReadonlySet<string> = new Set([
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
]);
