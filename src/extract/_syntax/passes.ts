// Passes over the files of one language with WASM trees: per file with
// failures turned into diagnostics, and the two-pass shape (a cross-file
// pass, then the per-file pass) most extractors take.
import type { Node, Tree } from "web-tree-sitter";
import type { ExtractedPort } from "../types.ts";
import type {
  ExtractDiagnostic,
  ExtractResult,
  SourceFile,
} from "../extractor.ts";
import { type GrammarName, parseSource } from "./parser.ts";
import { isGrammarGap, nothingParsed, positionOf } from "./tree.ts";
import { CallIndex } from "./calls.ts";
import type { Value } from "../_value/value.ts";

/** Runs a per-file extraction, turning a failure into a diagnostic. */
export async function eachFile<F extends { path: string }>(
  files: readonly F[],
  diagnostics: ExtractDiagnostic[],
  run: (file: F) => Promise<void>,
): Promise<void> {
  for (const file of files) {
    try {
      await run(file);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      diagnostics.push({
        filePath: file.path,
        severity: "error",
        message: `Cannot extract ports: ${detail}`,
      });
    }
  }
}

/** The error diagnostic of a file that cannot be parsed. */
export function parseFailure(
  filePath: string,
  error: unknown,
): ExtractDiagnostic {
  return {
    filePath,
    severity: "error",
    message: `Cannot parse: ${(error as Error).message}`,
  };
}

/** Reports a file whose syntax tree has errors (the ports found are kept). */
export function syntaxWarning(
  root: Node,
  filePath: string,
  diagnostics: ExtractDiagnostic[],
): void {
  if (!root.hasError) return;
  let where: string | undefined;
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.isMissing || (n.isError && !isGrammarGap(n))) {
      const { line, col } = positionOf(n);
      where = ` at ${line}:${col}`;
      break;
    }
    for (let i = n.childCount - 1; i >= 0; i--) {
      const c = n.child(i);
      if (c?.hasError || c?.isError || c?.isMissing) stack.push(c);
    }
  }
  if (where === undefined) return; // only gaps of the grammar
  const nothing = nothingParsed(root);
  diagnostics.push({
    filePath,
    severity: nothing ? "error" : "warning",
    message: `Cannot parse: syntax error${where}${
      nothing ? ", nothing could be read" : ""
    }`,
  });
}

/**
 * Source bytes whose trees a two-pass extractor keeps between its passes;
 * beyond it, the second pass parses again (bounded WASM memory).
 */
const KEEP_TREES_BUDGET = 4_000_000;

/**
 * The trees of a root's files that a two-pass extractor keeps (within its
 * memory budget) until every file is read: where values that flow across
 * files (a wrapper's callers) are looked for.
 */
export class KeptTrees {
  readonly #trees = new Map<string, { file: SourceFile; tree: Tree }>();
  readonly #byTree = new Map<Tree, SourceFile>();

  /** Keeps a file's tree (until {@linkcode KeptTrees.delete}). */
  keep(file: SourceFile, tree: Tree): void {
    this.#trees.set(file.path, { file, tree });
    this.#byTree.set(tree, file);
  }

  /** The kept tree of a file. */
  get(path: string): Tree | undefined {
    return this.#trees.get(path)?.tree;
  }

  /** Every kept file with its syntax tree's root. */
  *roots(): Iterable<{ file: SourceFile; root: Node }> {
    for (const { file, tree } of this.#trees.values()) {
      yield { file, root: tree.rootNode };
    }
  }

  /** The kept file a node belongs to. */
  fileOf(node: Node): SourceFile | undefined {
    return this.#byTree.get(node.tree);
  }

  /** The path of the kept file a node is in, else `fallback`. */
  pathOf(node: Node, fallback: string): string {
    return this.#byTree.get(node.tree)?.path ?? fallback;
  }

  /** The calls of the kept trees by the name `nameOf` gives (one index each). */
  calls(nameOf: (node: Node) => string | undefined): CallIndex {
    let index = this.#indexes.get(nameOf);
    if (!index) this.#indexes.set(nameOf, index = new CallIndex(this, nameOf));
    return index;
  }
  readonly #indexes = new Map<unknown, CallIndex>();

  /** Frees the trees. */
  delete(): void {
    for (const { tree } of this.#trees.values()) tree.delete();
    this.#trees.clear();
    this.#byTree.clear();
  }
}

/**
 * Extracts the ports of one language's files in two passes: a cross-file
 * pass (`first`, on the files `needsFirst` selects) and then a per-file
 * pass (`second`, which adds the ports it finds) over every file. Each file
 * is parsed once, its tree kept to the end while the trees fit the memory
 * budget (`second` sees them all, for values across files), and parsed
 * again beyond it. A file with syntax errors gets a `warning` diagnostic
 * before `second` reads it; a file that cannot be parsed or processed
 * becomes an `error` diagnostic. `between` runs once between the passes
 * (settling what the first pass collected).
 */
export async function twoPasses(
  files: readonly SourceFile[],
  grammar: GrammarName,
  needsFirst: (file: SourceFile) => boolean,
  first: (root: Node) => void,
  second: (
    file: SourceFile,
    root: Node,
    ports: ExtractedPort[],
    kept: KeptTrees,
  ) => void,
  between?: () => void,
): Promise<ExtractResult> {
  const diagnostics: ExtractDiagnostic[] = [];
  const ports: ExtractedPort[] = [];
  const kept = new KeptTrees();
  let budget = KEEP_TREES_BUDGET;
  const failed = new Set<string>();
  try {
    await eachFile(files, diagnostics, async (file) => {
      const keep = file.text.length <= budget;
      const needed = needsFirst(file);
      if (!needed && !keep) return;
      let tree: Tree | undefined;
      try {
        tree = await parseSource(grammar, file.text);
        if (needed) first(tree.rootNode);
      } catch (error) {
        failed.add(file.path);
        tree?.delete();
        throw error;
      }
      if (keep) {
        budget -= file.text.length;
        kept.keep(file, tree);
      } else {
        tree.delete();
      }
    });
    between?.();
    await eachFile(
      files.filter((f) => !failed.has(f.path)),
      diagnostics,
      async (file) => {
        const own = kept.get(file.path);
        const tree = own ?? await parseSource(grammar, file.text);
        try {
          syntaxWarning(tree.rootNode, file.path, diagnostics);
          second(file, tree.rootNode, ports, kept);
        } finally {
          if (!own) tree.delete();
        }
      },
    );
  } finally {
    kept.delete();
  }
  return { ports, diagnostics };
}

/**
 * One file a two-pass extractor reads: the file, the constants of its
 * root, the ports found so far, and the trees the root keeps (for values
 * across files).
 */
export class TreeFile {
  readonly file: SourceFile;
  readonly constants: Map<string, Value>;
  readonly ports: ExtractedPort[];
  /** The root's other files (their trees and calls), when kept. */
  readonly kept: KeptTrees | undefined;
  /** The root node of the file's syntax tree, once it is read. */
  rootNode: Node | undefined;

  constructor(
    file: SourceFile,
    constants: Map<string, Value>,
    ports: ExtractedPort[],
    kept?: KeptTrees,
  ) {
    this.file = file;
    this.constants = constants;
    this.ports = ports;
    this.kept = kept;
  }

  /** The path of the file a node is in (this one, or a kept one). */
  pathOf(node: Node): string {
    return this.kept?.pathOf(node, this.file.path) ?? this.file.path;
  }
}
