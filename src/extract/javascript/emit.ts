// The HTTP port of a JavaScript/TypeScript route or call; a path that cannot
// be normalized is a warning, never a wrong key.
import { httpBoundaryKey } from "../../boundary/http_path.ts";
import type { ExtractDiagnostic } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import type { Site } from "./facts.ts";

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
  let key: string;
  try {
    key = httpBoundaryKey(init.method, init.path);
  } catch (error) {
    diagnostics.push({
      filePath,
      severity: "warning",
      message:
        `Cannot normalize ${init.role} path "${init.path}" at ${site.line}:${site.col}: ${
          (error as Error).message
        }`,
    });
    return undefined;
  }
  return {
    ref: {
      mechanism: "http",
      role: init.role,
      key,
      line: site.line,
      col: site.col,
      confidence: init.confidence,
      detail: {
        method: init.method,
        path: init.path,
        framework: init.framework,
        ...init.extra,
      },
    },
    owner: site.owner,
    filePath,
  };
}
