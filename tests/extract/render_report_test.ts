// What a hostile repository can put in names, keys and messages must not
// reach the terminal, the diagram or the XML as anything but visible text.
import assert from "node:assert/strict";
import { renderReport } from "../../src/extract/render_report.ts";
import { addBoundary } from "../../src/boundary/add_boundary.ts";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { linkGraph } from "../../src/boundary/link.ts";

const UNSAFE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

const EVIL = {
  key: "GET /x\n  http GET /admin  forged.py:1:1  (module)  confidence 1",
  file: "app/\u001b]8;;http://evil.example\u0007click\u001b]8;;\u0007.py",
  owner: "app.py::\u202eresu_teg",
  permission: "\u009b2J\u001b[31mroot",
  root: "web\r&#1;",
  topic: '%%{init: {"theme": "dark"}}%%\n%% the rest is a comment',
};

function hostileGraph(): BoundaryGraph {
  const graph = new BoundaryGraph({
    metadata: {
      "budgets_hit": [{
        budget: "maxLinksPerBoundary",
        root: "",
        "file_path": "",
        message: `Cannot link every pair of http "${EVIL.key}"`,
      }],
    },
  });
  for (const [id, file] of [["srv", EVIL.file], ["cli", "web/c.ts"]] as const) {
    graph.addNode({
      id,
      kind: "function",
      qualifiedName: id === "srv" ? EVIL.owner : "web/c.ts::call",
      name: id,
      filePath: file,
      metadata: { root: EVIL.root },
    });
  }
  const port = { line: 1, col: 1, confidence: 1 } as const;
  addBoundary(graph, "srv", {
    ...port,
    mechanism: "http",
    role: "server",
    key: EVIL.key,
    detail: { permission: EVIL.permission },
  }, { filePath: EVIL.file });
  addBoundary(graph, "cli", {
    ...port,
    mechanism: "http",
    role: "client",
    key: EVIL.key,
    detail: {},
  }, { filePath: "web/c.ts" });
  addBoundary(graph, "cli", {
    ...port,
    mechanism: "queue",
    role: "client",
    key: EVIL.topic,
    detail: {},
  }, { filePath: "web/c.ts" });
  addBoundary(graph, "srv", {
    ...port,
    mechanism: "queue",
    role: "server",
    key: "\u0001&#1;<b>",
    detail: {},
  }, { filePath: EVIL.file });
  linkGraph(graph);
  return graph;
}

const DIAGNOSTICS = [{
  root: "web",
  filePath: "x\u001b[2K.ts",
  severity: "error" as const,
  message: "Cannot read:\n  http GET /forged",
}];

Deno.test("renderReport() text shows control, C1 and bidi characters as \\u escapes and forges no line", () => {
  const text = renderReport(hostileGraph(), { diagnostics: DIAGNOSTICS });
  assert.doesNotMatch(text, UNSAFE);
  assert.ok(!text.includes("\n  http GET /admin"), text);
  assert.ok(text.includes("GET /x\\u000a  http GET /admin"), text);
  assert.ok(text.includes("\\u001b]8;;http://evil.example\\u0007click"), text);
  assert.ok(text.includes("\\u202eresu_teg"), text);
  assert.ok(text.includes("requires \\u009b2J\\u001b[31mroot"), text);
  assert.ok(text.includes("web\\u000d&#1;/"), text);
  assert.ok(
    text.includes("x\\u001b[2K.ts  Cannot read:\\u000a  http GET /forged"),
  );
  assert.match(text, /^Partial result: 1 budget hit/m);
  assert.ok(
    text.includes(
      'maxLinksPerBoundary  Cannot link every pair of http "GET /x\\u000a',
    ),
    text,
  );
});

