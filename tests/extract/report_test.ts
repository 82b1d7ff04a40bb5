import assert from "node:assert/strict";
import { buildReport } from "../../src/extract/report.ts";
import { renderReport } from "../../src/extract/render_report.ts";
import { addBoundary } from "../../src/boundary/add_boundary.ts";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { linkGraph } from "../../src/boundary/link.ts";
import type { BoundaryRef } from "../../src/boundary/types.ts";

function port(
  role: "server" | "client",
  key: string,
  extra: Partial<BoundaryRef> = {},
): BoundaryRef {
  return {
    mechanism: "http",
    role,
    key,
    line: 3,
    col: 5,
    confidence: 1,
    detail: { language: role === "server" ? "python" : "typescript" },
    ...extra,
  };
}

/** web::load -> GET /users/{} <- api::get_user; web::save -> POST /gone; api::admin unused. */
function sampleGraph(): BoundaryGraph {
  const graph = new BoundaryGraph();
  const owner = (
    id: string,
    root: string,
    file: string,
    name: string,
  ): void => {
    graph.addNode({
      id,
      kind: "function",
      qualifiedName: `${file}::${name}`,
      name,
      filePath: file,
      metadata: { root },
    });
  };
  owner("web:load", "web", "src/api.ts", "load");
  owner("web:save", "web", "src/api.ts", "save");
  owner("api:get_user", "api", "app/users.py", "get_user");
  owner("api:admin", "api", "app/admin.py", "admin");
  addBoundary(
    graph,
    "api:get_user",
    port("server", "GET /users/{}", { line: 12, col: 1 }),
    {
      filePath: "app/users.py",
    },
  );
  addBoundary(
    graph,
    "api:admin",
    port("server", "DELETE /admin", {
      detail: { language: "python", permission: "admin:manage" },
    }),
    { filePath: "app/admin.py" },
  );
  addBoundary(
    graph,
    "web:load",
    port("client", "GET /users/{}", { confidence: 0.8, line: 10, col: 16 }),
    {
      filePath: "src/api.ts",
    },
  );
  addBoundary(graph, "web:save", port("client", "POST /gone", { line: 20 }), {
    filePath: "src/api.ts",
  });
  linkGraph(graph);
  return graph;
}

Deno.test("buildReport() lists links, unmatched consumers, unconsumed providers and counts", () => {
  const report = buildReport(sampleGraph());
  assert.equal(report.links.length, 1);
  const [link] = report.links;
  assert.equal(link!.key, "GET /users/{}");
  assert.equal(link!.confidence, 0.8);
  assert.deepEqual(
    [
      link!.consumer.owner,
      link!.consumer.root,
      link!.consumer.filePath,
      link!.consumer.line,
      link!.consumer.col,
    ],
    ["src/api.ts::load", "web", "src/api.ts", 10, 16],
  );
  assert.equal(link!.provider.owner, "app/users.py::get_user");
  assert.deepEqual(report.unmatchedConsumers.map((p) => p.key), ["POST /gone"]);
  assert.deepEqual(report.unconsumedProviders.map((p) => p.key), [
    "DELETE /admin",
  ]);
  assert.equal(
    report.unconsumedProviders[0]!.detail.permission,
    "admin:manage",
  );
  assert.deepEqual(report.counts, {
    ports: 4,
    boundaries: 3,
    links: 1,
    byLanguage: {
      python: { servers: 2, clients: 0, links: 0 },
      typescript: { servers: 0, clients: 2, links: 1 },
    },
    byMechanism: { http: { servers: 2, clients: 2, links: 1 } },
  });
});

