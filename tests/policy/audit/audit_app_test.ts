import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { auditApp, type AuditReport } from "../../../src/policy/mod.ts";
import { ScanError } from "../../../src/extract/scan.ts";

const APP = fileURLToPath(
  new URL("../../fixtures/extract/guarded_app", import.meta.url),
);
const EXAMPLES = fileURLToPath(new URL("../../../examples", import.meta.url));

function auditFixture(
  options: { maxDecisions?: number } = {},
): Promise<AuditReport> {
  return auditApp(APP, {
    modelPath: join(APP, "model.conf"),
    policyPath: join(APP, "policy.csv"),
    ...options,
  });
}

/** `<level> <kind> <place>` of each finding, in report order. */
function findingLines(report: AuditReport): string[] {
  return report.findings.map((f) =>
    `${f.level} ${f.kind} ${f.file === report.policyPath ? "policy" : f.file}:${
      f.line ?? "-"
    } ${f.route ?? f.rule ?? f.role}`
  );
}

Deno.test("auditApp() finds unguarded and dead routes, dead rules and a role that reaches nothing", async () => {
  const report = await auditFixture();
  assert.equal(report.complete, true);
  assert.deepEqual(report.notes, []);
  assert.deepEqual(findingLines(report), [
    "note dynamic-route bun.ts:11 ANY /b/drafts/:id (bun.ts:11)",
    "warning dead-route bun.ts:12 ANY /b/stats (bun.ts:12)",
    "warning unguarded-route bun.ts:13 ANY /b/ping (bun.ts:13)",
    "warning unguarded-route express.ts:13 POST /webhooks/payment (express.ts:13)",
    "note auth-only-route hono.ts:15 GET /me (hono.ts:15)",
    "warning dead-route hono.ts:16 GET /stats (hono.ts:16)",
    "warning dead-route hono.ts:18 POST /admin/purge (hono.ts:18)",
    "warning unguarded-route hono.ts:19 GET /health (hono.ts:19)",
    "note auth-only-route patterns.ts:10 ANY /whoami (patterns.ts:10)",
    "warning dead-rule policy:5 p, reader, newsletter, subscribe",
    "warning dead-rule policy:6 p, archivist, archive, restore",
    "warning unreachable-role policy:6 archivist",
  ]);
  assert.equal(
    report.findings.find((f) => f.kind === "dead-route")?.message,
    "ANY /b/stats requires stats, read, which the policy allows no role",
  );
  assert.equal(
    report.findings.find((f) => f.kind === "dynamic-route")?.message,
    'ANY /b/drafts/:id requires <AccessSubject.param("/drafts/:id", "id")>, read, read from the request: not evaluated',
  );
});

Deno.test("auditApp() lists the routes each role can call, through role links", async () => {
  const report = await auditFixture();
  assert.deepEqual(
    Object.fromEntries(report.roles.map((r) => [r.name, r.routes])),
    {
      archivist: [],
      editor: [
        "GET /b/articles (bun.ts:8)",
        "POST /b/articles (bun.ts:9)",
        "GET /articles (hono.ts:11)",
        "POST /articles (hono.ts:12)",
        "POST /comments (hono.ts:17)",
        "ANY /* (node.ts:5)",
        "GET /feed (patterns.ts:7)",
      ],
      moderator: ["DELETE /comments/:id (express.ts:10)"],
      reader: [
        "GET /b/articles (bun.ts:8)",
        "GET /articles (hono.ts:11)",
        "ANY /* (node.ts:5)",
        "GET /feed (patterns.ts:7)",
      ],
    },
  );
  const draft = report.routes.find((r) => r.path === "/b/drafts/:id")!;
  assert.equal(draft.dynamic, true);
  assert.equal(draft.allowed, undefined);
  assert.deepEqual(draft.permissions, [[
    { dynamic: 'AccessSubject.param("/drafts/:id", "id")' },
    "read",
  ]]);
  // a rule only a dynamic route may use is not dead
  assert.deepEqual(
    report.rules.map((r) =>
      `${r.line} ${r.rule.text}: ${r.routes.length} ${r.dynamicRoutes}`
    ),
    [
      "1 p, reader, article, read: 4 ",
      "2 p, editor, article, publish: 2 ",
      "3 p, editor, comment, write: 1 ",
      "4 p, moderator, comment, delete: 1 ",
      "5 p, reader, newsletter, subscribe: 0 ",
      "6 p, archivist, archive, restore: 0 ",
      "8 p, editor, draft, read: 0 ANY /b/drafts/:id (bun.ts:11)",
    ],
  );
  assert.deepEqual(JSON.parse(JSON.stringify(report)).roles, report.roles);
});

Deno.test("auditApp() on examples/: every route guarded and callable, nothing dead", async () => {
  const report = await auditApp(EXAMPLES, {
    modelPath: join(EXAMPLES, "model.conf"),
    policyPath: join(EXAMPLES, "policy.csv"),
  });
  assert.deepEqual(findingLines(report), [
    "note auth-only-route hono.ts:33 GET /me (hono.ts:33)",
    "note auth-only-route jwt_server.ts:96 GET /me (jwt_server.ts:96)",
    "note auth-only-route server.ts:96 GET /me (server.ts:96)",
  ]);
  assert.deepEqual(
    Object.fromEntries(report.roles.map((r) => [r.name, r.routes.length])),
    { admin: 7, editor: 7, viewer: 4 },
  );
  assert.deepEqual(
    report.rules.map((r) => `${r.rule.text}: ${r.routes.length}`),
    [
      "p, admin, post, read: 4",
      "p, admin, post, write: 3",
      "p, editor, post, read: 4",
      "p, editor, post, write: 3",
      "p, viewer, post, read: 4",
    ],
  );
});

Deno.test("auditApp() with extra roles audits them too", async () => {
  const report = await auditApp(EXAMPLES, {
    modelPath: join(EXAMPLES, "model.conf"),
    policyPath: join(EXAMPLES, "policy.csv"),
    roles: ["guest"],
  });
  assert.deepEqual(
    report.findings.filter((f) => f.kind === "unreachable-role").map((f) =>
      f.role
    ),
    ["guest"],
  );
});

Deno.test("auditApp() out of decisions is incomplete and claims no dead rule or role", async () => {
  const report = await auditFixture({ maxDecisions: 3 });
  assert.equal(report.complete, false);
  assert.match(report.notes[0]!, /decision budget of 3 explanations ran out/);
  assert.deepEqual(
    report.findings.filter((f) =>
      f.kind === "dead-rule" || f.kind === "unreachable-role" ||
      f.kind === "dead-route"
    ),
    [],
  );
});

Deno.test("auditApp() refuses a missing directory, bad files and a bad budget", async () => {
  await assert.rejects(
    auditApp(join(APP, "missing"), {
      modelPath: join(APP, "model.conf"),
      policyPath: join(APP, "policy.csv"),
    }),
    ScanError,
  );
  await assert.rejects(
    auditApp(APP, {
      modelPath: join(APP, "model.conf"),
      policyPath: join(APP, "nope.csv"),
    }),
    (error: Error) => error.name === "EnforcerLoadError",
  );
  await assert.rejects(auditFixture({ maxDecisions: 0 }), RangeError);
});
