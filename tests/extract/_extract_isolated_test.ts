import assert from "node:assert/strict";
import { extractIsolated } from "../../src/extract/_extract_isolated.ts";
import type {
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../../src/extract/extractor.ts";
import type { ExtractedPort } from "../../src/extract/types.ts";

/**
 * A made-up route format read across files: `prefix /api` in one file
 * applies to the routes of every file. A file holding `!` makes it throw,
 * as a parser given input it cannot handle does; `needs other.routes`
 * makes it throw unless that other file is read with it.
 */
function routesExtractor(calls: string[][] = []): LanguageExtractor {
  return {
    name: "routes",
    accepts: (path) => path.endsWith(".routes"),
    extract(files: readonly SourceFile[]): Promise<ExtractResult> {
      calls.push(files.map((file) => file.path));
      const prefix =
        files.flatMap((file) =>
          file.text.match(/^prefix (\S+)$/m)?.[1] ?? []
        )[0] ?? "";
      const ports: ExtractedPort[] = [];
      for (const file of files) {
        const lines = file.text.split("\n");
        lines.forEach((line, index) => {
          if (line.includes("!")) {
            throw new SyntaxError(`Unexpected "!" at ${index + 1}:1`);
          }
          const needs = line.match(/^needs (\S+)$/)?.[1];
          if (needs && files.every((f) => f.path !== needs)) {
            throw new ReferenceError(`${needs} is not read`);
          }
          const path = line.match(/^GET (\S+)$/)?.[1];
          if (!path) return;
          ports.push({
            ref: {
              mechanism: "http",
              role: "server",
              key: `GET ${prefix}${path}`,
              line: index + 1,
              col: 1,
              confidence: 1,
              detail: {},
            },
            owner: {
              kind: "module",
              name: file.path,
              qualifiedName: file.path,
              filePath: file.path,
            },
            filePath: file.path,
          });
        });
      }
      return Promise.resolve({ ports, diagnostics: [] });
    },
  };
}

const keys = (ports: readonly ExtractedPort[]): string[] =>
  ports.map((port) => `${port.filePath} ${port.ref.key}`).sort();

Deno.test("extractIsolated() runs an extractor once on every file when it does not throw", async () => {
  const calls: string[][] = [];
  const result = await extractIsolated(routesExtractor(calls), [
    { path: "a.routes", text: "prefix /api\nGET /a" },
    { path: "b.routes", text: "GET /b" },
  ]);
  assert.deepEqual(calls, [["a.routes", "b.routes"]]);
  assert.deepEqual(keys(result.ports), [
    "a.routes GET /api/a",
    "b.routes GET /api/b",
  ]);
  assert.deepEqual(result.diagnostics, []);
  assert.deepEqual(result.failedFiles, []);
});

Deno.test("extractIsolated() costs a failing file only that file, and still reads the others together", async () => {
  const files: SourceFile[] = [
    { path: "a.routes", text: "prefix /api\nGET /a" },
    { path: "b.routes", text: "GET /b\nGET /!" },
    { path: "c.routes", text: "GET /c" },
    { path: "d.routes", text: "GET /d" },
    { path: "e.routes", text: "!" },
  ];
  const result = await extractIsolated(routesExtractor(), files);
  // the prefix of a.routes still applies to c and d: read together again
  assert.deepEqual(keys(result.ports), [
    "a.routes GET /api/a",
    "c.routes GET /api/c",
    "d.routes GET /api/d",
  ]);
  assert.deepEqual(result.failedFiles, ["b.routes", "e.routes"]);
  assert.deepEqual(result.diagnostics, [
    {
      filePath: "b.routes",
      severity: "error",
      message: 'Cannot extract with routes: Unexpected "!" at 2:1',
    },
    {
      filePath: "e.routes",
      severity: "error",
      message: 'Cannot extract with routes: Unexpected "!" at 1:1',
    },
  ]);
});

Deno.test("extractIsolated() keeps the ports of the parts when files fail only together", async () => {
  // x.routes and y.routes throw only when read together
  const extractor = routesExtractor();
  const inner = extractor.extract;
  extractor.extract = (files) =>
    files.some((f) => f.path === "x.routes") &&
      files.some((f) => f.path === "y.routes")
      ? Promise.reject(new RangeError("Maximum call stack size exceeded"))
      : inner(files);
  const result = await extractIsolated(extractor, [
    { path: "w.routes", text: "GET /w" },
    { path: "x.routes", text: "GET /x" },
    { path: "y.routes", text: "GET /y" },
  ]);
  assert.deepEqual(keys(result.ports), [
    "w.routes GET /w",
    "x.routes GET /x",
    "y.routes GET /y",
  ]);
  assert.deepEqual(result.failedFiles, []);
  assert.equal(result.diagnostics.length, 1);
  assert.equal(result.diagnostics[0]!.filePath, "");
  assert.equal(result.diagnostics[0]!.severity, "error");
  assert.match(
    result.diagnostics[0]!.message,
    /^Cannot extract with routes across files: Maximum call stack size exceeded \(its files were read in \d+ separate parts\)$/,
  );
});

Deno.test("extractIsolated() reports every file when each one fails, and a long message cut", async () => {
  const result = await extractIsolated(routesExtractor(), [
    { path: "a.routes", text: "!".repeat(10) },
    { path: "b.routes", text: "needs " + "z".repeat(2000) },
  ]);
  assert.deepEqual(result.ports, []);
  assert.deepEqual(result.failedFiles, ["a.routes", "b.routes"]);
  assert.ok(result.diagnostics[1]!.message.length < 600);
  assert.match(result.diagnostics[1]!.message, /z\.\.\.$/);
});

Deno.test("extractIsolated() finds a failing file among many in a few runs, reading each file a few times", async () => {
  const calls: string[][] = [];
  const files: SourceFile[] = Array.from({ length: 1000 }, (_, i) => ({
    path: `f${String(i).padStart(4, "0")}.routes`,
    text: i === 617 ? "GET /!" : `GET /r${i}`,
  }));
  const result = await extractIsolated(routesExtractor(calls), files);
  assert.deepEqual(result.failedFiles, ["f0617.routes"]);
  assert.equal(result.ports.length, 999);
  // the whole, 16 parts on each of 3 levels (1000 -> 62 -> 4 -> 1), the rest
  assert.ok(calls.length <= 1 + 16 * 3 + 1, `${calls.length} runs`);
  const reads = new Map<string, number>();
  for (const path of calls.flat()) reads.set(path, (reads.get(path) ?? 0) + 1);
  assert.ok(Math.max(...reads.values()) <= 5);
});
