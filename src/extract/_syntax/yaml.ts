// The documents of a YAML file that parse, each as its root node; a
// document that does not parse is reported once as a warning and skipped.
import { type LineCounter, parseAllDocuments } from "yaml";
import type { ExtractDiagnostic } from "../extractor.ts";

/** The root nodes of the documents of `text` that parse (`lines` counts lines). */
export function yamlRoots(
  path: string,
  text: string,
  diagnostics: ExtractDiagnostic[] | undefined,
  lines?: LineCounter,
): unknown[] {
  const documents = parseAllDocuments(
    text,
    lines ? { lineCounter: lines } : {},
  );
  const list = Array.isArray(documents) ? documents : [documents];
  const roots: unknown[] = [];
  for (const doc of list) {
    if (doc.errors.length > 0) {
      diagnostics?.push({
        filePath: path,
        severity: "warning",
        message: `Cannot parse YAML: ${doc.errors[0]!.message.split("\n")[0]}`,
      });
      continue;
    }
    roots.push(doc.contents);
  }
  return roots;
}

/** Whether a path names a YAML file (`.yaml`, `.yml`). */
export function isYamlPath(path: string): boolean {
  return path.endsWith(".yaml") || path.endsWith(".yml");
}
