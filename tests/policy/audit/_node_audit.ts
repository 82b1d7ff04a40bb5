// auditApp() and toAuditSarif() under Node itself: bundled by
// tests/policy/audit/node_test.ts and run as `node audit.mjs <app dir>`.
// Prints one line per check.
import { join } from "node:path";
import process from "node:process";
import { auditApp, toAuditSarif } from "../../../src/policy/mod.ts";

const [app] = process.argv.slice(2) as [string];
const report = await auditApp(app, {
  modelPath: join(app, "model.conf"),
  policyPath: join(app, "policy.csv"),
});
const kinds = report.findings.map((f) => f.kind);
process.stdout.write(
  `routes ${report.routes.length}, findings ${kinds.join(",")}\n`,
);
const log = toAuditSarif(report, { root: app }) as {
  runs: Array<{ results: unknown[] }>;
};
process.stdout.write(`sarif results ${log.runs[0]!.results.length}\n`);
