// The policy tooling and the decision log under Node itself: bundled by
// tests/policy/node_test.ts and run as `node checks.mjs <casbin examples
// dir> <policy test fixtures dir>`. Prints one line per check; exits 1 on
// the first failure.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { newEnforcer } from "casbin";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import {
  bearerUserProvider,
  CachedFileEnforcerProvider,
  type DecisionEvent,
  PermissionGuard,
} from "../../src/guard/mod.ts";
import { traceDecisions } from "../../src/guard/otel/mod.ts";
import {
  explain,
  parsePolicyTests,
  runPolicyTests,
  toJUnitXml,
} from "../../src/policy/mod.ts";
import { decide, requestsFor } from "../fixtures/casbin_example_requests.ts";

const [examples, fixtures] = process.argv.slice(2) as [string, string];
const STOCK = [
  ["rbac.yaml", "rbac_model.conf", "rbac_policy.csv"],
  [
    "rbac_with_deny.yaml",
    "rbac_with_deny_model.conf",
    "rbac_with_deny_policy.csv",
  ],
  [
    "rbac_with_domains.yaml",
    "rbac_with_domains_model.conf",
    "rbac_with_domains_policy.csv",
  ],
  ["keymatch.yaml", "keymatch_model.conf", "keymatch_policy.csv"],
] as const;

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

for (const [cases, model, policy] of STOCK) {
  const modelPath = join(examples, model);
  const policyPath = join(examples, policy);
  const casbin = await newEnforcer(modelPath, policyPath);
  const requests = requestsFor(
    { model, policy },
    await readFile(modelPath, "utf8"),
    await readFile(policyPath, "utf8"),
  );
  for (const values of requests) {
    const expected = await decide((...v) => casbin.enforce(...v), values);
    assert.equal((await explain(casbin, ...values)).allowed, expected);
  }
  print(`explain ${model}: ${requests.length} decisions as casbin`);

  const suite = parsePolicyTests(await readFile(join(fixtures, cases), "utf8"));
  const report = await runPolicyTests(
    { ...suite, model: modelPath, policy: policyPath },
    { coverage: true },
  );
  assert.equal(report.failed, 0);
  assert.equal(report.coverage?.covered, report.coverage?.total);
  assert.match(toJUnitXml(report), /^<\?xml version="1\.0"/);
  print(`policy test ${cases}: ${report.passed} passed, full coverage`);
}

// The decision log and a trace span per decision.
const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
}).getTracer("node");
const trace = traceDecisions({ tracer });
const events: DecisionEvent<string>[] = [];
await using provider = await CachedFileEnforcerProvider.open({
  modelPath: join(examples, "rbac_model.conf"),
  policyPath: join(examples, "rbac_policy.csv"),
  watch: false,
  pollIntervalMs: 0,
});
const guard = new PermissionGuard<string>({
  userProvider: (request) => bearerUserProvider(request).role ?? "",
  enforcerProvider: provider,
  onDecision: (event) => {
    events.push(event);
    trace(event);
  },
});
const handler = guard.requirePermission("data2", "write")(() =>
  new Response("ok")
);
for (const role of ["alice", "bob", "carol"]) {
  await handler(
    new Request("http://localhost/data2", {
      headers: { authorization: `Bearer ${role}` },
    }),
  );
}
assert.deepEqual(events.map((e) => e.result), ["allow", "allow", "deny"]);
assert.equal(await events[0]!.decidingRule(), "p, data2_admin, data2, write");
assert.equal(events[0]!.revision, provider.revision);
assert.equal(exporter.getFinishedSpans().length, 3);
print("onDecision: 3 events, 3 spans");
