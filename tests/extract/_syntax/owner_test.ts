import assert from "node:assert/strict";
import {
  type GrammarName,
  parseSource,
} from "../../../src/extract/_syntax/parser.ts";
import { moduleOwner, ownerOf } from "../../../src/extract/_syntax/owner.ts";
import { STRING_TYPES, walk } from "../../../src/extract/_syntax/tree.ts";

/** The qualified name and kind of the owner of the string literal "here". */
async function ownerOfHere(
  grammar: GrammarName,
  text: string,
): Promise<[string, string]> {
  const tree = await parseSource(grammar, text);
  try {
    let found: [string, string] | undefined;
    walk(tree.rootNode, (node) => {
      if (found) return false;
      if (STRING_TYPES.has(node.type) && node.text.includes("here")) {
        const owner = ownerOf(node, "f.src", grammar);
        found = [owner.qualifiedName, owner.kind];
        return false;
      }
    });
    assert.ok(found, "no string literal with 'here'");
    return found;
  } finally {
    tree.delete();
  }
}

Deno.test("ownerOf() names the enclosing function, method or class per grammar", async (t) => {
  const cases: Array<[GrammarName, string, [string, string]]> = [
    ["typescript", 'class A { m() { f("here"); } }', ["f.src::A.m", "method"]],
    ["typescript", 'export const load = async () => fetch("here");', [
      "f.src::load",
      "function",
    ]],
    ["typescript", 'function outer() { const inner = () => "here"; }', [
      "f.src::outer.inner",
      "function",
    ]],
    ["javascript", 'exports.list = function () { return "here"; };', [
      "f.src::list",
      "function",
    ]],
    ["typescript", 'f("here");', ["f.src", "module"]],
    ["python", 'class A:\n    def m(self):\n        return "here"\n', [
      "f.src::A.m",
      "method",
    ]],
    ["python", '@app.get("/")\ndef index():\n    return "here"\n', [
      "f.src::index",
      "function",
    ]],
    ["go", 'package p\nfunc (s *Server) Get() { f("here") }\n', [
      "f.src::Server.Get",
      "method",
    ]],
    ["go", 'package p\nfunc Run() { f("here") }\n', ["f.src::Run", "function"]],
    ["java", 'class A { void m() { f("here"); } }', ["f.src::A.m", "method"]],
    ["c-sharp", 'class A { void M() { F("here"); } }', [
      "f.src::A.M",
      "method",
    ]],
    ["rust", 'impl Api for S { fn get(&self) { f("here"); } }', [
      "f.src::S.get",
      "method",
    ]],
    ["php", '<?php class A { function m() { f("here"); } }', [
      "f.src::A.m",
      "method",
    ]],
    ["ruby", 'class A\n  def m\n    f("here")\n  end\nend\n', [
      "f.src::A.m",
      "method",
    ]],
  ];
  for (const [grammar, text, expected] of cases) {
    await t.step(`${grammar}: ${expected[0]}`, async () => {
      assert.deepEqual(await ownerOfHere(grammar, text), expected);
    });
  }
});

Deno.test("ownerOf() gives the owner's span and moduleOwner() the file", async () => {
  const tree = await parseSource(
    "typescript",
    "\nfunction f() {\n  return 1;\n}\n",
  );
  try {
    const [fn] = tree.rootNode.namedChildren;
    assert.deepEqual(ownerOf(fn!, "src/a.ts", "typescript"), {
      kind: "function",
      name: "f",
      qualifiedName: "src/a.ts::f",
      filePath: "src/a.ts",
      span: { startLine: 2, startCol: 1, endLine: 4, endCol: 2 },
    });
  } finally {
    tree.delete();
  }
  assert.deepEqual(moduleOwner("src/a.ts"), {
    kind: "module",
    name: "a.ts",
    qualifiedName: "src/a.ts",
    filePath: "src/a.ts",
  });
});
