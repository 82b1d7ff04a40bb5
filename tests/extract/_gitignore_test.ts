import assert from "node:assert/strict";
import fc from "fast-check";
import ignore from "ignore";
import {
  gitignoreVerdict,
  parseGitignore,
} from "../../src/extract/_gitignore.ts";

/** Whether `path` is ignored, its directories checked first as a walk does. */
function ignored(text: string, path: string, directory = false): boolean {
  const rules = parseGitignore(text);
  const segments = path.split("/");
  for (let depth = 1; depth <= segments.length; depth++) {
    const last = depth === segments.length;
    const verdict = gitignoreVerdict(
      rules,
      segments.slice(0, depth),
      0,
      last ? directory : true,
    );
    if (verdict === true && !last) return true;
    if (last) return verdict === true;
  }
  return false;
}

Deno.test("gitignoreVerdict() follows gitignore(5)", () => {
  const cases: Array<[string, string, boolean, boolean]> = [
    // pattern(s), path, is a directory, ignored
    ["foo", "foo", false, true],
    ["foo", "a/b/foo", false, true],
    ["foo", "foobar", false, false],
    ["/foo", "foo", false, true],
    ["/foo", "a/foo", false, false],
    ["foo/", "foo", false, false],
    ["foo/", "foo", true, true],
    ["foo/", "a/foo/x.ts", false, true],
    ["a/b", "a/b", false, true],
    ["a/b", "x/a/b", false, false],
    ["*.ts", "src/deep/x.ts", false, true],
    ["src/*.ts", "src/x.ts", false, true],
    ["src/*.ts", "src/d/x.ts", false, false],
    ["?.ts", "a.ts", false, true],
    ["?.ts", "ab.ts", false, false],
    ["[ab].ts", "b.ts", false, true],
    ["[!ab].ts", "b.ts", false, false],
    ["[a-c]x", "bx", false, true],
    ["[[:digit:]]x", "7x", false, true],
    ["[]]x", "]x", false, true],
    ["[ab", "a", false, false],
    ["[z-a]", "z", false, true],
    ["[a-]x", "-x", false, true],
    ["foo\\", "foo", false, false],
    ["foo\\\\", "foo\\", false, true],
    ["**/foo", "foo", false, true],
    ["**/foo", "a/b/foo", false, true],
    ["a/**/b", "a/b", false, true],
    ["a/**/b", "a/x/y/b", false, true],
    ["a/**/b", "x/a/b", false, false],
    ["a/**", "a", true, false],
    ["a/**", "a/x", false, true],
    ["a/**", "a/x/y", false, true],
    ["/**", "x/y", false, true],
    ["**", "x", false, true],
    ["a**b", "axyb", false, true],
    ["a**b", "ax/yb", false, false],
    ["*.log\n!keep.log", "keep.log", false, false],
    ["*.log\n!keep.log", "other.log", false, true],
    ["!keep.log\n*.log", "keep.log", false, true],
    ["\\#x", "#x", false, true],
    ["#x", "#x", false, false],
    ["\\!x", "!x", false, true],
    ["x\\ ", "x ", false, true],
    ["x  ", "x", false, true],
    ["\\*", "*", false, true],
    ["\\*", "a", false, false],
    ["Foo", "foo", false, false],
    ["foo\r\nbar", "bar", false, true],
    ["\uFEFFfoo", "foo", false, true],
  ];
  for (const [text, path, directory, expected] of cases) {
    assert.equal(
      ignored(text, path, directory),
      expected,
      `${JSON.stringify(text)} on ${path}${directory ? "/" : ""}`,
    );
  }
});

Deno.test("gitignoreVerdict() reads a nested file relative to its directory", () => {
  const rules = parseGitignore("/build\n*.gen.ts\n");
  assert.equal(gitignoreVerdict(rules, ["sub", "build"], 1, true), true);
  assert.equal(
    gitignoreVerdict(rules, ["sub", "x", "build"], 1, true),
    undefined,
  );
  assert.equal(
    gitignoreVerdict(rules, ["sub", "x", "a.gen.ts"], 1, false),
    true,
  );
});

Deno.test("gitignoreVerdict() stays linear on nested globstars over a deep path", () => {
  // a regular expression built from this pattern backtracks exponentially
  const text = "a/**/".repeat(10) + "Q\n" + "**/a/".repeat(30) + "Q\n" +
    "*a".repeat(40) + "Q\n";
  const rules = parseGitignore(text);
  for (const depth of [60, 600, 2000]) {
    const segments = Array.from({ length: depth }, () => "a");
    assert.equal(gitignoreVerdict(rules, segments, 0, true), undefined);
    segments.push("Q");
    assert.equal(gitignoreVerdict(rules, segments, 0, false), true);
  }
  const name = ["a".repeat(250)];
  assert.equal(gitignoreVerdict(rules, name, 0, false), undefined);
});

// Small patterns and paths over a tiny alphabet, compared with the `ignore`
// package (case-sensitive), which follows git's wildmatch.
const segmentArb = fc.constantFrom("a", "b", "ab", "ba", "a.b");
const patternSegmentArb = fc.constantFrom(
  "a",
  "b",
  "*",
  "?",
  "a*",
  "*b",
  "[ab]",
  "[!a]*",
  "**",
  "a?",
);
const patternArb = fc.record({
  negated: fc.boolean(),
  lead: fc.boolean(),
  segments: fc.array(patternSegmentArb, { minLength: 1, maxLength: 3 }),
  directory: fc.boolean(),
}).map((p) =>
  `${p.negated ? "!" : ""}${p.lead ? "/" : ""}${p.segments.join("/")}${
    p.directory ? "/" : ""
  }`
);

Deno.test("gitignoreVerdict() agrees with the ignore package (property)", () => {
  fc.assert(
    fc.property(
      fc.array(patternArb, { minLength: 1, maxLength: 4 }),
      fc.array(segmentArb, { minLength: 1, maxLength: 4 }),
      fc.boolean(),
      (patterns, segments, directory) => {
        const text = patterns.join("\n");
        const path = segments.join("/");
        const reference = ignore({ ignorecase: false }).add(text)
          .ignores(directory ? `${path}/` : path);
        assert.equal(
          ignored(text, path, directory),
          reference,
          `${JSON.stringify(text)} on ${path}${directory ? "/" : ""}`,
        );
      },
    ),
    { numRuns: 3000 },
  );
});
