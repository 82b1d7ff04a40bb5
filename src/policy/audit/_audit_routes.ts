// The server routes of a scan as the audit sees them: method, path, place
// and the guard the JavaScript extractor found in front of each.
import type { ScannedPort } from "../../extract/scan.ts";
import type { AuditArgument, AuditRoute } from "./audit_report.ts";

/** A route before its decisions: `allowed` comes later. */
export type FoundRoute = Omit<AuditRoute, "allowed">;

function argumentsOf(text: string | undefined): AuditArgument[][] {
  if (text === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(Array.isArray).map((list: unknown[]) =>
    list.map((a): AuditArgument =>
      typeof a === "string"
        ? a
        : { dynamic: String((a as { dynamic?: unknown })?.dynamic ?? a) }
    )
  );
}

/** The HTTP server routes of the JavaScript/TypeScript files of a scan. */
export function foundRoutes(ports: readonly ScannedPort[]): FoundRoute[] {
  const routes: FoundRoute[] = [];
  const seen = new Set<string>();
  for (const { port, extractor } of ports) {
    const ref = port.ref;
    if (
      extractor !== "javascript" || ref.mechanism !== "http" ||
      ref.role !== "server"
    ) continue;
    const method = ref.detail.method ?? ref.key.slice(0, ref.key.indexOf(" "));
    const path = ref.detail.path ?? ref.key.slice(ref.key.indexOf(" ") + 1);
    const id = `${method} ${path} (${port.filePath}:${ref.line})`;
    if (seen.has(id)) continue;
    seen.add(id);
    const permissions = argumentsOf(ref.detail.permissions);
    routes.push({
      id,
      method,
      path,
      file: port.filePath,
      line: ref.line,
      col: ref.col,
      framework: ref.detail.framework ?? "",
      guard: permissions.length > 0
        ? "permission"
        : ref.detail.auth === "required"
        ? "auth"
        : "none",
      permissions,
      dynamic: permissions.some((list) =>
        list.some((a) => typeof a !== "string")
      ),
    });
  }
  return routes.sort((a, b) =>
    a.file < b.file
      ? -1
      : a.file > b.file
      ? 1
      : a.line - b.line || a.col - b.col ||
        (a.id < b.id ? -1 : 1)
  );
}
