// The HTTP port of a JavaScript/TypeScript route or call; a path that cannot
// be normalized is a warning, never a wrong key.
import type { ExtractDiagnostic } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import type { Site } from "./facts.ts";
import { httpPort } from "../_port/http.ts";

/** What a JavaScript/TypeScript port needs besides its site. */
export interface JsPortInit {
  role: "server" | "client";
  method: string;
  path: string;
  confidence: number;
  framework: string;
  extra?: Record<string, string>;
}

/** The port of a route or call at `site` of `filePath`. */
export function jsPort(
  filePath: string,
  site: Site,
  init: JsPortInit,
  diagnostics: ExtractDiagnostic[],
): ExtractedPort | undefined {
  return httpPort(
    {
      ...init,
      node: { startPosition: { row: site.line - 1, column: site.col - 1 } },
      owner: site.owner,
      filePath,
    },
    (error) =>
      diagnostics.push({
        filePath,
        severity: "warning",
        message:
          `Cannot normalize ${init.role} path "${init.path}" at ${site.line}:${site.col}: ${error.message}`,
      }),
  );
}
