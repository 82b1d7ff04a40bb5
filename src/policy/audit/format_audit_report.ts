import type { AuditReport, AuditRoute } from "./audit_report.ts";
import { routeName } from "./_audit_findings.ts";

function place(file: string, line: number | undefined): string {
  return line === undefined ? file : `${file}:${line}`;
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * Formats an audit report for a terminal: a summary of the routes, each
 * finding with its place (warnings, then notes), the routes each role can
 * call, and the routes any signed-in user or anyone can call.
 *
 * @param report What {@linkcode auditApp} returned.
 * @returns The text, ending with a newline.
 *
 * @example
 * ```ts
 * import { formatAuditReport } from "@portcullis/portcullis/policy";
 * import assert from "node:assert/strict";
 *
 * const text = formatAuditReport({
 *   appDir: "app",
 *   modelPath: "model.conf",
 *   policyPath: "policy.csv",
 *   revision: "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
 *   routes: [],
 *   roles: [{ name: "viewer", routes: [] }],
 *   rules: [],
 *   findings: [],
 *   complete: true,
 *   notes: [],
 * });
 * assert.match(text, /^0 routes:/m);
 * assert.match(text, /^  viewer: none$/m);
 * ```
 */
export function formatAuditReport(report: AuditReport): string {
  const routes = report.routes;
  const by = (guard: AuditRoute["guard"]): AuditRoute[] =>
    routes.filter((r) => r.guard === guard);
  const permission = by("permission");
  const dynamic = permission.filter((r) => r.dynamic).length;
  const lines = [
    `audit of ${report.appDir} against ${report.policyPath} (revision ${
      report.revision.slice(0, 12)
    })`,
    `${count(routes.length, "route")}: ${permission.length} permission-guarded${
      dynamic > 0 ? ` (${dynamic} dynamic)` : ""
    }, ${by("auth").length} signed-in only, ${by("none").length} unguarded`,
  ];
  const warnings = report.findings.filter((f) => f.level === "warning");
  const notes = report.findings.filter((f) => f.level === "note");
  lines.push(
    "",
    `${count(warnings.length, "warning")}, ${count(notes.length, "note")}`,
  );
  for (const finding of [...warnings, ...notes]) {
    lines.push(
      `  ${finding.level} ${finding.kind} ${
        place(finding.file, finding.line)
      }: ${finding.message}`,
    );
  }
  const byId = new Map(routes.map((r) => [r.id, r]));
  const listed = (route: AuditRoute): string =>
    `    ${routeName(route)}  ${place(route.file, route.line)}`;
  lines.push("", "routes by role:");
  for (const role of report.roles) {
    if (role.routes.length === 0) {
      lines.push(`  ${role.name}: none`);
      continue;
    }
    lines.push(`  ${role.name}: ${count(role.routes.length, "route")}`);
    for (const id of role.routes) lines.push(listed(byId.get(id)!));
  }
  for (
    const [title, list] of [
      ["any signed-in user", by("auth")],
      ["anyone (unguarded)", by("none")],
    ] as const
  ) {
    if (list.length === 0) continue;
    lines.push(`  ${title}: ${count(list.length, "route")}`);
    for (const route of list) lines.push(listed(route));
  }
  if (report.notes.length > 0) {
    lines.push("", report.complete ? "notes:" : "incomplete:");
    for (const note of report.notes) lines.push(`  ${note}`);
  }
  return `${lines.join("\n")}\n`;
}
