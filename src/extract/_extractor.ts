// The contract between the scanner and the per-language extractors.
import type { ExtractedPort } from "./types.ts";

/** A file handed to an extractor: path relative to the scan root. */
export interface SourceFile {
  /** Relative to the scan root, `/` separators. */
  path: string;
  /** The whole text, decoded as UTF-8. */
  text: string;
}

/** A problem with one file; the scan goes on. */
export interface ExtractDiagnostic {
  /** Relative file path. */
  filePath: string;
  /** `error`: the file was skipped; `warning`: partly understood. */
  severity: "error" | "warning";
  /** Short message, e.g. `Cannot parse: syntax error at 12:4`. */
  message: string;
}

/** What an extractor returns for the files of its language. */
export interface ExtractResult {
  /** Every port found. */
  ports: ExtractedPort[];
  /** Files it could not (fully) understand. */
  diagnostics: ExtractDiagnostic[];
}

/**
 * One language (or document format) extractor. It receives all files of the
 * scan root that it `accepts`, so it can resolve prefixes and constants
 * across files (FastAPI `include_router`, Go router groups, imported
 * constants) before it emits ports.
 */
export interface LanguageExtractor {
  /** Short name used in reports: `typescript`, `python`, `openapi`... */
  name: string;
  /** Whether a relative path belongs to this extractor. */
  accepts(path: string): boolean;
  /** Finds the ports in the given files. */
  extract(files: readonly SourceFile[]): Promise<ExtractResult>;
}
