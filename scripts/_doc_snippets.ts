// Code blocks of the documentation (README.md and docs/*.md) and the tests
// that cover them. Every TypeScript or JavaScript block is followed by an
// HTML comment that says how it is tested:
//
//   <!-- test: deno      run by Deno (tests/docs_snippets_test.ts, in a
//   ...                   directory holding examples/model.conf and
//   -->                   examples/policy.csv) and type-checked
//   <!-- test: node      plain JavaScript run by Node 20 and Bun against the
//   ...                   installed npm packages (scripts/smoke_npm.ts)
//   -->
//   <!-- check: deno     type-checked only: a server that runs until it is
//   ...                   stopped, a service the test cannot reach
//   -->
//   <!-- untested: <why> -->   no test at all; the reason is required
//
// The comment's body is hidden code: what follows a line `// <snippet>` is
// put before the snippet (declarations and set-up the snippet assumes,
// such as "the provider of the example above"); the rest, or all of it when
// there is no such line, after it (the checks, and the clean-up that lets
// the snippet end). A block with no such comment is uncovered, and
// tests/docs_snippets_test.ts fails on it.

/** How a documentation code block is tested. */
export type SnippetTest = "deno" | "node" | "check" | "untested";

/** One fenced code block of a Markdown page. */
export interface DocBlock {
  /** The line the opening fence is on (1-based). */
  line: number;
  /** The first word of the info string (`ts`, `sh`...), or "". */
  lang: string;
  /** The text between the fences. */
  body: string;
  /** How the block is tested, when a test comment follows it. */
  test?: SnippetTest;
  /** The comment's body: hidden code, or the reason for "untested". */
  hidden?: string;
}

/** One runnable code block. */
export interface DocSnippet {
  /** The Markdown file and the line the block starts on. */
  where: string;
  /** The block with its hidden code before and after it. */
  code: string;
}

/** The languages whose blocks must be covered by a test. */
export const CODE_LANGS: ReadonlySet<string> = new Set([
  "ts",
  "typescript",
  "tsx",
  "js",
  "javascript",
  "mjs",
]);

const FENCE = /^( {0,3})(`{3,})\s*([^`\s]*)[^`]*$/;
const TEST = /^<!-- (test: deno|test: node|check: deno|untested:)([\s\S]*?)-->/;
/** The line of hidden code that stands for the snippet. */
const PLACE = /^\/\/ <snippet>$/m;

/** The fenced code blocks of `text`, each with the test comment after it. */
export function docBlocks(text: string): DocBlock[] {
  const lines = text.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, ticks, lang] = open as unknown as string[];
    let end = i + 1;
    while (
      end < lines.length &&
      !new RegExp(`^ {0,3}${ticks}\`*\\s*$`).test(lines[end]!)
    ) end++;
    const body = lines.slice(i + 1, end)
      .map((line) =>
        line.startsWith(indent!) ? line.slice(indent!.length) : line
      )
      .join("\n");
    const block: DocBlock = { line: i + 1, lang: lang!, body: `${body}\n` };
    let next = end + 1;
    while (next < lines.length && lines[next]!.trim() === "") next++;
    const comment = TEST.exec(lines.slice(next).join("\n").trimStart());
    if (comment) {
      const kind = comment[1]!;
      block.test = kind === "untested:"
        ? "untested"
        : kind === "check: deno"
        ? "check"
        : kind === "test: deno"
        ? "deno"
        : "node";
      block.hidden = kind === "untested:"
        ? comment[2]!.trim()
        : comment[2]!.replace(/^\n/, "");
    }
    blocks.push(block);
    i = end;
  }
  return blocks;
}

/** The code a snippet runs as: its hidden set-up, itself, its checks. */
export function snippetCode(block: DocBlock): string {
  const hidden = block.hidden ?? "";
  const place = PLACE.exec(hidden);
  const before = place ? hidden.slice(0, place.index) : "";
  const after = place ? hidden.slice(place.index + place[0].length) : hidden;
  return `${before}${block.body}\n// The test of this snippet:\n${after}`;
}

/** The code blocks of `files` (paths under `root`) that no test covers. */
export async function uncoveredBlocks(
  root: URL,
  files: readonly string[],
): Promise<string[]> {
  const uncovered: string[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(new URL(file, root));
    for (const block of docBlocks(text)) {
      if (!CODE_LANGS.has(block.lang)) continue;
      if (block.test === undefined) {
        uncovered.push(`${file}:${block.line}: no test comment`);
      } else if (block.test === "untested" && block.hidden === "") {
        uncovered.push(`${file}:${block.line}: "untested" without a reason`);
      }
    }
  }
  return uncovered;
}

/** The snippets of `files` (paths under `root`) tested as `test`. */
export async function docSnippets(
  root: URL,
  files: readonly string[],
  test: "node" | "deno" | "check",
): Promise<DocSnippet[]> {
  const snippets: DocSnippet[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(new URL(file, root));
    for (const block of docBlocks(text)) {
      if (block.test !== test) continue;
      snippets.push({
        where: `${file}:${block.line}`,
        code: snippetCode(block),
      });
    }
  }
  return snippets;
}

/** The documentation pages: README.md and every page of docs/. */
export const DOC_PAGES: readonly string[] = [
  "README.md",
  ...[...Deno.readDirSync(new URL("../docs/", import.meta.url))]
    .filter((entry) => entry.isFile && entry.name.endsWith(".md"))
    .map((entry) => `docs/${entry.name}`)
    .sort(),
];
