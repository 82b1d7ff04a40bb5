import type { Model } from "casbin";
import { readFile } from "node:fs/promises";
import type { CachedFileEnforcerProviderOptions } from "../guard/cached_file_enforcer_provider.ts";
import type { Enforcer } from "../guard/enforcer.ts";
import { policyCoverage } from "./_coverage.ts";
import { openPolicy } from "./_open_policy.ts";
import { subjectValue } from "./_subject.ts";
import { showValue } from "./_term_reason.ts";
import { explain } from "./explain.ts";
import type { Explanation } from "./explanation.ts";
import type { PolicyTestCase, PolicyTestSuite } from "./parse_policy_tests.ts";
import type {
  PolicyTestReport,
  PolicyTestResult,
} from "./policy_test_report.ts";

/**
 * Options for {@linkcode runPolicyTests}.
 *
 * @example
 * ```ts
 * import type { RunPolicyTestsOptions } from "@portcullis/portcullis/policy";
 *
 * const options: RunPolicyTestsOptions = { coverage: true };
 * ```
 */
export interface RunPolicyTestsOptions {
  /**
   * Compute rule coverage (explains every case: a full pass over the
   * policy per case).
   * @default {false}
   */
  coverage?: boolean;
  /**
   * Custom functions the matcher calls, as for
   * `CachedFileEnforcerProvider`.
   * @default {{}}
   */
  functions?: CachedFileEnforcerProviderOptions["functions"];
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The request values after the subject, by position or by name. */
function argsOf(model: Model, args: PolicyTestCase["args"]): unknown[] {
  if (Array.isArray(args)) return args.slice();
  const names = (model.model.get("r")?.get("r")?.tokens ?? [])
    .slice(1)
    .map((token) => token.replace(/^r_/, ""));
  const named = args as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(named)) {
    if (!names.includes(key)) {
      throw new TypeError(
        `Cannot build the request: "${key}" is not a request value of the model (${
          names.join(", ")
        })`,
      );
    }
  }
  return names.map((name) => {
    if (!(name in named)) {
      throw new TypeError(`Cannot build the request: "${name}" is missing`);
    }
    return named[name];
  });
}

function nameOf(testCase: PolicyTestCase): string {
  if (testCase.name !== undefined) return testCase.name;
  const args = Array.isArray(testCase.args)
    ? testCase.args
    : Object.values(testCase.args);
  return `${
    [testCase.subject, ...args].map(showValue).join(", ")
  } -> ${testCase.expect}`;
}

/** Decides one case through the guard's enforcer; explains when asked. */
async function runCase(
  testCase: PolicyTestCase,
  model: Model,
  enforcer: Enforcer,
  explainAll: boolean,
): Promise<PolicyTestResult> {
  const started = performance.now();
  let request: unknown[] = [];
  let actual: "allow" | "deny" | "error";
  let error: string | undefined;
  try {
    request = [
      subjectValue(model, testCase.subject),
      ...argsOf(model, testCase.args),
    ];
    actual = (await enforcer.enforce(...request)) === true ? "allow" : "deny";
  } catch (cause) {
    actual = "error";
    error = message(cause);
  }
  const durationMs = performance.now() - started;
  const passed = actual === testCase.expect;
  let explanation: Explanation | undefined;
  if (actual !== "error" && (explainAll || !passed)) {
    try {
      explanation = await explain(enforcer, ...request);
    } catch {
      explanation = undefined; // casbin decided; the explanation is extra
    }
  }
  return {
    name: nameOf(testCase),
    line: testCase.line,
    request,
    expected: testCase.expect,
    actual,
    passed,
    error,
    explanation,
    durationMs,
  };
}

/**
 * Runs policy test cases with the decision path the guard uses: the model
 * and policy are opened by `CachedFileEnforcerProvider` (validated the same
 * way, not watched), and every case is decided by the enforcer its
 * `getEnforcer()` returns, the index over casbin, with casbin deciding what
 * the index cannot. A failed case carries the explanation of its decision;
 * with `coverage`, every case does, and the report says which rules and
 * role links took part in no decision.
 *
 * @param suite The model and policy paths and the cases.
 * @param options Coverage, and the matcher's custom functions.
 * @returns The report; `failed` counts the cases that did not get the
 * expected decision (errors included).
 * @throws {EnforcerLoadError} When the model or the policy does not load.
 *
 * @example In a test
 * ```ts
 * import { formatPolicyTestReport, runPolicyTests } from "@portcullis/portcullis/policy";
 * import assert from "node:assert/strict";
 * import { mkdtemp, rm, writeFile } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const dir = await mkdtemp(join(tmpdir(), "portcullis-"));
 * await writeFile(join(dir, "model.conf"), `
 * [request_definition]
 * r = sub, obj, act
 * [policy_definition]
 * p = sub, obj, act
 * [policy_effect]
 * e = some(where (p.eft == allow))
 * [matchers]
 * m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
 * `);
 * await writeFile(join(dir, "policy.csv"), "p, editor, post, write\np, viewer, post, read\n");
 *
 * const report = await runPolicyTests({
 *   model: join(dir, "model.conf"),
 *   policy: join(dir, "policy.csv"),
 *   cases: [
 *     { subject: "viewer", args: ["post", "read"], expect: "allow" },
 *     { subject: "viewer", args: ["post", "write"], expect: "deny" },
 *   ],
 * }, { coverage: true });
 * assert.equal(report.failed, 0, formatPolicyTestReport(report));
 * assert.equal(report.coverage?.covered, 1); // "p, editor, post, write" decided nothing
 * await rm(dir, { recursive: true });
 * ```
 */
export async function runPolicyTests(
  suite: PolicyTestSuite,
  options: RunPolicyTestsOptions = {},
): Promise<PolicyTestReport> {
  const started = performance.now();
  await using opened = await openPolicy(
    suite.model,
    suite.policy,
    options.functions,
  );
  const { enforcer } = opened;
  const model = opened.casbin.getModel();
  const coverage = options.coverage === true;
  const results: PolicyTestResult[] = [];
  for (const testCase of suite.cases) {
    results.push(await runCase(testCase, model, enforcer, coverage));
  }
  const passed = results.filter((result) => result.passed).length;
  return {
    model: suite.model,
    policy: suite.policy,
    revision: opened.revision,
    results,
    passed,
    failed: results.length - passed,
    durationMs: performance.now() - started,
    coverage: coverage
      ? policyCoverage(
        model,
        await readFile(suite.policy, "utf8"),
        results.map((result) => result.explanation),
      )
      : undefined,
  };
}
