import assert from "node:assert/strict";
import { type BoundaryDiff, diffPorts } from "../../src/boundary/diff.ts";
import {
  type PortRecord,
  portRecords,
} from "../../src/boundary/port_records.ts";
import { renderDiff } from "../../src/map/diff_report.ts";
import { gateDiff } from "../../src/map/gate.ts";
import { renderDiffMarkdown } from "../../src/map/_diff_markdown.ts";
import { sarifLog } from "../../src/map/_diff_sarif.ts";
import { hasRawControl, HOSTILE, hostileGraph } from "./_graphs.ts";
import { sarifProblems } from "./_validators.ts";

function port(
  role: "server" | "client",
  graph: string,
  key: string,
  owner: string,
  line: number,
): PortRecord {
  return {
    graph,
    boundaryId: key,
    mechanism: "http",
    key,
    role,
    ownerId: `${graph}:${owner}`,
    owner: `${owner}.py::${owner}`,
    service: graph === "shop" ? "users" : graph,
    confidence: 1,
    filePath: `app/${owner}.py`,
    line,
    col: 5,
  };
}

const before = port("server", "shop", "GET /users/{}", "get_user", 12);
const after = port("server", "shop", "GET /members/{}", "get_user", 14);
const caller = port("client", "web", "GET /users/{}", "load", 3);
const inner = port("client", "shop", "GET /users/{}", "profile", 40);
const typo = port("client", "shop", "GET /ordrs", "orders", 8);
const diff = diffPorts({
  base: [before, inner],
  head: [after, inner, typo],
  others: [caller],
});
const roots = { shop: { users: "services/users" } };

Deno.test("renderDiff() text names each change, its consumers and where they are", () => {
  const text = renderDiff(diff, { roots, verdict: gateDiff(diff, "breaking") });
  assert.match(
    text,
    /^Boundary diff: 1 breaking change, 2 consumers without provider, 1 new unmatched consumer, 1 new unconsumed provider/,
  );
  assert.match(
    text,
    /Gate: failed \(1 breaking provider change; 2 consumers lost their provider\)/,
  );
  assert.match(
    text,
    /http GET \/users\/\{\} -> GET \/members\/\{\} {2}\(path changed\) {2}shop services\/users\/app\/get_user\.py:14:5 {2}get_user/,
  );
  assert.match(
    text,
    /used by web web\/app\/load\.py:3:5 {2}load {2}GET \/users\/\{\}/,
  );
  assert.match(
    text,
    /used by shop services\/users\/app\/profile\.py:40:5 {2}profile/,
  );
  assert.match(
    text,
    /New unmatched consumers \(1\)\n {2}http GET \/ordrs {2}shop services\/users\/app\/orders\.py:8:5/,
  );
});

Deno.test("renderDiff() markdown is a pull request comment: verdict, counts, lists", () => {
  const md = renderDiff(diff, {
    format: "markdown",
    roots,
    verdict: gateDiff(diff, "breaking"),
  });
  assert.match(
    md,
    /^### :x: Boundary gate failed: `1 breaking provider change`, `2 consumers lost their provider`\n/,
  );
  assert.match(md, /\| breaking provider changes \| 1 \|/);
  assert.match(
    md,
    /- \*\*path changed\*\*: `http GET \/users\/\{\} -> GET \/members\/\{\}` at `shop` `services\/users\/app\/get_user\.py:14:5` \(`get_user`\), used by:\n {2}- `shop` `services\/users\/app\/profile\.py:40:5` \(`profile`\) `GET \/users\/\{\}`\n {2}- `web` `web\/app\/load\.py:3:5` \(`load`\) `GET \/users\/\{\}`/,
  );
  const passed = renderDiff(diffPorts({ base: [], head: [] }), {
    format: "markdown",
    verdict: { passed: true, exitCode: 0, reasons: [] },
  });
  assert.match(passed, /^### :white_check_mark: Boundary gate passed/);
});

Deno.test("renderDiff() markdown cut at a limit counts what each list and each change's consumers leave out", () => {
  const md = renderDiffMarkdown(diff, { roots, verdict: undefined, limit: 1 });
  assert.match(
    md,
    /\(`get_user`\), used by:\n {2}- `shop` `services\/users\/app\/profile\.py:40:5` \(`profile`\) `GET \/users\/\{\}`\n {2}- \.\.\. and 1 more\n/,
  );
  assert.match(
    md,
    /#### Consumers that lost their provider\n\n- `http GET \/users\/\{\}` at `shop` `services\/users\/app\/profile\.py:40:5` \(`profile`\)\n- \.\.\. and 1 more\n/,
  );
  assert.match(
    md,
    /#### New unmatched consumers\n\n- `http GET \/ordrs` at `shop` `services\/users\/app\/orders\.py:8:5` \(`orders`\)\n\n/,
  );
  assert.doesNotMatch(
    renderDiffMarkdown(diff, { roots, verdict: undefined, limit: undefined }),
    /and \d+ more/,
  );
});

Deno.test("renderDiff() sarif says of each port finding what is missing, and keeps to the limit", () => {
  const messages = (limit: number | undefined): [string, string][] =>
    (sarifLog(diff, { roots, verdict: undefined, limit, repository: "shop" })
      .runs as { results: { ruleId: string; message: { text: string } }[] }[])[
        0
      ]!
      .results.map((r) => [r.ruleId, r.message.text]);
  const ports: [string, string][] = [
    ["PC002", "http GET /users/{}: nothing provides it any more"],
    ["PC003", "http GET /ordrs: nothing provides it"],
    ["PC004", "http GET /members/{}: nothing consumes it"],
  ];
  assert.deepEqual(messages(undefined).slice(1), ports);
  assert.deepEqual(messages(0), []);
  assert.deepEqual(messages(1).slice(1), ports);
});

/** The Markdown with every code span removed. */
function outsideCode(md: string): string {
  return md.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, "");
}

