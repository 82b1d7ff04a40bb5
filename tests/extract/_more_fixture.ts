// Test helpers for the Java, C#, Rust, PHP, Ruby, Elixir and queue
// extractor tests: load a fixture mini-project, summarize its ports.
import { readdir, readFile } from "node:fs/promises";
import assert from "node:assert/strict";
import fc from "fast-check";
import type {
  LanguageExtractor,
  SourceFile,
} from "../../src/extract/_extractor.ts";
import type { ExtractedPort } from "../../src/extract/types.ts";

const FIXTURES = new URL("../fixtures/extract/", import.meta.url);

/** Every file under `tests/fixtures/extract/<dir>/`, paths relative to it. */
export async function loadFixture(dir: string): Promise<SourceFile[]> {
  const root = new URL(`${dir}/`, FIXTURES);
  const files: SourceFile[] = [];
  async function visit(url: URL, prefix: string): Promise<void> {
    const entries = await readdir(url, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.isDirectory()) {
        await visit(new URL(`${entry.name}/`, url), `${prefix}${entry.name}/`);
      } else {
        const text = await readFile(new URL(entry.name, url), "utf8");
        files.push({ path: `${prefix}${entry.name}`, text });
      }
    }
  }
  await visit(root, "");
  files.sort((a, b) => a.path.localeCompare(b.path));
  return files;
}

/** The files of a fixture whose path starts with `prefix`. */
export function only(files: SourceFile[], prefix: string): SourceFile[] {
  return files.filter((f) => f.path.startsWith(prefix));
}

/**
 * One line per port, `<file>:<line> <role> <key>`, sorted: what the
 * fixture tests compare against.
 */
export function summarize(ports: readonly ExtractedPort[]): string[] {
  return ports
    .map((p) => `${p.filePath}:${p.ref.line} ${p.ref.role} ${p.ref.key}`)
    .sort(compareLines);
}

function compareLines(a: string, b: string): number {
  const [fa, la] = splitLine(a);
  const [fb, lb] = splitLine(b);
  return fa === fb
    ? (la === lb ? (a < b ? -1 : a > b ? 1 : 0) : la - lb)
    : fa < fb
    ? -1
    : 1;
}

function splitLine(s: string): [string, number] {
  const space = s.indexOf(" ");
  const colon = s.lastIndexOf(":", space);
  return [s.slice(0, colon), Number(s.slice(colon + 1, space))];
}

/** The port at a file and line (the first when several share it). */
export function portAt(
  ports: readonly ExtractedPort[],
  file: string,
  line: number,
): ExtractedPort | undefined {
  return ports.find((p) => p.filePath.endsWith(file) && p.ref.line === line);
}

/**
 * Checks that an extractor never rejects on malformed input made of the
 * language's own tokens: it returns ports and diagnostics, and each port has
 * a 1-based position and a confidence in (0, 1].
 */
export async function assertRobust(
  extractor: LanguageExtractor,
  path: string,
  tokens: readonly string[],
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(...tokens), { maxLength: 40 }),
      async (parts) => {
        const result = await extractor.extract([{
          path,
          text: parts.join(""),
        }]);
        for (const port of result.ports) {
          assert.ok(port.ref.line >= 1 && port.ref.col >= 1);
          assert.ok(port.ref.confidence > 0 && port.ref.confidence <= 1);
        }
        for (const d of result.diagnostics) assert.equal(d.filePath, path);
      },
    ),
    { numRuns: 60 },
  );
}
