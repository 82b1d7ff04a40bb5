import { readFile, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import {
  parsePolicyTests,
  type PolicyTestSuite,
} from "./parse_policy_tests.ts";
import { PolicyTestError } from "./policy_test_error.ts";

/** The largest cases file read: far beyond any hand-written suite. */
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * Reads a policy test file (YAML or JSON, see `parsePolicyTests`) and
 * resolves its model and policy paths against the file's directory.
 *
 * @param path The cases file.
 * @returns The suite, with absolute model and policy paths.
 * @throws {PolicyTestError} `CASES_UNREADABLE` for a missing, unreadable
 * or oversized file (over 16 MiB), `CASES_INVALID` for one that does not
 * parse or has the wrong shape.
 *
 * @example
 * ```ts
 * import { readPolicyTests } from "@portcullis/portcullis/policy";
 * import { mkdtemp, rm, writeFile } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import assert from "node:assert/strict";
 *
 * const dir = await mkdtemp(join(tmpdir(), "portcullis-"));
 * await writeFile(join(dir, "cases.yaml"), `
 * model: model.conf
 * policy: policy.csv
 * cases:
 *   - { subject: viewer, args: [post, read], expect: allow }
 * `);
 * const suite = await readPolicyTests(join(dir, "cases.yaml"));
 * assert.equal(suite.model, join(dir, "model.conf"));
 * await rm(dir, { recursive: true });
 * ```
 */
export async function readPolicyTests(path: string): Promise<PolicyTestSuite> {
  let text: string;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error("not a file");
    if (info.size > MAX_BYTES) {
      throw new Error(`larger than ${MAX_BYTES / 1024 / 1024} MiB`);
    }
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new PolicyTestError(
      "CASES_UNREADABLE",
      `Cannot read policy tests "${path}": ${
        error instanceof Error ? error.message : String(error)
      }`,
      { cause: error },
    );
  }
  const suite = parsePolicyTests(text, { source: `policy tests "${path}"` });
  const base = dirname(resolve(path));
  return {
    ...suite,
    model: resolve(base, suite.model),
    policy: resolve(base, suite.policy),
  };
}
