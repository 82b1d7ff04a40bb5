// Test helpers shared by the extractor tests: load a fixture mini-project
// from tests/fixtures/extract/ as the source files an extractor receives,
// and summarize the ports it finds.
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import fc from "fast-check";
import type {
  LanguageExtractor,
  SourceFile,
} from "../../src/extract/extractor.ts";
import type { ExtractedPort } from "../../src/extract/types.ts";

/** Absolute path of a fixture directory. */
export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`../fixtures/extract/${name}`, import.meta.url));
}

/**
 * Every file under `tests/fixtures/extract/<name>/` that `accepts` takes
 * (all of them by default), paths relative to it, sorted by path.
 */
export async function loadFixture(
  name: string,
  accepts: (path: string) => boolean = () => true,
): Promise<SourceFile[]> {
  const root = fixturePath(name).replace(/\/+$/, "");
  const files: SourceFile[] = [];
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = `${entry.parentPath}/${entry.name}`;
    const path = full.slice(root.length + 1);
    if (!accepts(path)) continue;
    files.push({ path, text: await readFile(full, "utf8") });
  }
  files.sort((a, b) => a.path < b.path ? -1 : 1);
  return files;
}

/** The files of a fixture whose path starts with `prefix`. */
export function only(files: SourceFile[], prefix: string): SourceFile[] {
  return files.filter((f) => f.path.startsWith(prefix));
}

/** `role key file:line`, sorted: the exact ports of a fixture. */
export function portLines(ports: readonly ExtractedPort[]): string[] {
  return ports
    .map((p) => `${p.ref.role} ${p.ref.key} ${p.filePath}:${p.ref.line}`)
    .sort();
}

/**
 * `<file>:<line> <role> <key> <confidence>`, sorted as strings: the exact
 * ports of a fixture with how sure the extractor is of each.
 */
export function portSummary(ports: readonly ExtractedPort[]): string[] {
  return ports.map((p) =>
    `${p.filePath}:${p.ref.line} ${p.ref.role} ${p.ref.key} ${p.ref.confidence}`
  ).sort();
}

/**
 * One line per port, `<file>:<line> <role> <key>`, sorted by file, then by
 * line number: what the fixture tests compare against.
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