Deno.test("renderReport() text shows consumer -> provider with key and confidence", () => {
  const text = renderReport(sampleGraph());
  assert.match(
    text,
    /^4 ports \(2 servers, 2 clients\), 1 links, 1 unmatched consumers, 1 unconsumed providers$/m,
  );
  assert.ok(
    text.includes(
      "  http GET /users/{}  confidence 0.8\n    web/src/api.ts:10:16  load\n    -> api/app/users.py:12:1  get_user\n",
    ),
    text,
  );
  assert.ok(
    text.includes(
      "Unmatched consumers (1)\n  http POST /gone  web/src/api.ts:20:5  save  confidence 1\n",
    ),
    text,
  );
  assert.ok(
    text.includes(
      "Unconsumed providers (1)\n  http DELETE /admin  api/app/admin.py:3:5  admin  confidence 1  requires admin:manage\n",
    ),
    text,
  );
  assert.match(text, /^typescript\s+0\s+2\s+1$/m);
});

Deno.test("renderReport() text counts scanned files per language when the graph records them", () => {
  const graph = new BoundaryGraph({
    metadata: { "files_by_language": { python: 4, go: 2 } },
  });
  graph.merge(sampleGraph());
  const report = buildReport(graph);
  assert.deepEqual(report.counts.filesByLanguage, { go: 2, python: 4 });
  const text = renderReport(graph);
  assert.match(text, /^language\s+files\s+servers\s+clients\s+links$/m);
  assert.match(text, /^go\s+2\s+0\s+0\s+0$/m);
  assert.match(text, /^python\s+4\s+2\s+0\s+0$/m);
  assert.match(text, /^typescript\s+0\s+0\s+2\s+1$/m);
});

Deno.test("renderReport() json carries the report and the diagnostics", () => {
  const diagnostics = [{
    root: "web",
    filePath: "x.ts",
    severity: "error" as const,
    message: "Cannot read: EACCES",
  }];
  const parsed = JSON.parse(
    renderReport(sampleGraph(), { format: "json", diagnostics }),
  );
  assert.equal(parsed.links[0].key, "GET /users/{}");
  assert.equal(parsed.unmatchedConsumers[0].key, "POST /gone");
  assert.deepEqual(parsed.diagnostics, diagnostics);
});

Deno.test("renderReport() mermaid draws links and unmatched calls, grouped by root", () => {
  const mermaid = renderReport(sampleGraph(), { format: "mermaid" });
  assert.equal(
    mermaid,
    [
      "flowchart LR",
      '  subgraph g0["web"]',
      '    n0["src/api.ts::load"]',
      '    n2["src/api.ts::save"]',
      "  end",
      '  subgraph g1["api"]',
      '    n1["app/users.py::get_user"]',
      "  end",
      '  n0 -->|"GET /users/{} (0.8)"| n1',
      '  n2 -.->|"POST /gone"| u0(["unmatched http: POST /gone"])',
      "",
    ].join("\n"),
  );
});

Deno.test("renderReport() dot is a Graphviz digraph with quoted labels", () => {
  const dot = renderReport(sampleGraph(), { format: "dot" });
  assert.match(dot, /^digraph boundaries \{\n/);
  assert.ok(dot.includes('subgraph cluster_0 {\n    label="web";'), dot);
  assert.match(dot, /n0 -> n1 \[label="GET \/users\/\{\} \(0\.8\)"\];/);
  assert.match(
    dot,
    /u0 \[shape=ellipse, style=dashed, label="unmatched http: POST \/gone"\];/,
  );
  assert.match(dot, /\}\n$/);
});

Deno.test("renderReport() escapes quotes in diagram labels", () => {
  const graph = new BoundaryGraph();
  graph.addNode({
    id: "a",
    kind: "function",
    qualifiedName: 'a.ts::say"hi"',
    name: "x",
  });
  addBoundary(graph, "a", port("client", "GET /q"));
  assert.match(
    renderReport(graph, { format: "mermaid" }),
    /a\.ts::say#quot;hi#quot;/,
  );
  assert.match(renderReport(graph, { format: "dot" }), /a\.ts::say\\"hi\\"/);
});

Deno.test("renderReport() throws RangeError for an unknown format", () => {
  assert.throws(
    // @ts-expect-error: an unknown format from untyped input
    () => renderReport(new BoundaryGraph(), { format: "xml" }),
    {
      name: "RangeError",
      message: 'Cannot render report: unknown format "xml"',
    },
  );
});
