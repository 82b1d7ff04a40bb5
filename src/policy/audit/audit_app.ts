import { readFile } from "node:fs/promises";
import type { CachedFileEnforcerProviderOptions } from "../../guard/cached_file_enforcer_provider.ts";
import { keyOf, lineNumbers } from "../_coverage.ts";
import { openPolicy } from "../_open_policy.ts";
import { policyRule } from "../explain.ts";
import type {
  AuditReport,
  AuditRole,
  AuditRoute,
  AuditRule,
} from "./audit_report.ts";
import { decideRoutes, policyRoles } from "./_audit_decisions.ts";
import { auditFindings } from "./_audit_findings.ts";
import { foundRoutes } from "./_audit_routes.ts";

/**
 * Options for {@linkcode auditApp}.
 *
 * @example
 * ```ts
 * import type { AuditAppOptions } from "@portcullis/portcullis/policy";
 *
 * const options: AuditAppOptions = {
 *   modelPath: "examples/model.conf",
 *   policyPath: "examples/policy.csv",
 *   roles: ["guest"],
 * };
 * ```
 */
export interface AuditAppOptions {
  /** The casbin model file (`.conf`). */
  modelPath: string;
  /** The casbin policy file (`.csv`). */
  policyPath: string;
  /**
   * Roles to audit besides those the policy names (`p` subjects and both
   * sides of `g` links), such as a role only your user provider gives.
   * @default {[]}
   */
  roles?: readonly string[];
  /**
   * Explanations the audit may compute, at most: one per role and
   * distinct permission, and a few per dynamic route and unused rule.
   * Past it the report is marked incomplete.
   * @default {20000}
   */
  maxDecisions?: number;
  /**
   * Custom functions the matcher calls, as for
   * `CachedFileEnforcerProvider`.
   * @default {{}}
   */
  functions?: CachedFileEnforcerProviderOptions["functions"];
}

/**
 * Audits an application's routes against a casbin policy. Scans the
 * JavaScript/TypeScript source under `appDir` for server routes and the
 * guard in front of each (in every plugging style: guarded handlers and
 * handlers that call one, Hono and Express middleware, `Bun.serve`
 * routes, `URLPattern` tables, `Deno.serve` and the node adapter's
 * `serve`), decides each permission for every role with the guard's own
 * enforcer, and reports routes with no guard, routes no role may call
 * (dead routes), `p` rules no route's request matches (dead rules), roles
 * that can call nothing, and per role the routes it can call. A permission
 * read from the request (an `AccessSubject`) is reported as dynamic, never
 * guessed.
 *
 * @param appDir The application's source directory.
 * @param options The model and policy files, extra roles, budgets.
 * @returns The routes, roles, rules and findings.
 * @throws {ScanError} If `appDir` is missing or not a directory.
 * @throws {EnforcerLoadError} If the model or policy does not load.
 * @throws {PolicyTestError} With `SUBJECT_AMBIGUOUS` when the matcher reads
 *   the subject in a way a role name cannot stand for.
 * @throws {RangeError} If `maxDecisions` is not a positive integer.
 *
 * @example Usage
 * ```ts
 * import { auditApp } from "@portcullis/portcullis/policy";
 * import assert from "node:assert/strict";
 *
 * const report = await auditApp("examples", {
 *   modelPath: "examples/model.conf",
 *   policyPath: "examples/policy.csv",
 * });
 * const viewer = report.roles.find((role) => role.name === "viewer");
 * assert.ok(viewer?.routes.some((id) => id.startsWith("GET /posts ")));
 * ```
 */
export async function auditApp(
  appDir: string,
  options: AuditAppOptions,
): Promise<AuditReport> {
  const maxDecisions = options.maxDecisions ?? 20_000;
  if (!Number.isInteger(maxDecisions) || maxDecisions < 1) {
    throw new RangeError(
      `Cannot audit: maxDecisions must be a positive integer, got ${
        String(maxDecisions)
      }`,
    );
  }
  // The scanner (its parsers and grammars) only when an audit runs: on
  // npm it is the portcullis-scan package, an optional peer of this one.
  let scanner: typeof import("../../extract/mod.ts");
  try {
    scanner = await import("../../extract/mod.ts");
  } catch (error) {
    throw new Error(
      "Cannot audit: the scanner is not installed (npm install portcullis-scan)",
      { cause: error },
    );
  }
  const { javascriptExtractor, scan } = scanner;
  const scanned = await scan([appDir], { extractors: [javascriptExtractor] });
  const notes = scanned.diagnostics
    .filter((d) => d.severity === "error" || d.budget !== undefined)
    .map((d) => `${d.filePath ? `${d.filePath}: ` : ""}${d.message}`);
  const found = foundRoutes(scanned.ports);

  await using opened = await openPolicy(
    options.modelPath,
    options.policyPath,
    options.functions,
  );
  const model = opened.casbin.getModel();
  const roles = [
    ...new Set([...policyRoles(model), ...(options.roles ?? [])]),
  ].sort();
  const decisions = await decideRoutes(opened, found, roles, maxDecisions);

  const routes: AuditRoute[] = found.map((route) => ({
    ...route,
    allowed: decisions.allowed.get(route.id),
  }));
  const lines = lineNumbers(await readFile(options.policyPath, "utf8"));
  const rules: AuditRule[] = [];
  for (const [type, assertion] of model.model.get("p") ?? []) {
    assertion.policy.forEach((values, index) => {
      const key = keyOf(type, values);
      rules.push({
        rule: policyRule(type, index, values),
        line: lines.get(key)?.shift(),
        routes: [...(decisions.ruleRoutes.get(key) ?? [])],
        dynamicRoutes: [...(decisions.ruleDynamic.get(key) ?? [])],
      });
    });
  }
  rules.sort((a, b) =>
    (a.line ?? Infinity) - (b.line ?? Infinity) ||
    a.rule.type.localeCompare(b.rule.type) || a.rule.index - b.rule.index
  );
  const roleList: AuditRole[] = roles.map((name) => ({
    name,
    routes: routes.filter((r) => r.allowed?.includes(name)).map((r) => r.id),
  }));
  const complete = decisions.complete && notes.length === 0;
  const partial = {
    appDir,
    modelPath: options.modelPath,
    policyPath: options.policyPath,
    revision: opened.revision,
    routes,
    roles: roleList,
    rules,
    complete,
    notes: [...new Set([...notes, ...decisions.notes])],
  };
  return { ...partial, findings: auditFindings(partial) };
}
