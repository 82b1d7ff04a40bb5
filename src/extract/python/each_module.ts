// The readers that go through a scan root's Python files module by module
// (gRPC, Temporal): the project loaded, each module visited, then freed.
import { withProject } from "../_syntax/compact_tree.ts";
import { PyProject } from "./project.ts";
import type { PyModule } from "./project.ts";
import type { ExtractDiagnostic, SourceFile } from "../extractor.ts";

/**
 * Loads the Python project of `files`, calls `visit` on each of its modules
 * in order, and frees the project (also when `visit` throws).
 */
export function eachModule(
  files: readonly SourceFile[],
  diagnostics: ExtractDiagnostic[],
  visit: (module: PyModule, project: PyProject) => void,
): Promise<void> {
  return withProject(PyProject.load(files, diagnostics), (project) => {
    for (const module of project.list) visit(module, project);
  });
}
