import type { BoundaryDiff } from "../boundary/diff.ts";

/**
 * What fails a gate: `breaking` changes (providers removed or changed while
 * consumers use them, consumers that lost their provider), also new
 * `unmatched` consumers, or `any` finding (also new unconsumed providers);
 * `none` only reports.
 *
 * @example
 * ```ts
 * import type { FailOn } from "@portcullis/portcullis/map";
 *
 * const failOn: FailOn = "breaking";
 * ```
 */
export type FailOn = "breaking" | "unmatched" | "any" | "none";

/**
 * The values of {@linkcode FailOn}, strictest last.
 *
 * @example
 * ```ts
 * import { FAIL_ON } from "@portcullis/portcullis/map";
 * import assert from "node:assert/strict";
 *
 * assert.ok(FAIL_ON.includes("unmatched"));
 * ```
 */
export const FAIL_ON: readonly FailOn[] = [
  "none",
  "breaking",
  "unmatched",
  "any",
];

/**
 * A gate's verdict on a diff, with its exit code: `0` passed, `1` failed on
 * findings, `3` could not vouch because an input is partial (a graph that
 * hit a scan budget: the gate fails closed). `none` always gives `0`.
 *
 * @example
 * ```ts
 * import type { GateVerdict } from "@portcullis/portcullis/map";
 *
 * const verdict: GateVerdict = { passed: true, exitCode: 0, reasons: [] };
 * ```
 */
export interface GateVerdict {
  /** Whether the change may go in. */
  passed: boolean;
  /** `0`, `1` or `3`, for a CI job. */
  exitCode: 0 | 1 | 3;
  /** One sentence per reason it failed. */
  reasons: string[];
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/**
 * Judges a diff for a CI gate: fails (exit code 1) on findings at the
 * `failOn` level, and fails closed (exit code 3) on a partial diff unless
 * `failOn` is `none`.
 *
 * @param diff The diff.
 * @param failOn What fails the gate.
 * @returns The verdict.
 * @throws {RangeError} If `failOn` is not one of {@linkcode FAIL_ON}.
 *
 * @example Usage
 * ```ts
 * import { diffPorts } from "@portcullis/portcullis/boundary";
 * import { gateDiff } from "@portcullis/portcullis/map";
 * import assert from "node:assert/strict";
 *
 * const diff = diffPorts({ base: [], head: [{
 *   graph: "web", boundaryId: "b", mechanism: "http", key: "GET /typo", role: "client",
 *   ownerId: "f", owner: "f", service: "web", confidence: 1,
 * }] });
 * assert.equal(gateDiff(diff, "breaking").exitCode, 0);
 * assert.deepEqual(gateDiff(diff, "unmatched"), {
 *   passed: false,
 *   exitCode: 1,
 *   reasons: ["1 new unmatched consumer"],
 * });
 * ```
 */
export function gateDiff(diff: BoundaryDiff, failOn: FailOn): GateVerdict {
  const level = FAIL_ON.indexOf(failOn);
  if (level === -1) {
    throw new RangeError(
      `Cannot judge the diff: failOn must be one of ${
        FAIL_ON.join(", ")
      }, got "${String(failOn)}"`,
    );
  }
  const reasons: string[] = [];
  if (level >= 1) {
    if (diff.breaking.length > 0) {
      reasons.push(count(diff.breaking.length, "breaking provider change"));
    }
    if (diff.lostConsumers.length > 0) {
      const n = diff.lostConsumers.length;
      reasons.push(
        `${count(n, "consumer")} lost ${n === 1 ? "its" : "their"} provider`,
      );
    }
  }
  if (level >= 2 && diff.newUnmatchedConsumers.length > 0) {
    reasons.push(
      count(diff.newUnmatchedConsumers.length, "new unmatched consumer"),
    );
  }
  if (level >= 3 && diff.newUnconsumedProviders.length > 0) {
    reasons.push(
      count(diff.newUnconsumedProviders.length, "new unconsumed provider"),
    );
  }
  if (reasons.length > 0) return { passed: false, exitCode: 1, reasons };
  if (level >= 1 && diff.partial.length > 0) {
    return { passed: false, exitCode: 3, reasons: [...diff.partial] };
  }
  return { passed: true, exitCode: 0, reasons: [] };
}
