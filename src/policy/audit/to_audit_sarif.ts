import { join, relative, resolve } from "node:path";
import { type SarifRule, sarifTool, uriOf } from "../../map/_sarif.ts";
import type {
  AuditFinding,
  AuditFindingKind,
  AuditReport,
} from "./audit_report.ts";

/**
 * Options for {@linkcode toAuditSarif}.
 *
 * @example
 * ```ts
 * import type { ToAuditSarifOptions } from "@portcullis/portcullis/policy";
 *
 * const options: ToAuditSarifOptions = { root: "." };
 * ```
 */
export interface ToAuditSarifOptions {
  /**
   * The directory the result paths are relative to (`%SRCROOT%`): the
   * repository's root, so code scanning finds the files. Without it, paths
   * are the application directory joined with the route's file, and the
   * policy file, as given.
   */
  root?: string;
}

const RULES: Readonly<Record<AuditFindingKind, Omit<SarifRule, "id">>> = {
  "unguarded-route": {
    name: "UnguardedRoute",
    text: "A route with no guard in front of it: anyone can call it.",
    level: "warning",
  },
  "dead-route": {
    name: "DeadRoute",
    text: "A guarded route whose permission the policy grants to no role.",
    level: "warning",
  },
  "dead-rule": {
    name: "DeadRule",
    text: "A policy rule that matches the request of no route.",
    level: "warning",
  },
  "unreachable-role": {
    name: "UnreachableRole",
    text: "A role of the policy that can call no permission-guarded route.",
    level: "warning",
  },
  "dynamic-route": {
    name: "DynamicRoute",
    text:
      "A route whose permission depends on values read from the request: not evaluated.",
    level: "note",
  },
  "auth-only-route": {
    name: "AuthenticationOnlyRoute",
    text: "A route any signed-in user can call (authRequired only).",
    level: "note",
  },
};
const KINDS = Object.keys(RULES) as AuditFindingKind[];

function pathOf(
  finding: AuditFinding,
  report: AuditReport,
  root: string | undefined,
): string {
  const path = finding.route === undefined
    ? finding.file
    : join(report.appDir, finding.file);
  const out = root === undefined
    ? path
    : relative(resolve(root), resolve(path));
  return out.replaceAll("\\", "/");
}

/**
 * The findings of an audit as a SARIF 2.1.0 log, for code-scanning UIs:
 * one result per finding, at the route's line in its source file or the
 * rule's line in the policy file, with a rule per kind of finding. An
 * incomplete report says so in the run's invocation.
 *
 * @param report What {@linkcode auditApp} returned.
 * @param options The root the paths are relative to.
 * @returns The log, an object to serialize with `JSON.stringify`.
 *
 * @example
 * ```ts
 * import { toAuditSarif } from "@portcullis/portcullis/policy";
 * import assert from "node:assert/strict";
 *
 * const log = toAuditSarif({
 *   appDir: "app",
 *   modelPath: "model.conf",
 *   policyPath: "policy.csv",
 *   revision: "0f1e2d3c",
 *   routes: [],
 *   roles: [],
 *   rules: [],
 *   findings: [{
 *     kind: "unguarded-route",
 *     level: "warning",
 *     message: "GET /health has no guard: anyone can call it",
 *     file: "server.ts",
 *     line: 12,
 *     col: 1,
 *     route: "GET /health (server.ts:12)",
 *     rule: undefined,
 *     role: undefined,
 *   }],
 *   complete: true,
 *   notes: [],
 * });
 * assert.equal(log.version, "2.1.0");
 * ```
 */
export function toAuditSarif(
  report: AuditReport,
  options: ToAuditSarifOptions = {},
): Record<string, unknown> {
  const results = report.findings.map((finding) => {
    const region: Record<string, number> = {};
    if (finding.line !== undefined && finding.line >= 1) {
      region.startLine = finding.line;
      if (finding.col !== undefined && finding.col >= 1) {
        region.startColumn = finding.col;
      }
    }
    const subject = finding.route?.replace(/ \([^()]*\)$/, "") ??
      finding.rule ?? finding.role ?? "";
    return {
      ruleId: finding.kind,
      ruleIndex: KINDS.indexOf(finding.kind),
      level: finding.level,
      message: { text: finding.message },
      locations: [{
        physicalLocation: {
          artifactLocation: {
            uri: uriOf(pathOf(finding, report, options.root)),
            ...(options.root === undefined ? {} : { uriBaseId: "%SRCROOT%" }),
          },
          ...(Object.keys(region).length > 0 ? { region } : {}),
        },
      }],
      partialFingerprints: {
        "portcullisAudit/v1": `${finding.kind}:${finding.file}:${subject}`,
      },
    };
  });
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: sarifTool(
        "portcullis audit",
        KINDS.map((kind) => ({ id: kind, ...RULES[kind] })),
      ),
      ...(options.root === undefined ? {} : {
        originalUriBaseIds: {
          "%SRCROOT%": { description: { text: "The repository's root" } },
        },
      }),
      results,
      invocations: [{
        executionSuccessful: report.complete,
        ...(report.notes.length > 0
          ? {
            toolExecutionNotifications: report.notes.map((note) => ({
              level: report.complete ? "note" : "error",
              message: { text: note },
            })),
          }
          : {}),
      }],
    }],
  };
}
