// Every relative link of README.md and docs/*.md leads to a file of the
// repository, and every `#anchor` to a heading of the page it names (the
// anchors GitHub gives headings), so that moving a section cannot leave a
// dead link behind.
import assert from "node:assert/strict";
import { existsSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DOC_PAGES } from "../scripts/_doc_snippets.ts";

const root = new URL("../", import.meta.url);

/** The text of a page without its fenced blocks and inline code. */
function prose(text: string): string {
  return text
    .replace(/^ {0,3}(`{3,})[^\n]*\n[\s\S]*?\n {0,3}\1`*[ \t]*$/gm, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/(`+)[\s\S]*?\1/g, (code) => code.includes("\n\n") ? code : "");
}

/** The anchors GitHub gives the headings of `text`. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutBlocks = text.replace(
    /^ {0,3}(`{3,})[^\n]*\n[\s\S]*?\n {0,3}\1`*[ \t]*$/gm,
    "",
  );
  for (const [, heading] of withoutBlocks.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/[`*]/g, "")
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The relative link targets of `text`: inline links and definitions. */
export function relativeLinks(text: string): string[] {
  const body = prose(text);
  const targets = [
    ...[...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
      (match) => match[1]!,
    ),
    ...[...body.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map(
      (match) => match[1]!,
    ),
  ];
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

Deno.test("headingAnchors() gives GitHub's anchors", () => {
  assert.deepEqual(
    [
      ...headingAnchors(
        [
          "# portcullis",
          "## Node 20: no `await using`",
          "### The `scan` command",
          "## Arguments from the request: `AccessSubject`",
          "## Keys",
          "## Keys",
          "```sh",
          "# not a heading",
          "```",
          "## Java, C#, Rust, PHP, Ruby, Elixir and queues",
        ].join("\n"),
      ),
    ],
    [
      "portcullis",
      "node-20-no-await-using",
      "the-scan-command",
      "arguments-from-the-request-accesssubject",
      "keys",
      "keys-1",
      "java-c-rust-php-ruby-elixir-and-queues",
    ],
  );
});

Deno.test("relativeLinks() reads links outside code", () => {
  assert.deepEqual(
    relativeLinks(
      [
        "See [install](docs/install.md#node-20) and [casbin](https://casbin.org).",
        "A [heading](#keys), `[not](a-link.md)`, and",
        "```md",
        "[not](either.md)",
        "```",
        "[ref]: ../BENCHMARKS.md",
      ].join("\n"),
    ),
    ["docs/install.md#node-20", "#keys", "../BENCHMARKS.md"],
  );
});

Deno.test("every relative link of README.md and docs/*.md resolves", async () => {
  const broken: string[] = [];
  const anchors = new Map<string, Set<string>>();
  const anchorsOf = async (path: string): Promise<Set<string>> => {
    let found = anchors.get(path);
    if (!found) {
      found = headingAnchors(await Deno.readTextFile(path));
      anchors.set(path, found);
    }
    return found;
  };
  for (const page of DOC_PAGES) {
    const pageUrl = new URL(page, root);
    for (const target of relativeLinks(await Deno.readTextFile(pageUrl))) {
      const [file, anchor] = target.split("#", 2) as [string, string?];
      const url = file === "" ? pageUrl : new URL(file, pageUrl);
      const path = fileURLToPath(url);
      if (!path.startsWith(fileURLToPath(root)) || !existsSync(path)) {
        broken.push(`${page}: ${target}: no such file`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!statSync(path).isFile() || !path.endsWith(".md")) {
        broken.push(`${page}: ${target}: an anchor on a file that is no page`);
      } else if (!(await anchorsOf(path)).has(decodeURIComponent(anchor))) {
        broken.push(`${page}: ${target}: no such heading`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

Deno.test("README.md links every page of docs/", async () => {
  const linked = new Set(
    relativeLinks(await Deno.readTextFile(new URL("README.md", root)))
      .map((target) => target.split("#")[0]),
  );
  const pages = DOC_PAGES.filter((page) => page.startsWith("docs/"));
  assert.ok(pages.length > 0);
  assert.deepEqual(pages.filter((page) => !linked.has(page)), []);
});
