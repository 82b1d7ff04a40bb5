// Runs the extractors over source files held in memory: no file system,
// so it also works in browsers and edge runtimes that can load WASM.
import type {
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "./extractor.ts";
import { EXTRACTORS } from "./registry.ts";
import { extractIsolated } from "./_extract_isolated.ts";

/**
 * Options for {@linkcode extractPorts}.
 *
 * @example
 * ```ts
 * import { type ExtractPortsOptions, javascriptExtractor } from "@portcullis/portcullis/extract";
 *
 * const options: ExtractPortsOptions = { extractors: [javascriptExtractor] };
 * ```
 */
export interface ExtractPortsOptions {
  /**
   * The extractors to run.
   * @default {EXTRACTORS}
   */
  extractors?: readonly LanguageExtractor[];
}

/**
 * Finds the ports of a set of source files (paths relative to one project
 * root, `/` separators) with every extractor that accepts them. Each
 * extractor sees all of its files at once, so prefixes and constants are
 * composed across files. A file an extractor throws on costs that file
 * only: an `error` diagnostic names it, and the extractor reads the other
 * files again without it.
 * The same port found by two extractors is listed once.
 *
 * @param files The files of one project.
 * @param options The extractors to run.
 * @returns The ports, in extractor order, and the diagnostics.
 *
 * @example Usage
 * ```ts
 * import { extractPorts } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const { ports } = await extractPorts([
 *   { path: "web/api.ts", text: 'export const load = () => fetch("/users");\n' },
 *   { path: "api/main.py", text: 'from fastapi import FastAPI\napp = FastAPI()\n\n@app.get("/users")\ndef users():\n    return []\n' },
 * ]);
 * assert.deepEqual(
 *   ports.map((p) => `${p.ref.role} ${p.ref.key}`).sort(),
 *   ["client GET /users", "server GET /users"],
 * );
 * ```
 */
export async function extractPorts(
  files: readonly SourceFile[],
  options: ExtractPortsOptions = {},
): Promise<ExtractResult> {
  const result: ExtractResult = { ports: [], diagnostics: [] };
  const seen = new Set<string>();
  for (const extractor of options.extractors ?? EXTRACTORS) {
    const mine = files.filter((file) => extractor.accepts(file.path));
    if (mine.length === 0) continue;
    const found = await extractIsolated(extractor, mine);
    result.diagnostics.push(...found.diagnostics);
    for (const port of found.ports) {
      const ref = port.ref;
      const unique = [
        port.owner.qualifiedName,
        ref.mechanism,
        ref.role,
        ref.key,
        ref.line,
        ref.col,
      ].join("\u0000");
      if (seen.has(unique)) continue;
      seen.add(unique);
      result.ports.push(port);
    }
  }
  return result;
}
