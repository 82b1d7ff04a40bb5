import assert from "node:assert/strict";
import fc from "fast-check";
import type { Node as WasmNode } from "web-tree-sitter";
import {
  type CompactNode,
  type CompactTree,
  findAll,
  namedChildren,
  ownerOf,
  parseCompact,
  positionOf,
  spanOf,
  stringParts,
} from "../../../src/extract/_syntax/compact_tree.ts";
import {
  type GrammarName,
  loadLanguage,
  parseSource,
} from "../../../src/extract/_syntax/parser.ts";
import { ownerOf as wasmOwnerOf } from "../../../src/extract/_syntax/owner.ts";
import {
  findAll as wasmFindAll,
  parseDiagnostic,
  stringParts as wasmStringParts,
} from "../../../src/extract/_syntax/tree.ts";

const FIXTURES = new URL("../../fixtures/extract/", import.meta.url);

const GRAMMARS: ReadonlyArray<[RegExp, GrammarName]> = [
  [/\.py$/, "python"],
  [/\.go$/, "go"],
  [/\.tsx$/, "tsx"],
  [/\.[cm]?ts$/, "typescript"],
  [/\.[cm]?jsx?$/, "javascript"],
  [/\.java$/, "java"],
  [/\.cs$/, "c-sharp"],
];

async function fixtureFiles(): Promise<
  Array<{ path: string; text: string; grammar: GrammarName }>
