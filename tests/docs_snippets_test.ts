// The code blocks of README.md and docs/*.md (see scripts/_doc_snippets.ts):
// every TypeScript or JavaScript block is covered by a test or marked
// untested with a reason; the Deno snippets run, each in its own process in
// a directory holding the example model and policy, with the hidden checks
// after them; the Deno snippets and the type-checked ones pass `deno check`
// with the project's compiler options. The Node snippets run against the
// npm packages in scripts/smoke_npm.ts.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  DOC_PAGES,
  docBlocks,
  docSnippets,
  snippetCode,
  uncoveredBlocks,
} from "../scripts/_doc_snippets.ts";

const root = new URL("../", import.meta.url);
const decoder = new TextDecoder();

/** Writes `code` to a module inside the project, so that deno.json's
 * imports and the package's own name (@portcullis/portcullis) resolve as
 * in user code. */
async function snippetFile(
  dir: string,
  name: string,
  code: string,
): Promise<string> {
  const file = join(dir, name);
  await Deno.writeTextFile(file, code);
  return file;
}

Deno.test("docBlocks() reads each block and the test comment after it", () => {
  const page = [
    "# Page",
    "",
    "```ts",
    "const a = 1;",
    "```",
    "",
    "<!-- test: deno",
    "declare const b: number;",
    "// <snippet>",
    "console.log(a + b);",
    "-->",
    "",
    "```sh",
    "deno task start",
    "```",
    "",
    "- a list item:",
    "  ```js",
    "  f();",
    "  ```",
    "  <!-- untested: needs a browser -->",
    "",
    "````md",
    "```ts",
    "inner();",
    "```",
    "````",
    "<!-- check: deno -->",
  ].join("\n");
  const blocks = docBlocks(page);
  assert.deepEqual(
    blocks.map(({ line, lang, test }) => ({ line, lang, test })),
    [
      { line: 3, lang: "ts", test: "deno" },
      { line: 13, lang: "sh", test: undefined },
      { line: 18, lang: "js", test: "untested" },
      { line: 23, lang: "md", test: "check" },
    ],
  );
  assert.equal(blocks[2]!.body, "f();\n");
  assert.equal(blocks[2]!.hidden, "needs a browser");
  assert.equal(blocks[3]!.body, "```ts\ninner();\n```\n");
  assert.equal(
    snippetCode(blocks[0]!),
    "declare const b: number;\nconst a = 1;\n\n// The test of this snippet:\n" +
      "\nconsole.log(a + b);\n",
  );
});

Deno.test("uncoveredBlocks() names each code block with no test", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      join(dir, "page.md"),
      [
        "```ts",
        "covered();",
        "```",
        "<!-- test: deno -->",
        "",
        "```ts",
        "uncovered();",
        "```",
        "",
        "Text.",
        "",
        "```js",
        "noReason();",
        "```",
        "<!-- untested: -->",
        "",
        "```text",
        "not code",
        "```",
      ].join("\n"),
    );
    assert.deepEqual(
      await uncoveredBlocks(new URL(`file://${dir}/`), ["page.md"]),
      [
        "page.md:6: no test comment",
        'page.md:12: "untested" without a reason',
      ],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every code block of README.md and docs/*.md is tested", async () => {
  assert.ok(DOC_PAGES.includes("README.md"));
  assert.ok(DOC_PAGES.includes("docs/install.md"));
  const uncovered = await uncoveredBlocks(root, DOC_PAGES);
  assert.deepEqual(
    uncovered,
    [],
    `Follow each block with <!-- test: deno|node -->, <!-- check: deno --> ` +
      `or <!-- untested: <reason> --> (see scripts/_doc_snippets.ts)`,
  );
});

const run = await docSnippets(root, DOC_PAGES, "deno");
const typed = [...run, ...await docSnippets(root, DOC_PAGES, "check")];

Deno.test("the Deno snippets of the documentation type-check", async () => {
  const dir = await Deno.makeTempDir({
    dir: join(root.pathname, "tests"),
    prefix: "_snippets_",
  });
  try {
    const files = await Promise.all(
      typed.map((snippet, i) =>
        snippetFile(dir, `snippet_${i}.ts`, snippet.code)
      ),
    );
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", ...files],
      cwd: root.pathname,
      stdout: "null",
      stderr: "piped",
    }).output();
    let message = decoder.decode(stderr);
    typed.forEach((snippet, i) => {
      message = message.replaceAll(files[i]!, snippet.where);
    });
    assert.equal(code, 0, message);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

for (const snippet of run) {
  Deno.test(`the snippet at ${snippet.where} runs`, async () => {
    const dir = await Deno.makeTempDir({
      dir: join(root.pathname, "tests"),
      prefix: "_snippet_",
    });
    const cwd = await Deno.makeTempDir({ prefix: "portcullis-snippet-" });
    try {
      for (const file of ["model.conf", "policy.csv"]) {
        await Deno.copyFile(
          new URL(`examples/${file}`, root),
          join(cwd, file),
        );
      }
      const file = await snippetFile(dir, "snippet.ts", snippet.code);
      const { code, stdout, stderr } = await new Deno.Command(
        Deno.execPath(),
        {
          args: ["run", "--allow-all", "--no-check", file],
          cwd,
          env: { PORT: "0" },
          stdout: "piped",
          stderr: "piped",
        },
      ).output();
      assert.equal(
        code,
        0,
        `${decoder.decode(stdout)}\n${decoder.decode(stderr)}`,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
      await Deno.remove(cwd, { recursive: true });
    }
  });
}
