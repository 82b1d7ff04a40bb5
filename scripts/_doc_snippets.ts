// Code blocks of the documentation that a test runs. A fenced block
// followed by an HTML comment `<!-- test: <runtime>` ... `-->` is a snippet
// for that runtime ("node": plain JavaScript run by Node 20 and Bun against
// the installed npm packages, in scripts/smoke_npm.ts; "deno": TypeScript
// run by tests/docs_snippets_test.ts). The comment's body is appended to
// the snippet when it runs: the checks, and the clean-up that lets it end.

/** One runnable code block. */
export interface DocSnippet {
  /** The Markdown file and the line the block starts on. */
  where: string;
  /** The block followed by its hidden test code. */
  code: string;
}

const BLOCK =
  /^```[a-z]*\n((?:(?!```)[\s\S])*?)```\n\s*<!-- test: ([a-z]+)\n([\s\S]*?)-->/gm;

/** The snippets of `files` (paths under `root`) for `runtime`. */
export async function docSnippets(
  root: URL,
  files: readonly string[],
  runtime: "node" | "deno",
): Promise<DocSnippet[]> {
  const snippets: DocSnippet[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(new URL(file, root));
    for (const match of text.matchAll(BLOCK)) {
      if (match[2] !== runtime) continue;
      const line = text.slice(0, match.index).split("\n").length;
      snippets.push({
        where: `${file}:${line}`,
        code: `${match[1]}\n// The test of this snippet:\n${match[3]}`,
      });
    }
  }
  return snippets;
}

/** The documentation pages whose snippets run. */
export const DOC_PAGES: readonly string[] = [
  "docs/install.md",
  "docs/adapters.md",
  "docs/service_map.md",
];