/** Every hostile route removed while the hostile callers stay. */
function hostileDiff(): BoundaryDiff {
  const ports = portRecords(hostileGraph(), "repo");
  return diffPorts({
    base: ports,
    head: ports.filter((p) => p.role === "client"),
  });
}

Deno.test("renderDiff() markdown keeps every hostile name inside a code span", () => {
  const diff = hostileDiff();
  assert.equal(diff.breaking.length, HOSTILE.length);
  const md = renderDiff(diff, { format: "markdown" });
  const bare = outsideCode(md);
  for (
    const char of [
      "<script",
      "[link]",
      "@here",
      "\u202e",
      "\u001b",
      "\r",
      "| not",
    ]
  ) {
    assert.ok(
      !bare.includes(char),
      `${JSON.stringify(char)} outside a code span`,
    );
  }
  // one line per entry: no value breaks out of its line
  for (const line of md.split("\n")) {
    assert.ok(!hasRawControl(line));
  }
  assert.ok(md.includes("```x`y``z/x`y``z.ts:2:1```"));
  // text: the same names, escaped
  const text = renderDiff(diff);
  assert.ok(!hasRawControl(text));
  assert.match(text, /bidi\\u202eevil/);
});

Deno.test("renderDiff() sarif is a valid SARIF 2.1.0 log with a result per finding here", async () => {
  const log = JSON.parse(
    renderDiff(diff, { format: "sarif", repository: "shop", roots }),
  );
  assert.equal(await sarifProblems(log), null);
  // the validator does reject a log that is not SARIF
  assert.notEqual(
    await sarifProblems({ ...log, runs: [{ results: [] }] }),
    null,
  );
  const results = log.runs[0].results as {
    ruleId: string;
    level: string;
    message: { text: string };
    locations: {
      physicalLocation: {
        artifactLocation: { uri: string };
        region: { startLine: number };
      };
    }[];
  }[];
  assert.deepEqual(
    results.map((
      r,
    ) => [
      r.ruleId,
      r.level,
      r.locations[0]!.physicalLocation.artifactLocation.uri,
      r.locations[0]!.physicalLocation.region.startLine,
    ]),
    [
      ["PC001", "error", "services/users/app/get_user.py", 14],
      ["PC002", "error", "services/users/app/profile.py", 40],
      ["PC003", "warning", "services/users/app/orders.py", 8],
      ["PC004", "note", "services/users/app/get_user.py", 14],
    ],
  );
  // the consumer in another repository is named in the message only
  assert.match(results[0]!.message.text, /web web\/app\/load\.py:3:5 \(load\)/);
});

Deno.test("renderDiff() sarif of hostile names is valid and encodes the paths", async () => {
  const text = renderDiff(hostileDiff(), {
    format: "sarif",
    repository: "repo",
  });
  assert.ok(!hasRawControl(text));
  const log = JSON.parse(text);
  assert.equal(await sarifProblems(log), null);
  assert.equal(log.runs[0].results.length, HOSTILE.length * 2);
  for (const result of log.runs[0].results) {
    const uri: string =
      result.locations[0].physicalLocation.artifactLocation.uri;
    assert.ok(!/[\s#?<>`"\\]/.test(uri), uri);
  }
});

Deno.test("renderDiff() json holds the whole diff and the verdict", () => {
  const verdict = gateDiff(diff, "any");
  const json = JSON.parse(renderDiff(diff, { format: "json", verdict }));
  assert.deepEqual(json.gate, verdict);
  assert.deepEqual(json.breaking, JSON.parse(JSON.stringify(diff.breaking)));
  assert.deepEqual(json.counts, { base: 2, head: 3, others: 1 });
});

Deno.test("renderDiff() shortens every list to fit maxLength, counts stay whole", () => {
  const many: PortRecord[] = [];
  for (let i = 0; i < 400; i++) {
    many.push(port("client", "shop", `GET /gone/${i}x`, `f${i}`, i + 1));
  }
  const big = diffPorts({ base: [], head: many });
  for (const format of ["text", "markdown", "json", "sarif"] as const) {
    const full = renderDiff(big, { format });
    const cut = renderDiff(big, { format, maxLength: 4096 });
    assert.ok(full.length > 4096);
    assert.ok(cut.length <= 4096, `${format}: ${cut.length}`);
    if (format === "text") assert.match(cut, /New unmatched consumers \(400\)/);
    if (format === "markdown") {
      assert.match(cut, /\| new unmatched consumers \| 400 \|/);
    }
  }
  assert.throws(() => renderDiff(big, { maxLength: 10 }), RangeError);
  assert.throws(() => renderDiff(big, { format: "xml" as "text" }), {
    name: "RangeError",
    message: /unknown format "xml"/,
  });
});
