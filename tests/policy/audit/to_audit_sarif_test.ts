import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  auditApp,
  type AuditReport,
  toAuditSarif,
} from "../../../src/policy/mod.ts";
import { sarifProblems } from "../../map/_validators.ts";

const APP = fileURLToPath(
  new URL("../../fixtures/extract/guarded_app", import.meta.url),
);
const REPO = fileURLToPath(new URL("../../../", import.meta.url));

interface Result {
  ruleId: string;
  level: string;
  locations: Array<{
    physicalLocation: {
      artifactLocation: { uri: string; uriBaseId?: string };
      region?: { startLine: number; startColumn?: number };
    };
  }>;
}

async function report(): Promise<AuditReport> {
  return await auditApp(APP, {
    modelPath: join(APP, "model.conf"),
    policyPath: join(APP, "policy.csv"),
  });
}

Deno.test("toAuditSarif() is a valid SARIF 2.1.0 log with a result per finding at its line", async () => {
  const audited = await report();
  const log = toAuditSarif(audited, { root: REPO });
  assert.equal(await sarifProblems(log), null);
  // the validator does reject a log that is not SARIF
  assert.notEqual(
    await sarifProblems({ ...log, runs: [{ results: [] }] }),
    null,
  );
  const run =
    (log.runs as Array<{ results: Result[]; invocations: unknown }>)[0]!;
  assert.deepEqual(
    run.results.map((r) => {
      const at = r.locations[0]!.physicalLocation;
      return `${r.level} ${r.ruleId} ${at.artifactLocation.uri}:${at.region?.startLine}`;
    }),
    [
      "note dynamic-route tests/fixtures/extract/guarded_app/bun.ts:11",
      "warning dead-route tests/fixtures/extract/guarded_app/bun.ts:12",
      "warning unguarded-route tests/fixtures/extract/guarded_app/bun.ts:13",
      "warning unguarded-route tests/fixtures/extract/guarded_app/express.ts:13",
      "note auth-only-route tests/fixtures/extract/guarded_app/hono.ts:15",
      "warning dead-route tests/fixtures/extract/guarded_app/hono.ts:16",
      "warning dead-route tests/fixtures/extract/guarded_app/hono.ts:18",
      "warning unguarded-route tests/fixtures/extract/guarded_app/hono.ts:19",
      "note auth-only-route tests/fixtures/extract/guarded_app/patterns.ts:10",
      "warning dead-rule tests/fixtures/extract/guarded_app/policy.csv:5",
      "warning dead-rule tests/fixtures/extract/guarded_app/policy.csv:6",
      "warning unreachable-role tests/fixtures/extract/guarded_app/policy.csv:6",
    ],
  );
  assert.ok(
    run.results.every((r) =>
      r.locations[0]!.physicalLocation.artifactLocation.uriBaseId ===
        "%SRCROOT%"
    ),
  );
  assert.deepEqual(run.invocations, [{ executionSuccessful: true }]);
});

Deno.test("toAuditSarif() without a root keeps the paths as given; an incomplete report says why", async () => {
  const audited = await auditApp(APP, {
    modelPath: join(APP, "model.conf"),
    policyPath: join(APP, "policy.csv"),
    maxDecisions: 1,
  });
  const log = toAuditSarif(audited);
  assert.equal(await sarifProblems(log), null);
  const run =
    (log.runs as Array<{ results: Result[]; invocations: unknown }>)[0]!;
  const first = run.results[0]!.locations[0]!.physicalLocation.artifactLocation;
  assert.equal(first.uri, `${join(APP, "bun.ts")}`);
  assert.equal(first.uriBaseId, undefined);
  assert.deepEqual(run.invocations, [{
    executionSuccessful: false,
    toolExecutionNotifications: [{
      level: "error",
      message: {
        text:
          "the decision budget of 1 explanations ran out: later routes and rules were not decided",
      },
    }],
  }]);
});

Deno.test("toAuditSarif() of hostile file names is valid and encodes the paths", async () => {
  const audited = await report();
  const hostile: AuditReport = {
    ...audited,
    findings: audited.findings.map((f) => ({
      ...f,
      file: f.route === undefined ? f.file : `we ird/#?%/\ud800${f.file}`,
    })),
  };
  const log = toAuditSarif(hostile, { root: dirname(APP) });
  assert.equal(await sarifProblems(log), null);
  const uri = (log.runs as Array<{ results: Result[] }>)[0]!.results[0]!
    .locations[0]!.physicalLocation.artifactLocation.uri;
  assert.equal(uri, "guarded_app/we%20ird/%23%3F%25/%EF%BF%BDbun.ts");
});
