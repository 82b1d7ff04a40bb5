// Test helper of the JavaScript/TypeScript extractor tests: the server
// ports of some source files, as `portLines`, with no diagnostics.
import assert from "node:assert/strict";
import { javascriptExtractor } from "../../../src/extract/javascript/mod.ts";
import type { SourceFile } from "../../../src/extract/extractor.ts";
import { portLines } from "../_fixtures.ts";

/** The server ports the extractor finds in `files`, one line each. */
export async function serverLines(files: SourceFile[]): Promise<string[]> {
  const { ports, diagnostics } = await javascriptExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  return portLines(ports.filter((p) => p.ref.role === "server"));
}
