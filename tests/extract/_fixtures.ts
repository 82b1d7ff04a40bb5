// Loads a fixture mini-project from tests/fixtures/extract/ as the source
// files an extractor receives.
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { SourceFile } from "../../src/extract/_extractor.ts";
import type { ExtractedPort } from "../../src/extract/types.ts";

/** Absolute path of a fixture directory. */
export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`../fixtures/extract/${name}`, import.meta.url));
}

/** Every file under a fixture directory that `accepts` takes. */
export async function loadFixture(
  name: string,
  accepts: (path: string) => boolean,
): Promise<SourceFile[]> {
  const root = fixturePath(name);
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

/** `role key file:line`, sorted: the exact ports of a fixture. */
export function portLines(ports: readonly ExtractedPort[]): string[] {
  return ports
    .map((p) => `${p.ref.role} ${p.ref.key} ${p.filePath}:${p.ref.line}`)
    .sort();
}
