// What the scan-wide Ruby route readers (Hanami, Grape, Padrino, WEBrick)
// share: the scan's inputs and outputs, and parsing their files.
import type { Node, Tree } from "web-tree-sitter";
import type { ExtractDiagnostic, SourceFile } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import { parseSource } from "../_syntax/parser.ts";
import { eachFile } from "../_syntax/passes.ts";
import type { Value } from "../_value/mod.ts";
import { isTestPath } from "./project.ts";

/** The files of a Ruby scan and where its ports and diagnostics go. */
export interface RubyScan {
  files: readonly SourceFile[];
  /** `NAME = "..."` constants of the scan, settled. */
  constants: Map<string, Value>;
  ports: ExtractedPort[];
  diagnostics: ExtractDiagnostic[];
}

/** The files of a scan whose routes serve the app: not tests. */
export function servingFiles(files: readonly SourceFile[]): SourceFile[] {
  return files.filter((f) => !isTestPath(f.path));
}

/**
 * Parses `files`, gives each tree to `read` (a file that fails is one
 * diagnostic), then calls `done` while the trees are alive, and frees them.
 */
export async function withRubyTrees(
  files: readonly SourceFile[],
  diagnostics: ExtractDiagnostic[],
  read: (file: SourceFile, root: Node) => void,
  done?: () => Promise<void>,
): Promise<void> {
  const trees: Tree[] = [];
  try {
    await eachFile(files, diagnostics, async (file) => {
      const tree = await parseSource("ruby", file.text);
      trees.push(tree);
      read(file, tree.rootNode);
    });
    await done?.();
  } finally {
    for (const tree of trees) tree.delete();
  }
}
