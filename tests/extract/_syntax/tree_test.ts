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

Deno.test("parseDiagnostic() takes valid code the grammars lack for valid, and a file of errors for unread", async (t) => {
  const diagnostic = async (grammar: GrammarName, text: string) => {
    const tree = await parseSource(grammar, text);
    try {
      return parseDiagnostic(tree.rootNode, "f");
    } finally {
      tree.delete();
    }
  };
  await t.step("variance annotations on type parameters", async () => {
    for (const grammar of ["typescript", "tsx"] as const) {
      for (
        const text of [
          "interface P<in T, out U, in out V> { f(t: T): U }",
          "class C<in out T extends Record<string, number>> { m() {} }",
          "type F<const out T,> = () => T;",
          "interface Q<out T extends object = {}, in U = unknown> {}",
          "function f<in T>(t: T) {}",
        ]
      ) {
        assert.equal(await diagnostic(grammar, text), undefined, text);
      }
    }
  });
  await t.step("reserved words as module export names", async () => {
    for (const grammar of ["javascript", "typescript"] as const) {
      for (
        const text of [
          "const _null = 1;\nexport { _null as null, a as true };",
          "import { null as n, true as t } from './a';",
        ]
      ) {
        assert.equal(await diagnostic(grammar, text), undefined, text);
      }
    }
  });
  await t.step("real errors next to them are still found", async () => {
    const problem = await diagnostic(
      "typescript",
      "interface P<in T> {}\nconst x = a < in b;\n",
    );
    assert.equal(problem?.severity, "warning");
    assert.match(problem!.message, /^Cannot fully parse: syntax error at 2:/);
    assert.equal(
      (await diagnostic("javascript", "export { a as null b };"))?.severity,
      "warning",
    );
  });
  await t.step(
    "nothing parsed is an error, a file of comments is clean",
    async () => {
      for (
        const [grammar, text] of [
          ["python", "}}} ))) ]]] @@@ {{{\n"],
          ["typescript", "}}} ))) ]]] @@@ {{{\n"],
          ["go", "}}} ))) ]]] {{{\n"],
        ] as const
      ) {
        assert.deepEqual(await diagnostic(grammar, text), {
          filePath: "f",
          severity: "error",
          message: "Cannot parse: syntax error at 1:1, nothing could be read",
        });
      }
      assert.equal(await diagnostic("python", "# only a comment\n"), undefined);
      assert.equal(await diagnostic("python", ""), undefined);
    },
  );
});

Deno.test("unescapeString() decodes C-like escapes", () => {
  assert.equal(unescapeString("a\\nb\\x41\\u0042\\u{43}\\q"), "a\nbABCq");
  assert.equal(unescapeString("plain"), "plain");
});
