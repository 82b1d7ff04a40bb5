import assert from "node:assert/strict";
import { diffPorts } from "../../src/boundary/diff.ts";
import type { PortRecord } from "../../src/boundary/port_records.ts";
import { gateDiff } from "../../src/map/gate.ts";

function port(
  role: "server" | "client",
  graph: string,
  key: string,
): PortRecord {
  return {
    graph,
    boundaryId: key,
    mechanism: "http",
    key,
    role,
    ownerId: `${graph}:${role}`,
    owner: role,
    service: graph,
    confidence: 1,
  };
}

const route = port("server", "api", "GET /a");
const caller = port("client", "web", "GET /a");
const typo = port("client", "api", "GET /typo");
const spare = port("server", "api", "GET /spare");

Deno.test("gateDiff() fails at the --fail-on level and above only", () => {
  const diff = diffPorts({
    base: [route],
    head: [typo, spare],
    others: [caller],
  });
  assert.deepEqual(gateDiff(diff, "none"), {
    passed: true,
    exitCode: 0,
    reasons: [],
  });
  assert.deepEqual(gateDiff(diff, "breaking").reasons, [
    "1 breaking provider change",
    "1 consumer lost its provider",
  ]);
  assert.deepEqual(gateDiff(diff, "unmatched").reasons.slice(2), [
    "1 new unmatched consumer",
  ]);
  assert.deepEqual(gateDiff(diff, "any").reasons.slice(3), [
    "1 new unconsumed provider",
  ]);
  const mild = diffPorts({
    base: [route],
    head: [route, typo],
    others: [caller],
  });
  assert.equal(gateDiff(mild, "breaking").exitCode, 0);
  assert.equal(gateDiff(mild, "unmatched").exitCode, 1);
});

Deno.test("gateDiff() fails closed with exit code 3 on a partial diff", () => {
  const diff = diffPorts({
    base: [],
    head: [],
    partial: ["web: the scan hit 1 budget"],
  });
  assert.deepEqual(gateDiff(diff, "breaking"), {
    passed: false,
    exitCode: 3,
    reasons: ["web: the scan hit 1 budget"],
  });
  assert.equal(gateDiff(diff, "none").exitCode, 0);
  // findings come first: they are known whatever else is missing
  const both = diffPorts({
    base: [route],
    head: [],
    others: [caller],
    partial: ["x"],
  });
  assert.equal(gateDiff(both, "breaking").exitCode, 1);
});

Deno.test("gateDiff() rejects an unknown level with RangeError", () => {
  assert.throws(
    () => gateDiff(diffPorts({ base: [], head: [] }), "all" as "any"),
    {
      name: "RangeError",
      message: /failOn must be one of none, breaking, unmatched, any/,
    },
  );
});
