// The findings of an audit, from its routes, rules and roles: routes
// first (in file order), then dead rules (in policy order), then roles.
import type {
  AuditArgument,
  AuditFinding,
  AuditReport,
  AuditRoute,
} from "./audit_report.ts";

/** A requirement as the reports write it: `post, read`. */
export function requirementText(args: readonly AuditArgument[]): string {
  return args.map((a) => typeof a === "string" ? a : `<${a.dynamic}>`).join(
    ", ",
  );
}

/** A route as the reports write it: `GET /posts`. */
export function routeName(route: AuditRoute): string {
  return `${route.method} ${route.path}`;
}

function atRoute(
  route: AuditRoute,
): Pick<AuditFinding, "file" | "line" | "col" | "route" | "rule" | "role"> {
  return {
    file: route.file,
    line: route.line,
    col: route.col,
    route: route.id,
    rule: undefined,
    role: undefined,
  };
}

/** The findings of a report without them. */
export function auditFindings(
  report: Omit<AuditReport, "findings">,
): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const route of report.routes) {
    const name = routeName(route);
    const requires = route.permissions.map(requirementText).join(" and ");
    if (route.guard === "none") {
      findings.push({
        kind: "unguarded-route",
        level: "warning",
        message: `${name} has no guard: anyone can call it`,
        ...atRoute(route),
      });
    } else if (route.guard === "auth") {
      findings.push({
        kind: "auth-only-route",
        level: "note",
        message: `${name} requires only a signed-in user (authRequired)`,
        ...atRoute(route),
      });
    } else if (route.dynamic) {
      findings.push({
        kind: "dynamic-route",
        level: "note",
        message:
          `${name} requires ${requires}, read from the request: not evaluated`,
        ...atRoute(route),
      });
    } else if (route.allowed?.length === 0) {
      findings.push({
        kind: "dead-route",
        level: "warning",
        message:
          `${name} requires ${requires}, which the policy allows no role`,
        ...atRoute(route),
      });
    }
  }
  if (!report.notes.some((n) => n.startsWith("the decision budget"))) {
    for (const rule of report.rules) {
      if (rule.routes.length > 0 || rule.dynamicRoutes.length > 0) continue;
      findings.push({
        kind: "dead-rule",
        level: "warning",
        message: `${rule.rule.text} matches the request of no route`,
        file: report.policyPath,
        line: rule.line,
        col: undefined,
        route: undefined,
        rule: rule.rule.text,
        role: undefined,
      });
    }
    const dynamic = report.routes.filter((r) =>
      r.guard === "permission" && r.dynamic
    ).length;
    for (const role of report.roles) {
      if (role.routes.length > 0) continue;
      const line = report.rules.find((r) => r.rule.values[0] === role.name)
        ?.line;
      findings.push({
        kind: "unreachable-role",
        level: "warning",
        message: `${role.name} can call no permission-guarded route${
          dynamic > 0
            ? ` (${dynamic} dynamic route${
              dynamic === 1 ? "" : "s"
            } not evaluated)`
            : ""
        }`,
        file: report.policyPath,
        line,
        col: undefined,
        route: undefined,
        rule: undefined,
        role: role.name,
      });
    }
  }
  return findings;
}
