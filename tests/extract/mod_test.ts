// The layout of src/extract that its users and contributors rely on: the
// entry point exports every public name, each folder is entered through its
// mod.ts, and no language folder reaches into another.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import * as extract from "../../src/extract/mod.ts";
import { EXTRACTORS } from "../../src/extract/registry.ts";

const ROOT = fileURLToPath(new URL("../../src/extract/", import.meta.url))
  .replace(/\/+$/, "");

const LANGUAGES = [
  "cpp",
  "csharp",
  "elixir",
  "go",
  "java",
  "javascript",
  "kotlin",
  "php",
  "python",
  "ruby",
  "rust",
];

/**
 * Exports of top-level files that are not part of the entry point, with
 * why: a seam for the scanner's own tests.
 */
const NOT_PUBLIC = new Set(["scanWithReader"]);

/** Every TypeScript file under src/extract, relative to it. */
async function sources(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const entries = await readdir(ROOT, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const full = `${entry.parentPath}/${entry.name}`;
    out.set(full.slice(ROOT.length + 1), await readFile(full, "utf8"));
  }
  return out;
}

const files = await sources();

/** The names a module exports (declarations and `export { ... }` lists). */
function exportedNames(text: string): string[] {
  const names: string[] = [];
  const declared =
    /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|class|type|interface|enum)\s+([A-Za-z_$][\w$]*)/gm;
  for (const m of text.matchAll(declared)) names.push(m[1]!);
  for (const m of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const item of m[1]!.split(",")) {
      const name = item.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop()
        ?.trim();
      if (name) names.push(name);
    }
  }
  return names;
}

/** The files a module imports or re-exports, relative to src/extract. */
function importsOf(path: string, text: string): string[] {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  const out: string[] = [];
  for (const m of text.matchAll(/\bfrom\s+"(\.[^"]+)"/g)) {
    const parts = dir === "" ? [] : dir.split("/");
    for (const segment of m[1]!.split("/")) {
      if (segment === ".." && parts.length > 0 && parts.at(-1) !== "..") {
        parts.pop();
      } else if (segment === "..") parts.push("..");
      else if (segment !== ".") parts.push(segment);
    }
    out.push(parts.join("/"));
  }
  return out;
}

function folderOf(path: string): string {
  return path.includes("/") ? path.slice(0, path.indexOf("/")) : "";
}

Deno.test("every export of a public top-level file of src/extract is in its mod.ts", () => {
  const entry = new Set(exportedNames(files.get("mod.ts")!));
  const missing: string[] = [];
  for (const [path, text] of files) {
    if (path.includes("/") || path.startsWith("_") || path === "mod.ts") {
      continue;
    }
    for (const name of exportedNames(text)) {
      if (!entry.has(name) && !NOT_PUBLIC.has(name)) {
        missing.push(`${path}: ${name}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

Deno.test("every registered extractor is exported from src/extract/mod.ts", () => {
  const exported = new Set<unknown>(Object.values(extract));
  for (const extractor of EXTRACTORS) {
    assert.ok(exported.has(extractor), extractor.name);
  }
  assert.equal(extract.EXTRACTORS, EXTRACTORS);
});

Deno.test("a folder of src/extract is entered only through its mod.ts", () => {
  const wrong: string[] = [];
  for (const [path, text] of files) {
    const from = folderOf(path);
    for (const target of importsOf(path, text)) {
      if (target.startsWith("../")) continue; // outside src/extract
      const to = folderOf(target);
      // `_syntax/`, `_value/`, `_port/`: private shared parts, by file
      if (to === "" || to === from || to.startsWith("_")) continue;
      if (target !== `${to}/mod.ts`) wrong.push(`${path} -> ${target}`);
    }
  }
  assert.deepEqual(wrong, []);
});

Deno.test("no language folder of src/extract imports another, and the shared parts import none", () => {
  const wrong: string[] = [];
  for (const [path, text] of files) {
    const from = folderOf(path);
    if (!LANGUAGES.includes(from) && !from.startsWith("_")) continue;
    for (const target of importsOf(path, text)) {
      const to = folderOf(target);
      if (to !== from && LANGUAGES.includes(to)) {
        wrong.push(`${path} -> ${target}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

Deno.test("every language and mechanism folder of src/extract has a mod.ts", () => {
  const folders = new Set(
    [...files.keys()].map(folderOf).filter((f) => f !== ""),
  );
  for (const folder of folders) {
    if (folder.startsWith("_")) continue;
    assert.ok(files.has(`${folder}/mod.ts`), folder);
  }
  for (const language of LANGUAGES) assert.ok(folders.has(language), language);
});
