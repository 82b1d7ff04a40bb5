// Loads tree-sitter grammars (WASM, from @vscode/tree-sitter-wasm, and
// Kotlin's from @tree-sitter-grammars/tree-sitter-kotlin) once per process
// and parses source text. One code path for Deno, Node and Bun.
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
  | "ruby"
  | "kotlin"
  | "cpp";

let initialized: Promise<void> | undefined;
const languages = new Map<GrammarName, Promise<Language>>();
const parsers = new Map<GrammarName, Parser>();

/** The packages of grammars that @vscode/tree-sitter-wasm does not ship. */
const OWN_PACKAGES: Partial<Record<GrammarName, string>> = {
  kotlin: "@tree-sitter-grammars/tree-sitter-kotlin",
};

/** The path of a grammar's WASM file in its package. */
function grammarFile(name: GrammarName): string {
  const require = createRequire(import.meta.url);
  const own = OWN_PACKAGES[name];
  let manifest: string;
  try {
    manifest = require.resolve(
      `${own ?? "@vscode/tree-sitter-wasm"}/package.json`,
    );
  } catch (error) {
    if (own === undefined) throw error;
    // An optional peer of the npm package: only Kotlin scans need it.
    throw new Error(
      `Cannot parse ${name}: its grammar is not installed (npm install ${own})`,
      { cause: error },
    );
  }
  const directory = manifest.slice(0, -"package.json".length);
  return own
    ? `${directory}tree-sitter-${name}.wasm`
    : `${directory}wasm/tree-sitter-${name}.wasm`;
}

/** Loads (once) and returns the tree-sitter language for a grammar. */
export function loadLanguage(name: GrammarName): Promise<Language> {
  let language = languages.get(name);
  if (!language) {
    initialized ??= Parser.init();
    language = initialized.then(async () =>
      Language.load(
        await readFile(grammarFile(name)),
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
