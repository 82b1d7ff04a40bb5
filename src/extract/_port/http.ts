// HTTP port records: the method names routing DSLs use and the port of a
// route or a call, keyed by the normalized method and path.
import { httpBoundaryKey } from "../../boundary/http_path.ts";
import type { ExtractedPort, PortOwner } from "../types.ts";

/** Where a port is reported: any syntax node (0-based row and column). */
export interface Positioned {
  readonly startPosition: { row: number; column: number };
}

/** The HTTP method names recognised in framework calls. */
export const HTTP_METHODS: ReadonlySet<string> = new Set([
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
]);

/** {@linkcode HTTP_METHODS} in lower case, as routing DSLs spell them. */
export const HTTP_VERBS: ReadonlySet<string> = new Set(
  [...HTTP_METHODS].map((m) => m.toLowerCase()),
);

/**
 * Evaluates a string literal node with `evaluate` for its interpolated

/** Options of {@linkcode httpPort}. */
export interface HttpPortInit {
  role: "server" | "client";
  method: string;
  path: string;
  node: Positioned;
  owner: PortOwner;
  filePath: string;
  confidence: number;
  framework: string;
  extra?: Record<string, string>;
}

/**
 * Builds an HTTP port, or undefined when the path cannot be normalized (the
 * caller records nothing rather than a wrong key).
 */
export function httpPort(init: HttpPortInit): ExtractedPort | undefined {
  let key: string;
  try {
    key = httpBoundaryKey(init.method, init.path);
  } catch {
    return undefined;
  }
  const { row, column } = init.node.startPosition;
  return {
    ref: {
      mechanism: "http",
      role: init.role,
      key,
      line: row + 1,
      col: column + 1,
      confidence: init.confidence,
      detail: {
        method: init.method,
        path: init.path,
        framework: init.framework,
        ...init.extra,
      },
    },
    owner: init.owner,
    filePath: init.filePath,
  };
}
