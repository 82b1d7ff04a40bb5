// Loads tree-sitter grammars (WASM, from @vscode/tree-sitter-wasm) once per
// process and parses source text. One code path for Deno, Node and Bun.
import { Language, Parser, type Tree } from "web-tree-sitter";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

/** The grammars this package can parse with. */
export type GrammarName =
  | "javascript"
  | "typescript"
  | "tsx"
  | "python"
  | "go"
  | "java"
  | "c-sharp"
  | "rust"
  | "php"
  | "ruby";

let initialized: Promise<void> | undefined;
const languages = new Map<GrammarName, Promise<Language>>();
const parsers = new Map<GrammarName, Parser>();

function grammarDirectory(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("@vscode/tree-sitter-wasm/package.json");
  return manifest.slice(0, -"package.json".length) + "wasm/";
}

/** Loads (once) and returns the tree-sitter language for a grammar. */
export function loadLanguage(name: GrammarName): Promise<Language> {
  let language = languages.get(name);
  if (!language) {
    initialized ??= Parser.init();
    language = initialized.then(async () =>
      Language.load(
        await readFile(`${grammarDirectory()}tree-sitter-${name}.wasm`),
      )
    );
    languages.set(name, language);
  }
  return language;
}

/**
 * Parses source text with a grammar. The returned tree must be released with
 * `tree.delete()` when the caller is done with it (WASM memory).
 */
export async function parseSource(
  name: GrammarName,
  text: string,
): Promise<Tree> {
  let parser = parsers.get(name);
  if (!parser) {
    const language = await loadLanguage(name);
    parser = parsers.get(name);
    if (!parser) {
      parser = new Parser();
      parser.setLanguage(language);
      parsers.set(name, parser);
    }
  }
  const tree = parser.parse(text);
  if (!tree) throw new Error(`Cannot parse source as ${name}`);
  return tree;
}
