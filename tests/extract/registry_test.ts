// Robustness properties every registered extractor keeps, whatever the
// scanned repository holds: broken, truncated or scrambled source of its own
// language never makes it reject, and every port it returns is well formed
// (a valid boundary reference, in one of the given files, on a line of it),
// the same for the same files in any order.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { BoundaryRefSchema } from "../../src/boundary/types.ts";
import { httpBoundaryKey } from "../../src/boundary/http_path.ts";
import type {
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../../src/extract/extractor.ts";
import { EXTRACTORS } from "../../src/extract/registry.ts";

const FIXTURES = fileURLToPath(
  new URL("../fixtures/extract/", import.meta.url),
);

/** The files of each fixture project, paths relative to the project. */
async function fixtureProjects(): Promise<SourceFile[][]> {
  const projects = new Map<string, SourceFile[]>();
  const entries = await readdir(FIXTURES, {
    recursive: true,
    withFileTypes: true,
  });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = `${entry.parentPath}/${entry.name}`;
    const inRoot = full.slice(FIXTURES.length).replace(/^\/+/, "");
    const slash = inRoot.indexOf("/");
    // the project-relative path keeps what the extractors read from paths
    // (routes/, app/api/, Controllers/)
    const file = {
      path: inRoot.slice(slash + 1),
      text: await readFile(full, "utf8"),
    };
    const name = inRoot.slice(0, slash);
    projects.set(name, [...projects.get(name) ?? [], file]);
  }
  return [...projects.keys()].sort().map((name) =>
    projects.get(name)!.sort((a, b) => a.path < b.path ? -1 : 1)
  );
}

const projects = await fixtureProjects();

/** Whether a result holds anything: ports, or what links through deployments. */
function found(result: ExtractResult): boolean {
  return result.ports.length > 0 || (result.gateways?.length ?? 0) > 0 ||
    (result.serviceFolders?.length ?? 0) > 0;
}

/**
 * The files the extractor accepts of each fixture project it finds ports
 * (or gateway routes, service folders) in: the text its mutations start
 * from.
 */
async function productiveProjects(
  extractor: LanguageExtractor,
): Promise<SourceFile[][]> {
  const out: SourceFile[][] = [];
  for (const project of projects) {
    const files = project.filter((f) => extractor.accepts(f.path));
    const result = await extractor.extract(files);
    if (found(result)) out.push(files);
  }
  return out;
}

/** Words, strings, numbers and punctuation runs of a text, in order. */
function tokensOf(text: string): string[] {
  return text.match(/"[^"\n]*"|'[^'\n]*'|\w+|\s+|[^\w\s]/g) ?? [];
}

/** A file's text cut short, with a slice removed or repeated, or soup. */
function mutated(
  text: string,
  tokens: readonly string[],
): fc.Arbitrary<string> {
  const at = fc.double({ min: 0, max: 1, noNaN: true });
  return fc.oneof(
    { arbitrary: fc.constant(text), weight: 3 },
    at.map((a) => text.slice(0, Math.floor(text.length * a))),
    fc.tuple(at, at, fc.boolean()).map(([a, b, repeat]) => {
      const from = Math.floor(text.length * Math.min(a, b));
      const to = Math.floor(text.length * Math.max(a, b));
      return repeat
        ? text.slice(0, to) + text.slice(from)
        : text.slice(0, from) + text.slice(to);
    }),
    fc.array(fc.constantFrom(...tokens), { maxLength: 80 }).map((t) =>
      t.join("")
    ),
  );
}

/**
 * Up to eight files of one fixture project the extractor finds ports in,
 * each kept, cut, spliced or replaced by a soup of the language's tokens.
 */
function fileSets(
  productive: readonly SourceFile[][],
): fc.Arbitrary<SourceFile[]> {
  const tokens = [
    ...new Set(productive.flat().flatMap((f) => tokensOf(f.text))),
  ];
  return fc.constantFrom(...productive)
    .chain((files) =>
      files.length <= 8 ? fc.constant(files) : fc.subarray(files, {
        minLength: 1,
        maxLength: 8,
      })
    )
    .chain((files) =>
      fc.tuple(
        ...files.map((f) =>
          mutated(f.text, tokens).map((text) => ({ path: f.path, text }))
        ),
      )
    );
}

/**
 * Each port's line and key, and each gateway route's, sorted: what must
 * not depend on file order.
 */
function summary(result: ExtractResult): string[] {
  return [
    ...result.ports.map((p) =>
      `${p.filePath}:${p.ref.line}:${p.ref.col} ${p.ref.mechanism} ${p.ref.role} ${p.ref.key} ${p.ref.confidence}`
    ),
    ...(result.gateways ?? []).map((r) =>
      `${r.filePath}:${r.line} ${r.method} ${r.path} -> ${r.target}`
    ),
  ].sort();
}

function assertWellFormed(
  result: ExtractResult,
  files: readonly SourceFile[],
): void {
  const lines = new Map(files.map((f) => [f.path, f.text.split("\n").length]));
  for (const port of result.ports) {
    const parsed = BoundaryRefSchema.safeParse(port.ref);
    assert.ok(parsed.success, JSON.stringify(port.ref));
    const count = lines.get(port.filePath);
    assert.ok(count !== undefined, `port in an unknown file ${port.filePath}`);
    assert.ok(port.ref.line <= count, `line ${port.ref.line} of ${count}`);
    assert.ok(port.ref.confidence > 0, JSON.stringify(port.ref));
    assert.ok(port.owner.name.length > 0, JSON.stringify(port.owner));
    if (port.ref.mechanism === "http") {
      const space = port.ref.key.indexOf(" ");
      const method = port.ref.key.slice(0, space);
      const path = port.ref.key.slice(space + 1);
      assert.ok(path.startsWith("/"), port.ref.key);
      assert.equal(httpBoundaryKey(method, path), port.ref.key);
    }
  }
  for (const d of result.diagnostics) {
    assert.ok(lines.has(d.filePath), `diagnostic of ${d.filePath}`);
  }
  for (const route of result.gateways ?? []) {
    const count = lines.get(route.filePath);
    assert.ok(
      count !== undefined,
      `route in an unknown file ${route.filePath}`,
    );
    assert.ok(route.line >= 1 && route.line <= count, `line ${route.line}`);
    assert.ok(route.path.startsWith("/"), route.path);
  }
}

for (const extractor of EXTRACTORS) {
  Deno.test(`${extractor.name} extractor keeps its ports well formed on broken input, in any file order`, async () => {
    const productive = await productiveProjects(extractor);
    assert.ok(
      productive.length > 0,
      `no fixture under tests/fixtures/extract/ has a ${extractor.name} port or route`,
    );
    await fc.assert(
      fc.asyncProperty(fileSets(productive), async (files) => {
        const result = await extractor.extract(files);
        assertWellFormed(result, files);
        const reversed = await extractor.extract([...files].reverse());
        assert.deepEqual(summary(reversed), summary(result));
      }),
      { numRuns: 40 },
    );
  });
}

Deno.test("every registered extractor has a distinct name", () => {
  const names = EXTRACTORS.map((e: LanguageExtractor) => e.name);
  assert.equal(new Set(names).size, names.length, names.join(", "));
});
