import assert from "node:assert/strict";
import {
  type GrammarName,
  parseSource,
} from "../../../src/extract/_syntax/parser.ts";
import {
  findAll,
  parseDiagnostic,
  positionOf,
  STRING_TYPES,
  stringParts,
  stringValue,
  unescapeString,
  walk,
} from "../../../src/extract/_syntax/tree.ts";

/** The values of every outermost string literal of a source, in order. */
async function strings(
  grammar: GrammarName,
  text: string,
): Promise<Array<string | undefined>> {
  const tree = await parseSource(grammar, text);
  try {
    const out: Array<string | undefined> = [];
    walk(tree.rootNode, (node) => {
      if (!STRING_TYPES.has(node.type)) return true;
      out.push(stringValue(node));
      return false;
    });
    return out;
  } finally {
    tree.delete();
  }
}

Deno.test("stringValue() reads plain literals and refuses interpolated ones in every grammar", async (t) => {
  const cases: Array<[GrammarName, string, Array<string | undefined>]> = [
    ["typescript", 'a = "x\\n"; b = `t`; c = `a${b}`;', [
      "x\n",
      "t",
      undefined,
    ]],
    ["python", 'a = "x\\t"\nb = r"\\d"\nc = f"{a}/b"\nd = "a" "b"\n', [
      "x\t",
      "\\d",
      undefined,
      "ab",
    ]],
    ["go", 'package p\nvar a = "x\\ty"\nvar b = `\\raw`\n', ["x\ty", "\\raw"]],
    ["java", 'class A { String a = "x\\"y"; }', ['x"y']],
    [
      "c-sharp",
      'class A { string a = "x"; string b = @"q""r"; string c = $"{a}"; }',
      ["x", 'q"r', undefined],
    ],
    ["rust", 'fn f() { let a = "x\\u{41}"; let b = r#"y"#; }', ["xA", "y"]],
    ["php", '<?php $a = "x"; $b = \'y\'; $c = "a$b";', ["x", "y", undefined]],
    ["ruby", 'a = "x"\nb = \'y\'\nc = "a#{b}"\n', ["x", "y", undefined]],
  ];
  for (const [grammar, text, expected] of cases) {
    await t.step(grammar, async () => {
      assert.deepEqual(await strings(grammar, text), expected);
    });
  }
});

Deno.test("stringParts() splits a template into literal text and expressions", async () => {
  const tree = await parseSource(
    "typescript",
    "const u = `/users/${id}/posts`;",
  );
  try {
    const [template] = findAll(tree.rootNode, new Set(["template_string"]));
    const parts = stringParts(template!)!;
    assert.deepEqual(
      parts.map((p) => typeof p === "string" ? p : `<${p.type}:${p.text}>`),
      ["/users/", "<identifier:id>", "/posts"],
    );
    assert.deepEqual(positionOf(template!), { line: 1, col: 11 });
  } finally {
    tree.delete();
  }
});

Deno.test("walk() visits in source order and skips children when told", async () => {
  const tree = await parseSource("javascript", "f(g(1), h(2));");
  try {
    const calls: string[] = [];
    walk(tree.rootNode, (node) => {
      if (node.type === "call_expression") calls.push(node.text);
    });
    assert.deepEqual(calls, ["f(g(1), h(2))", "g(1)", "h(2)"]);
    const outer: string[] = [];
    walk(tree.rootNode, (node) => {
      if (node.type !== "call_expression") return true;
      outer.push(node.text);
      return false;
    });
    assert.deepEqual(outer, ["f(g(1), h(2))"]);
  } finally {
    tree.delete();
  }
});

Deno.test("parseDiagnostic() locates the first syntax error", async () => {
  const tree = await parseSource(
    "python",
    "def ok():\n    pass\n\ndef broken(:\n    pass\n",
  );
  try {
    const problem = parseDiagnostic(tree.rootNode, "a.py");
    assert.equal(problem?.severity, "warning");
    assert.match(problem!.message, /^Cannot fully parse: .* at 4:\d+$/);
  } finally {
    tree.delete();
  }
  const clean = await parseSource("python", "x = 1\n");
  try {
    assert.equal(parseDiagnostic(clean.rootNode, "b.py"), undefined);
  } finally {
    clean.delete();
  }
});

Deno.test("unescapeString() decodes C-like escapes", () => {
  assert.equal(unescapeString("a\\nb\\x41\\u0042\\u{43}\\q"), "a\nbABCq");
  assert.equal(unescapeString("plain"), "plain");
});