> {
  const out: Array<{ path: string; text: string; grammar: GrammarName }> = [];
  const visit = async (dir: URL, rel: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${rel}${entry.name}`;
      if (entry.isDirectory) {
        await visit(new URL(`${entry.name}/`, dir), `${path}/`);
        continue;
      }
      const grammar = GRAMMARS.find(([pattern]) => pattern.test(path))?.[1];
      if (!grammar) continue;
      out.push({
        path,
        text: await Deno.readTextFile(new URL(entry.name, dir)),
        grammar,
      });
    }
  };
  for (const area of ["python", "go", "grpc", "temporal"]) {
    await visit(new URL(`${area}/`, FIXTURES), `${area}/`);
  }
  out.sort((a, b) => a.path < b.path ? -1 : 1);
  return out;
}

/** `type@start-end` of a node, comparable across both trees. */
function sig(node: WasmNode | CompactNode | null | undefined): string {
  return node ? `${node.type}@${node.startIndex}-${node.endIndex}` : "-";
}

/** The WASM nodes a compact tree keeps: named ones and those under a field. */
function keptWasmNodes(root: WasmNode): WasmNode[] {
  const out: WasmNode[] = [];
  const cursor = root.walk();
  try {
    for (;;) {
      const kept = cursor.nodeIsNamed || cursor.currentFieldId !== 0;
      if (kept || cursor.currentNode.childCount > 0) {
        out.push(cursor.currentNode);
      }
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return out;
      }
    }
  } finally {
    cursor.delete();
  }
}

function partsSig(
  parts: Array<string | WasmNode | CompactNode> | undefined,
): string {
  return parts
    ? JSON.stringify(parts.map((p) => typeof p === "string" ? p : sig(p)))
    : "none";
}

/** Asserts that every kept node reads the same through both interfaces. */
async function assertSameTree(
  grammar: GrammarName,
  text: string,
  label: string,
): Promise<void> {
  const compact = await parseCompact(grammar, { path: label, text });
  const tree = await parseSource(grammar, text);
  try {
    const fields = (await loadLanguage(grammar)).fields.filter(
      (f): f is string => typeof f === "string",
    );
    const wasm = keptWasmNodes(tree.rootNode);
    assert.equal(compact.size, wasm.length, `${label}: node count`);
    for (let i = 0; i < wasm.length; i++) {
      const w = wasm[i]!;
      const c = compact.node(i);
      const where = `${label}: node ${i} ${sig(w)}`;
      assert.equal(sig(c), sig(w), where);
      assert.equal(c.text, w.text, where);
      assert.equal(c.isNamed, w.isNamed, where);
      assert.deepEqual(c.startPosition, w.startPosition, where);
      assert.deepEqual(c.endPosition, w.endPosition, where);
      assert.equal(sig(c.parent), sig(w.parent), where);
      assert.deepEqual(
        namedChildren(c).map(sig),
        w.namedChildren.map(sig),
        where,
      );
      assert.equal(c.namedChildCount, w.namedChildCount, where);
      for (const field of fields) {
        assert.equal(
          sig(c.childForFieldName(field)),
          sig(w.childForFieldName(field)),
          `${where} field ${field}`,
        );
        assert.deepEqual(
          c.childrenForFieldName(field).map(sig),
          w.childrenForFieldName(field).map(sig),
          `${where} fields ${field}`,
        );
      }
      if (w.isNamed) {
        assert.deepEqual(
          ownerOf(c, label, grammar),
          wasmOwnerOf(w, label, grammar),
          where,
        );
        assert.equal(
          partsSig(stringParts(c)),
          partsSig(wasmStringParts(w)),
          where,
        );
      }
    }
    assert.deepEqual(
      compact.syntaxProblem,
      parseDiagnostic(tree.rootNode, ""),
      `${label}: syntax problem`,
    );
  } finally {
    tree.delete();
  }
}

Deno.test("compact trees read like the WASM trees on every fixture of the Python, Go, gRPC and Temporal extractors", async () => {
  const files = await fixtureFiles();
  assert.ok(files.length > 40, "fixtures found");
  for (const file of files) {
    await assertSameTree(file.grammar, file.text, file.path);
  }
});

Deno.test("compact trees keep positions for non-ASCII text, CRLF lines, raw strings and syntax errors", async () => {
  await assertSameTree(
    "python",
    '# café ☕ 😀\r\nPATH = r"/a\\d" + f"/é/{x}"\r\n\r\n@app.get("/ü/😀")\r\ndef f(a, b=1):\r\n    return g(a, "x" "y")\r\n',
    "unicode.py",
  );
  await assertSameTree(
    "go",
    'package main\n\n// ünïcode 😀\nfunc main() {\n\tr.Get(`/a/😀`, h)\n\tx := "é" + y\n}\n',
    "unicode.go",
  );
  await assertSameTree("python", "def f(:\n    x = (1,\n", "broken.py");
  await assertSameTree("go", "package main\nfunc f( {\n", "broken.go");
  await assertSameTree("python", "", "empty.py");
});

Deno.test("compact trees match WASM trees on arbitrary Python and Go token soup", async () => {
  const pyTokens = [
    "x",
    " = ",
    '"/a"',
    "f'{x}/b'",
    "(",
    ")",
    ", ",
    "\n",
    "    ",
    "def g(a):",
    "@app.get(",
    "import os",
    "+",
    "%",
    "[1, 2]",
    "é",
    "😀",
    "#c\n",
    "\r\n",
  ];
  const goTokens = [
    "package p\n",
    "func f() {",
    "}",
    "x := ",
    '"/a"',
    "`raw`",
    "r.Get(",
    ")",
    ", ",
    "\n",
    "+",
    "é",
    "// c\n",
  ];
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(...pyTokens), { maxLength: 30 }),
      fc.array(fc.constantFrom(...goTokens), { maxLength: 30 }),
      async (py, go) => {
        await assertSameTree("python", py.join(""), "soup.py");
        await assertSameTree("go", go.join(""), "soup.go");
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("findAll, positionOf and spanOf on compact trees agree with the WASM helpers", async () => {
  const text =
    'import requests\n\ndef f():\n    requests.get("/a")\n    g(h("/b"))\n';
  const compact: CompactTree = await parseCompact("python", {
    path: "a.py",
    text,
  });
  const tree = await parseSource("python", text);
  try {
    const types = new Set(["call", "string"]);
    const mine = findAll(compact.rootNode, types);
    const theirs = wasmFindAll(tree.rootNode, types);
    assert.deepEqual(mine.map(sig), theirs.map(sig));
    assert.deepEqual(mine.map((n) => positionOf(n)), [
      { line: 4, col: 5 },
      { line: 4, col: 18 },
      { line: 5, col: 5 },
      { line: 5, col: 7 },
      { line: 5, col: 9 },
    ]);
    assert.deepEqual(spanOf(mine[0]!), {
      startLine: 4,
      startCol: 5,
      endLine: 4,
      endCol: 23,
    });
  } finally {
    tree.delete();
  }
});

Deno.test("a file object is parsed once per grammar while its text is unchanged", async () => {
  const file = { path: "a.py", text: "x = 1\n" };
  const first = await parseCompact("python", file);
  assert.equal(await parseCompact("python", file), first);
  // the same text in another object is parsed again
  assert.notEqual(await parseCompact("python", { ...file }), first);
  // another grammar gets its own tree
  const asGo = await parseCompact("go", file);
  assert.notEqual(asGo, first);
  assert.equal(await parseCompact("go", file), asGo);
  // changed text: a new tree for the new text
  file.text = "y = 2\n";
  const second = await parseCompact("python", file);
  assert.notEqual(second, first);
  assert.equal(second.rootNode.text, "y = 2\n");
});

Deno.test("the gRPC and Temporal extractors give the same ports from trees shared with the language extractors", async () => {
  const { pythonExtractor } = await import(
    "../../../src/extract/python/mod.ts"
  );
  const { goExtractor } = await import("../../../src/extract/go/mod.ts");
  const { grpcExtractor } = await import("../../../src/extract/grpc/mod.ts");
  const { temporalExtractor } = await import(
    "../../../src/extract/temporal/mod.ts"
  );
  const all = await fixtureFiles();
  const files = all
    .filter((f) => f.path.startsWith("grpc/") || f.path.startsWith("temporal/"))
    .map(({ path, text }) => ({ path, text }));
  for await (const entry of Deno.readDir(new URL("grpc/proto/", FIXTURES))) {
    if (!entry.name.endsWith(".proto")) continue;
    const path = `grpc/proto/${entry.name}`;
    files.push({
      path,
      text: await Deno.readTextFile(new URL(path, FIXTURES)),
    });
  }
  const fresh = () => files.map((f) => ({ ...f }));
  const keys = (
    ports: ReadonlyArray<
      { filePath: string; ref: { key: string; line: number } }
    >,
  ): string[] =>
    ports.map((p) => `${p.filePath}:${p.ref.line} ${p.ref.key}`).sort();
  // shared: the language extractors parse first, then gRPC and Temporal
  await pythonExtractor.extract(
    files.filter((f) => pythonExtractor.accepts(f.path)),
  );
  await goExtractor.extract(files.filter((f) => goExtractor.accepts(f.path)));
  for (const extractor of [grpcExtractor, temporalExtractor]) {
    const shared = await extractor.extract(
      files.filter((f) => extractor.accepts(f.path)),
    );
    const own = await extractor.extract(
      fresh().filter((f) => extractor.accepts(f.path)),
    );
    assert.ok(own.ports.length > 0, `${extractor.name} finds ports`);
    assert.deepEqual(keys(shared.ports), keys(own.ports), extractor.name);
  }
});
