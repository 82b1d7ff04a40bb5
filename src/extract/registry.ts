// The extractors a scan runs, in order. Register an extractor by importing
// it and adding it to the list (one import line, one list line).
import type { LanguageExtractor } from "./extractor.ts";
import { javascriptExtractor } from "./javascript/mod.ts";
import { openapiExtractor } from "./openapi/mod.ts";
import { javaExtractor } from "./java/mod.ts";
import { kotlinExtractor } from "./kotlin/mod.ts";
import { csharpExtractor } from "./csharp/mod.ts";
import { cppExtractor } from "./cpp/mod.ts";
import { rustExtractor } from "./rust/mod.ts";
import { queueExtractor } from "./queue/mod.ts";
import { phpExtractor } from "./php/mod.ts";
import { rubyExtractor } from "./ruby/mod.ts";
import { elixirExtractor } from "./elixir/mod.ts";
import { pythonExtractor } from "./python/mod.ts";
import { goExtractor } from "./go/mod.ts";
import { grpcExtractor } from "./grpc/mod.ts";
import { temporalExtractor } from "./temporal/mod.ts";
import { deployExtractor } from "./deploy/mod.ts";
import { htmlExtractor } from "./html/mod.ts";

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
  kotlinExtractor,
  csharpExtractor,
  cppExtractor,
  rustExtractor,
  queueExtractor,
  phpExtractor,
  rubyExtractor,
  elixirExtractor,
  pythonExtractor,
  goExtractor,
  grpcExtractor,
  temporalExtractor,
  deployExtractor,
  htmlExtractor,
];
