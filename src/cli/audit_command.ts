// `portcullis audit <app-dir> --model m.conf --policy p.csv`: the
// application's routes joined with its policy, as text, JSON or SARIF,
// with an exit code for CI.
import {
  auditApp,
  type AuditFinding,
  type AuditFindingKind,
  type AuditReport,
  formatAuditReport,
  toAuditSarif,
} from "../policy/mod.ts";
import { type CliIo, type Command, UsageError } from "./command.ts";
import { parseCommandArgs } from "./_parse_args.ts";

const KINDS: readonly AuditFindingKind[] = [
  "unguarded-route",
  "dead-route",
  "dead-rule",
  "unreachable-role",
  "dynamic-route",
  "auth-only-route",
];

/** The `audit` command. */
export const auditCommand: Command = {
  words: ["audit"],
  synopsis: "<app-dir> --model <m.conf> --policy <p.csv>",
  summary: "join an application's routes with its policy (exit 1 on findings)",
  usage:
    `Usage: portcullis audit <app-dir> --model <m.conf> --policy <p.csv> [options]

Scans the JavaScript/TypeScript source of an application for its routes and
the guard in front of each, decides every permission for every role of the
policy with the guard's own enforcer, and reports: routes with no guard,
routes no role may call (dead routes), rules no route's request matches
(dead rules), roles that can call nothing, and the routes each role can
call. A permission read from the request (AccessSubject) is reported as
dynamic, not evaluated.

Options:
  --model <file>          the casbin model (.conf)
  --policy <file>         the casbin policy (.csv)
  --format <format>       text (default), json, sarif
  --json <file>           also write the JSON report
  --sarif <file>          also write the SARIF 2.1.0 log
  --sarif-root <dir>      the directory SARIF paths are relative to (the
                          repository's root; default: the current one)
  --roles <a,b,...>       roles to audit besides those the policy names
  --fail-on <what>        warnings (default): exit 1 on a warning; any: on
                          any finding, notes too; none; or kinds, comma-
                          separated: unguarded-route, dead-route, dead-rule,
                          unreachable-role, dynamic-route, auth-only-route
  --max-decisions <n>     explanations computed at most (default 20000)
  --strict                exit 3 when the report is incomplete
  -h, --help              show this help

Exit codes: 0 nothing to fail on, 1 findings to fail on, 2 bad arguments, an
application directory that cannot be scanned, or a model or policy that does
not load, 3 an incomplete report with --strict.
`,
  run,
};

function failPredicate(value: string): (finding: AuditFinding) => boolean {
  if (value === "warnings") return (f) => f.level === "warning";
  if (value === "any") return () => true;
  if (value === "none") return () => false;
  const kinds = value.split(",").map((k) => k.trim());
  for (const kind of kinds) {
    if (!(KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(
        `--fail-on must be warnings, any, none or a list of ${
          KINDS.join(", ")
        }, got "${kind}"`,
      );
    }
  }
  return (f) => kinds.includes(f.kind);
}

async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    model: { type: "string" },
    policy: { type: "string" },
    format: { type: "string" },
    json: { type: "string" },
    sarif: { type: "string" },
    roles: { type: "string" },
    "fail-on": { type: "string" },
    "max-decisions": { type: "string" },
    strict: { type: "boolean" },
    "sarif-root": { type: "string" },
  });
  if (typeof values.model !== "string" || typeof values.policy !== "string") {
    throw new UsageError("--model and --policy are required");
  }
  if (positionals.length !== 1) {
    throw new UsageError("expected one application directory");
  }
  const format = values.format ?? "text";
  if (format !== "text" && format !== "json" && format !== "sarif") {
    throw new UsageError(
      `--format must be text, json or sarif, got "${String(format)}"`,
    );
  }
  const fails = failPredicate(String(values["fail-on"] ?? "warnings"));
  let maxDecisions: number | undefined;
  if (values["max-decisions"] !== undefined) {
    maxDecisions = Number(values["max-decisions"]);
    if (!Number.isInteger(maxDecisions) || maxDecisions < 1) {
      throw new UsageError(
        `--max-decisions must be a positive integer, got "${
          values["max-decisions"]
        }"`,
      );
    }
  }
  const roles = typeof values.roles === "string"
    ? values.roles.split(",").map((r) => r.trim()).filter((r) => r !== "")
    : [];
  const report = await auditApp(positionals[0]!, {
    modelPath: values.model,
    policyPath: values.policy,
    roles,
    ...(maxDecisions === undefined ? {} : { maxDecisions }),
  });
  const outputs = renderers(
    report,
    typeof values["sarif-root"] === "string" ? values["sarif-root"] : ".",
  );
  io.stdout(outputs[format]());
  if (typeof values.json === "string") {
    await io.writeFile(values.json, outputs.json());
  }
  if (typeof values.sarif === "string") {
    await io.writeFile(values.sarif, outputs.sarif());
  }
  if (values.strict === true && !report.complete) return 3;
  return report.findings.some(fails) ? 1 : 0;
}

function renderers(
  report: AuditReport,
  root: string,
): Record<"text" | "json" | "sarif", () => string> {
  return {
    text: () => formatAuditReport(report),
    json: () => `${JSON.stringify(report, null, 2)}\n`,
    sarif: () => `${JSON.stringify(toAuditSarif(report, { root }), null, 2)}\n`,
  };
}