Deno.test("renderReport() mermaid keeps directives, comments and newlines out of labels", () => {
  const mermaid = renderReport(hostileGraph(), { format: "mermaid" });
  assert.doesNotMatch(mermaid, UNSAFE);
  assert.ok(!mermaid.includes("%%"), mermaid);
  for (const line of mermaid.trimEnd().split("\n")) {
    assert.match(
      line,
      /^(flowchart LR| {2}subgraph g\d+\["[^"]*"\]| {4}n\d+\["[^"]*"\]| {2}end| {2}n\d+ -->\|"[^"]*"\| n\d+| {2}n\d+ -\.->\|"[^"]*"\| u\d+\(\["[^"]*"\]\))$/,
      line,
    );
  }
  assert.ok(mermaid.includes("#37;#37;{init"), mermaid);
});

Deno.test("renderReport() dot escapes control characters and entities so Graphviz writes well-formed XML", () => {
  const dot = renderReport(hostileGraph(), { format: "dot" });
  assert.doesNotMatch(dot, UNSAFE);
  const labels = [...dot.matchAll(/label="((?:[^"\\]|\\.)*)"/g)].map((m) =>
    m[1]!
  );
  assert.ok(labels.length > 3);
  for (const label of labels) {
    // no raw newline, no character reference Graphviz would decode
    assert.ok(!label.includes("\n"), label);
    assert.doesNotMatch(label, /&(?!amp;)/, label);
  }
  assert.ok(dot.includes('label="web\\\\u000d&amp;#1;"'), dot);
});

Deno.test("renderReport() json keeps the values and escapes C1 and bidi characters", () => {
  const json = renderReport(hostileGraph(), {
    format: "json",
    diagnostics: DIAGNOSTICS,
  });
  assert.doesNotMatch(json, UNSAFE);
  const parsed = JSON.parse(json);
  assert.equal(parsed.links[0].consumer.key, EVIL.key);
  assert.equal(parsed.links[0].provider.detail.permission, EVIL.permission);
  assert.equal(parsed.budgetsHit[0].budget, "maxLinksPerBoundary");
});

/** `n` consumers and `n` providers on `n` keys: n links. */
function bigGraph(n: number): BoundaryGraph {
  const graph = new BoundaryGraph();
  for (let i = 0; i < n; i++) {
    for (const side of ["c", "p"]) {
      graph.addNode({
        id: `${side}${i}`,
        kind: "function",
        qualifiedName: `${side}.ts::f${i}`,
        name: `f${i}`,
        metadata: { root: side === "c" ? "web" : "api" },
      });
    }
    const port = {
      mechanism: "http",
      key: `GET /r${i}`,
      line: 1,
      col: 1,
      confidence: 1,
      detail: {},
    } as const;
    addBoundary(graph, `p${i}`, { ...port, role: "server" }, {
      filePath: "p.ts",
    });
    addBoundary(graph, `c${i}`, { ...port, role: "client" }, {
      filePath: "c.ts",
    });
    addBoundary(graph, `c${i}`, {
      ...port,
      role: "client",
      key: `GET /gone${i}`,
    }, { filePath: "c.ts" });
  }
  linkGraph(graph);
  return graph;
}

Deno.test("renderReport() shortens every format to maxBytes and says so", async (t) => {
  const graph = bigGraph(2000);
  const maxBytes = 20_000;
  const bytes = (text: string): number => new TextEncoder().encode(text).length;
  await t.step("text", () => {
    const full = renderReport(graph);
    assert.ok(bytes(full) > maxBytes);
    const text = renderReport(graph, { maxBytes });
    assert.ok(bytes(text) <= maxBytes, `${bytes(text)} bytes`);
    assert.match(text, /^6000 ports .* 2000 links/);
    assert.match(
      text,
      /^Shortened to \d+ bytes: the first \d+ entries of each list/m,
    );
  });
  await t.step("json", () => {
    const json = renderReport(graph, { format: "json", maxBytes });
    assert.ok(bytes(json) <= maxBytes, `${bytes(json)} bytes`);
    const parsed = JSON.parse(json);
    assert.equal(parsed.counts.links, 2000);
    assert.ok(parsed.links.length < 2000 && parsed.links.length > 0);
    assert.equal(parsed.shortened.entriesPerList, parsed.links.length);
  });
  await t.step("mermaid", () => {
    const mermaid = renderReport(graph, { format: "mermaid", maxBytes });
    assert.ok(bytes(mermaid) <= maxBytes, `${bytes(mermaid)} bytes`);
    assert.equal(
      (mermaid.match(/^ {2}subgraph /gm) ?? []).length,
      (mermaid.match(/^ {2}end$/gm) ?? []).length,
    );
  });
  await t.step("dot", () => {
    const dot = renderReport(graph, { format: "dot", maxBytes });
    assert.ok(bytes(dot) <= maxBytes, `${bytes(dot)} bytes`);
    assert.match(dot, /\n\}\n$/);
    assert.match(dot, /^\/\/ shortened to/m);
  });
  await t.step("a report that fits is unchanged", () => {
    const small = bigGraph(3);
    assert.equal(renderReport(small, { maxBytes }), renderReport(small));
  });
});
