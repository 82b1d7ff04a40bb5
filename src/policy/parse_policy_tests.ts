import { isSeq, LineCounter, parseDocument } from "yaml";
import { PolicyTestError } from "./policy_test_error.ts";

/**
 * One policy test case: a request and the decision it must get.
 *
 * @example
 * ```ts
 * import type { PolicyTestCase } from "@portcullis/portcullis/policy";
 *
 * const cases: PolicyTestCase[] = [
 *   { name: "viewers read posts", subject: "viewer", args: ["post", "read"], expect: "allow" },
 *   { subject: { role: "viewer" }, args: { obj: "post", act: "write" }, expect: "deny" },
 * ];
 * ```
 */
export interface PolicyTestCase {
  /**
   * A name for reports.
   * @default {the subject, the arguments and the expectation}
   */
  readonly name?: string | undefined;
  /**
   * The subject (`r.sub`): an object as it is, or a string, mapped as the
   * model reads `r.sub`: the string itself when the matchers use `r.sub`
   * whole, `{ role: "editor" }` when they read one attribute of it
   * (`r.sub.role`).
   */
  readonly subject: unknown;
  /**
   * The request values after the subject, in the order of the model's
   * request definition, or by name (`{ obj: "post", act: "write" }`).
   */
  readonly args: readonly unknown[] | Readonly<Record<string, unknown>>;
  /** The decision the request must get. */
  readonly expect: "allow" | "deny";
  /** The case's line in the cases file, when read from one. */
  readonly line?: number | undefined;
}

/**
 * A set of policy test cases and the model and policy files they test.
 *
 * @example
 * ```ts
 * import type { PolicyTestSuite } from "@portcullis/portcullis/policy";
 *
 * const suite: PolicyTestSuite = {
 *   model: "./model.conf",
 *   policy: "./policy.csv",
 *   cases: [{ subject: "viewer", args: ["post", "read"], expect: "allow" }],
 * };
 * ```
 */
export interface PolicyTestSuite {
  /** Path of the casbin model file. */
  readonly model: string;
  /** Path of the casbin policy file. */
  readonly policy: string;
  /** The cases, in order. */
  readonly cases: readonly PolicyTestCase[];
}

/**
 * Options for {@linkcode parsePolicyTests}.
 *
 * @example
 * ```ts
 * import type { ParsePolicyTestsOptions } from "@portcullis/portcullis/policy";
 *
 * const options: ParsePolicyTestsOptions = { source: "policy_tests.yaml" };
 * ```
 */
export interface ParsePolicyTestsOptions {
  /**
   * Where the text comes from, for error messages.
   * @default {"policy tests"}
   */
  source?: string;
}

const SUITE_KEYS = ["model", "policy", "cases"];
const CASE_KEYS = ["name", "subject", "args", "expect"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses a policy test file: YAML (or JSON, which YAML reads too) with the
 * model and policy paths and a list of cases. Unknown keys are refused, so
 * that a misspelt `expect` cannot silently skip a check.
 *
 * ```yaml
 * model: model.conf
 * policy: policy.csv
 * cases:
 *   - name: viewers read posts
 *     subject: viewer
 *     args: [post, read]
 *     expect: allow
 * ```
 *
 * @param text The file's text.
 * @param options Where the text comes from, for error messages.
 * @returns The suite, with paths as written (see `readPolicyTests` for
 * paths relative to the file).
 * @throws {PolicyTestError} `CASES_INVALID` for text that does not parse or
 * does not have this shape.
 *
 * @example
 * ```ts
 * import { parsePolicyTests } from "@portcullis/portcullis/policy";
 * import assert from "node:assert/strict";
 *
 * const suite = parsePolicyTests(`
 * model: model.conf
 * policy: policy.csv
 * cases:
 *   - subject: viewer
 *     args: [post, read]
 *     expect: allow
 * `);
 * assert.equal(suite.cases[0]?.expect, "allow");
 * assert.equal(suite.cases[0]?.line, 5);
 * ```
 */
export function parsePolicyTests(
  text: string,
  options: ParsePolicyTestsOptions = {},
): PolicyTestSuite {
  const source = options.source ?? "policy tests";
  const fail = (detail: string): never => {
    throw new PolicyTestError(
      "CASES_INVALID",
      `Cannot read ${source}: ${detail}`,
    );
  };
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  if (document.errors.length > 0) {
    const error = document.errors[0]!;
    const at = error.linePos?.[0];
    fail(
      `${at === undefined ? "" : `line ${at.line}: `}${
        error.message.split("\n")[0]
      }`,
    );
  }
  let root: unknown;
  try {
    root = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (!isRecord(root)) fail("expected a mapping with model, policy and cases");
  const suite = root as Record<string, unknown>;
  for (const key of Object.keys(suite)) {
    if (!SUITE_KEYS.includes(key)) {
      fail(`unknown key "${key}" (expected ${SUITE_KEYS.join(", ")})`);
    }
  }
  for (const key of ["model", "policy"]) {
    if (typeof suite[key] !== "string" || suite[key] === "") {
      fail(`"${key}" must be the path of the ${key} file`);
    }
  }
  const cases = suite.cases;
  if (!Array.isArray(cases) || cases.length === 0) {
    fail('"cases" must be a non-empty list');
  }
  const items = document.get("cases", true);
  const lineOf = (index: number): number | undefined => {
    const item = isSeq(items) ? items.items[index] : undefined;
    const offset = (item as { range?: [number] } | undefined)?.range?.[0];
    return offset === undefined ? undefined : lineCounter.linePos(offset).line;
  };
  return {
    model: suite.model as string,
    policy: suite.policy as string,
    cases: (cases as unknown[]).map((item, index) => {
      const line = lineOf(index);
      const where = `case ${index + 1}${
        line === undefined ? "" : ` (line ${line})`
      }`;
      return parseCase(item, line, (detail) => fail(`${where}: ${detail}`));
    }),
  };
}

function parseCase(
  item: unknown,
  line: number | undefined,
  fail: (detail: string) => never,
): PolicyTestCase {
  if (!isRecord(item)) fail("expected a mapping with subject, args and expect");
  const entry = item as Record<string, unknown>;
  for (const key of Object.keys(entry)) {
    if (!CASE_KEYS.includes(key)) {
      fail(`unknown key "${key}" (expected ${CASE_KEYS.join(", ")})`);
    }
  }
  const { name, subject, expect } = entry;
  const args = entry.args ?? [];
  if (name !== undefined && typeof name !== "string") {
    fail('"name" must be a string');
  }
  if (typeof subject !== "string" && !isRecord(subject)) {
    fail('"subject" must be a string or a mapping');
  }
  if (!Array.isArray(args) && !isRecord(args)) {
    fail('"args" must be a list, or a mapping from request names to values');
  }
  if (expect !== "allow" && expect !== "deny") {
    fail(`"expect" must be "allow" or "deny", got ${JSON.stringify(expect)}`);
  }
  return {
    name: name as string | undefined,
    subject,
    args: args as PolicyTestCase["args"],
    expect: expect as "allow" | "deny",
    line,
  };
}
