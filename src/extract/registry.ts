// The extractors a scan runs, in order. Register an extractor by importing
// it and adding it to the list (one import line, one list line).
import type { LanguageExtractor } from "./_extractor.ts";
import { javascriptExtractor } from "./javascript.ts";
import { openapiExtractor } from "./openapi.ts";
import { javaExtractor } from "./java.ts";
import { csharpExtractor } from "./csharp.ts";
import { rustExtractor } from "./rust.ts";
import { queueExtractor } from "./queue.ts";
import { phpExtractor } from "./php.ts";
import { rubyExtractor } from "./ruby.ts";
import { elixirExtractor } from "./elixir.ts";
import { pythonExtractor } from "./python.ts";
import { goExtractor } from "./go.ts";
import { grpcExtractor } from "./grpc.ts";
import { temporalExtractor } from "./temporal.ts";

/**
 * Every extractor a scan dispatches files to, in order.
 *
 * @example
 * ```ts
 * import { EXTRACTORS } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const forPython = EXTRACTORS.filter((e) => e.accepts("app/main.py"));
 * assert.ok(forPython.length > 0);
 * ```
 */
export const EXTRACTORS: readonly LanguageExtractor[] = [
  // one line per extractor, e.g. `pythonExtractor,`
  javascriptExtractor,
  openapiExtractor,
  javaExtractor,
  csharpExtractor,
  rustExtractor,
  queueExtractor,
  phpExtractor,
  rubyExtractor,
  elixirExtractor,
  pythonExtractor,
  goExtractor,
  grpcExtractor,
  temporalExtractor,
];
