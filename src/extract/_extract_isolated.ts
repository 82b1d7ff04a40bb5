// Runs one extractor on a root's files so that a file it fails on costs
// that file only. Extractors read a root's files together (prefixes and
// constants across files), so a throw anywhere in one (parse, collection,
// emission, resolution) would lose every port of the language: instead the
// files are split into parts, and the failing parts again, until the
// failing files are found, and the extractor runs again on the others.
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "./extractor.ts";

/**
 * Parts a failing set of files is split into: few levels, so a file that
 * fails is read again few times (log16 of the files, 5 for 100,000).
 */
const FAN_OUT = 16;

/** Longest error message kept in a diagnostic, in characters. */
const MAX_MESSAGE = 500;

/** What {@linkcode extractIsolated} returns. */
export interface IsolatedResult extends ExtractResult {
  /** The files the extractor failed on: an `error` diagnostic each. */
  failedFiles: string[];
}

type Attempt = { result: ExtractResult } | { error: unknown };

async function attempt(
  extractor: LanguageExtractor,
  files: readonly SourceFile[],
): Promise<Attempt> {
  try {
    return { result: await extractor.extract(files) };
  } catch (error) {
    return { error };
  }
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}...` : text;
}

/**
 * Extracts the ports of `files` with `extractor`, isolating the files it
 * throws on. When the run on every file throws, the files are split in
 * {@linkcode FAN_OUT} parts (and each failing part again, down to single
 * files) to find those that throw on their own; each becomes an `error` diagnostic naming it, and the
 * extractor runs again on the rest, across files as usual. When no single
 * file is to blame, or the rest still throws, the ports of the parts that
 * did run are kept, with an `error` diagnostic: values across those parts
 * are not resolved.
 */
export async function extractIsolated(
  extractor: LanguageExtractor,
  files: readonly SourceFile[],
): Promise<IsolatedResult> {
  const whole = await attempt(extractor, files);
  if ("result" in whole) return { ...whole.result, failedFiles: [] };
  const failed = new Map<string, unknown>();
  const parts: ExtractResult[] = [];
  const split = async (
    subset: readonly SourceFile[],
    error: unknown,
  ): Promise<void> => {
    if (subset.length === 1) {
      failed.set(subset[0]!.path, error);
      return;
    }
    const count = Math.min(FAN_OUT, subset.length);
    for (let i = 0; i < count; i++) {
      const part = subset.slice(
        Math.floor(i * subset.length / count),
        Math.floor((i + 1) * subset.length / count),
      );
      const run = await attempt(extractor, part);
      if ("result" in run) parts.push(run.result);
      else await split(part, run.error);
    }
  };
  await split(files, whole.error);
  const diagnostics: ExtractDiagnostic[] = [];
  for (const [filePath, error] of failed) {
    diagnostics.push({
      filePath,
      severity: "error",
      message: `Cannot extract with ${extractor.name}: ${messageOf(error)}`,
    });
  }
  const rest = files.filter((file) => !failed.has(file.path));
  let together: Attempt = { error: whole.error };
  if (failed.size > 0 && rest.length > 0) {
    together = await attempt(extractor, rest);
  }
  if ("result" in together) {
    return {
      ports: together.result.ports,
      diagnostics: [...diagnostics, ...together.result.diagnostics],
      ...(together.result.gateways
        ? { gateways: together.result.gateways }
        : {}),
      ...(together.result.serviceFolders
        ? { serviceFolders: together.result.serviceFolders }
        : {}),
      failedFiles: [...failed.keys()],
    };
  }
  if (rest.length > 0) {
    diagnostics.push({
      filePath: "",
      severity: "error",
      message: `Cannot extract with ${extractor.name} across files: ${
        messageOf(together.error)
      } (its files were read in ${parts.length} separate parts)`,
    });
  }
  return {
    ports: parts.flatMap((part) => part.ports),
    diagnostics: [...diagnostics, ...parts.flatMap((part) => part.diagnostics)],
    gateways: parts.flatMap((part) => part.gateways ?? []),
    serviceFolders: parts.flatMap((part) => part.serviceFolders ?? []),
    failedFiles: [...failed.keys()],
  };
}
