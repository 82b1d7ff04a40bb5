// Reads the files a walk listed, within two budgets: bytes per file and
// bytes per root (files kept in path order until the next one would not
// fit). Binary and generated files are left out.
import { stat } from "node:fs/promises";
import type { Buffer } from "node:buffer";
import type { SourceFile } from "./extractor.ts";
import { errorCode } from "./_fs_error.ts";
import type { Candidate, ScanProblem } from "./_walk.ts";

/** Generated files by name: protobuf/gRPC stubs, minified bundles. */
const GENERATED_FILE =
  /(?:\.pb\.go|\.pb\.gw\.go|_grpc\.pb\.go|_pb2\.pyi?|_pb2_grpc\.pyi?|_pb\.js|_pb\.d\.ts|_grpc_pb\.js|_grpc_pb\.d\.ts|\.pb\.ts|\.min\.js|\.min\.mjs|\.bundle\.js|\.g\.cs|\.designer\.cs|\.Designer\.cs|_generated\.go)$|(?:^|\/)zz_generated[^/]*\.go$/;

/** Go's marker for generated files, on a line before the package clause. */
const GO_GENERATED = /^\/\/ Code generated .* DO NOT EDIT\.$/m;

const CONCURRENCY = 16;

/** Whether a file's name marks it as generated code. */
export function isGeneratedPath(path: string): boolean {
  return GENERATED_FILE.test(path);
}

function isGenerated(path: string, text: string): boolean {
  if (GENERATED_FILE.test(path)) return true;
  if (path.endsWith(".go")) {
    // the marker must come before the package clause
    const head = text.slice(0, Math.max(0, text.indexOf("\npackage ")) + 1);
    return GO_GENERATED.test(head);
  }
  return false;
}

/**
 * Why a scan left a file out: a NUL byte (`binary`), over `maxFileBytes`
 * (`too-large`), or generated code by name or marker (`generated`).
 *
 * @example
 * ```ts
 * import type { SkipReason } from "@portcullis/portcullis/extract";
 *
 * const reason: SkipReason = "generated";
 * ```
 */
export type SkipReason = "binary" | "too-large" | "generated";

/** What {@linkcode readFiles} needs. */
export interface ReadOptions {
  maxFileBytes: number;
  maxBytes: number;
  readText: (absolute: string | Buffer) => Promise<string>;
  report: (problem: ScanProblem) => void;
  /** Called for each file left out: binary, too large or generated. */
  skip: (path: string, reason: SkipReason) => void;
  /** Called after each file read. */
  progress: (done: number, total: number) => void;
}

/** Runs `task` on indices 0..count-1, at most {@linkcode CONCURRENCY} at once. */
async function eachConcurrently(
  count: number,
  task: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await task(next++);
  };
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, count) }, worker),
  );
}

/**
 * Reads the candidates (in their order) that fit the budgets: the source
 * files, and the bytes they hold in all.
 */
export async function readFiles(
  candidates: readonly Candidate[],
  options: ReadOptions,
): Promise<{ files: SourceFile[]; bytes: number }> {
  const sizes = new Array<number>(candidates.length).fill(-1);
  await eachConcurrently(candidates.length, async (i) => {
    const candidate = candidates[i]!;
    try {
      sizes[i] = (await stat(candidate.absolute)).size;
    } catch (error) {
      options.report({
        filePath: candidate.path,
        severity: "error",
        message: `Cannot read: ${errorCode(error)}`,
      });
    }
  });
  const chosen: number[] = [];
  let bytes = 0;
  for (let i = 0; i < candidates.length; i++) {
    const size = sizes[i]!;
    if (size < 0) continue;
    if (size > options.maxFileBytes) {
      options.report({
        filePath: candidates[i]!.path,
        severity: "warning",
        message:
          `Cannot scan: file is larger than ${options.maxFileBytes} bytes (raise maxFileBytes, --max-file-bytes)`,
        budget: "maxFileBytes",
      });
      options.skip(candidates[i]!.path, "too-large");
      continue;
    }
    if (bytes + size > options.maxBytes) {
      const left = sizes.slice(i).filter((s) => s >= 0).length;
      options.report({
        filePath: "",
        severity: "warning",
        message:
          `Cannot scan every file: the source files exceed ${options.maxBytes} bytes, so ${left} files from "${
            candidates[i]!.path
          }" on (in path order) are not read (raise maxBytesPerRoot, --max-bytes-per-root)`,
        budget: "maxBytesPerRoot",
      });
      break;
    }
    bytes += size;
    chosen.push(i);
  }
  const texts = new Array<string | undefined>(chosen.length);
  let done = 0;
  await eachConcurrently(chosen.length, async (k) => {
    const candidate = candidates[chosen[k]!]!;
    try {
      const text = await options.readText(candidate.absolute);
      if (text.includes("\u0000")) options.skip(candidate.path, "binary");
      else if (isGenerated(candidate.path, text)) {
        options.skip(candidate.path, "generated");
      } else texts[k] = text;
    } catch (error) {
      options.report({
        filePath: candidate.path,
        severity: "error",
        message: `Cannot read: ${errorCode(error)}`,
      });
    }
    options.progress(++done, chosen.length);
  });
  const files: SourceFile[] = [];
  let kept = 0;
  for (let k = 0; k < chosen.length; k++) {
    const text = texts[k];
    if (text === undefined) continue;
    files.push({ path: candidates[chosen[k]!]!.path, text });
    kept += sizes[chosen[k]!]!;
  }
  return { files, bytes: kept };
}
