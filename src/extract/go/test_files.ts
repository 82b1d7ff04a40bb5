// Go test files (`*_test.go`) are never part of a built program: the go
// tool compiles them only for `go test`, so the routes they register and the
// calls they make are no interface of the service.
import { withProject } from "../_syntax/compact_tree.ts";
import type { ExtractDiagnostic, SourceFile } from "../extractor.ts";
import { type GoFile, GoProject } from "./project.ts";

/** Whether a path is a Go test file (`x_test.go`). */
export function isGoTestFile(path: string): boolean {
  return path.endsWith("_test.go");
}

/** The Go files of a list that a build includes (test files left out). */
export function builtGoFiles<T extends { path: string }>(files: T[]): T[] {
  return files.filter((f) => f.path.endsWith(".go") && !isGoTestFile(f.path));
}

/**
 * Reads each built Go file of a scan root (test files left out), all parsed
 * as one project (files that cannot be parsed become diagnostics).
 */
export function eachBuiltFile(
  files: SourceFile[],
  diagnostics: ExtractDiagnostic[],
  read: (file: GoFile, project: GoProject) => void,
): Promise<void> {
  return withProject(GoProject.load(builtGoFiles(files), diagnostics), (p) => {
    for (const file of p.files) read(file, p);
  });
}
