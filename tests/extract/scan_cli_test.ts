import assert from "node:assert/strict";
import { runScanCli, type ScanCliIo } from "../../src/extract/scan_cli.ts";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { fixturePath } from "./_fixtures.ts";

interface Captured {
  io: ScanCliIo;
  stdout: () => string;
  stderr: () => string;
  files: Map<string, string>;
}

function capture(isTty = false): Captured {
  const out: string[] = [];
  const err: string[] = [];
  const files = new Map<string, string>();
  return {
    io: {
      stdout: (text) => void out.push(text),
      stderr: (text) => void err.push(text),
      isTty,
      writeFile: (path, text) => {
        files.set(path, text);
        return Promise.resolve();
      },
    },
    stdout: () => out.join(""),
    stderr: () => err.join(""),
    files,
  };
}

const WEB = fixturePath("polyglot/web");
const API = fixturePath("polyglot/users-api");

Deno.test("runScanCli() prints the text report and exits 0", async () => {
  const c = capture();
  assert.equal(await runScanCli([WEB, API], c.io), 0);
  assert.match(c.stdout(), /^\d+ ports .* 3 links, 0 unmatched consumers/);
  assert.ok(
    c.stdout().includes("http GET /api/v1/users/{}  confidence 0.76"),
    c.stdout(),
  );
  assert.equal(c.stderr(), "");
});

Deno.test("runScanCli() --out writes the graph as graphlens schema v1", async () => {
  const c = capture();
  assert.equal(await runScanCli(["--out", "graph.json", WEB, API], c.io), 0);
  const document = JSON.parse(c.files.get("graph.json")!);
  assert.equal(document.schema_version, 1);
  const graph = BoundaryGraph.fromJSON(document);
  assert.equal(graph.relationsByKind("communicates_with").length, 3);
});

Deno.test("runScanCli() --format json|mermaid|dot renders that format", async (t) => {
  await t.step("json", async () => {
    const c = capture();
    assert.equal(await runScanCli(["--format=json", WEB, API], c.io), 0);
    const report = JSON.parse(c.stdout());
    assert.equal(report.links.length, 3);
    assert.deepEqual(report.diagnostics, []);
  });
  await t.step("mermaid", async () => {
    const c = capture();
    assert.equal(await runScanCli(["--format", "mermaid", WEB, API], c.io), 0);
    assert.match(c.stdout(), /^flowchart LR\n/);
  });
  await t.step("dot", async () => {
    const c = capture();
    assert.equal(await runScanCli(["--format", "dot", WEB, API], c.io), 0);
    assert.match(c.stdout(), /^digraph boundaries \{/);
  });
});

Deno.test("runScanCli() --fail-on-unmatched exits 1 when a call has no provider", async () => {
  const c = capture();
  assert.equal(await runScanCli(["--fail-on-unmatched", WEB], c.io), 1);
  assert.match(c.stderr(), /^3 unmatched consumer\(s\)\n$/);
  const ok = capture();
  assert.equal(await runScanCli(["--fail-on-unmatched", WEB, API], ok.io), 0);
});

Deno.test("runScanCli() --min-confidence leaves weak pairs unmatched", async () => {
  const c = capture();
  assert.equal(
    await runScanCli([
      "--min-confidence",
      "0.9",
      "--fail-on-unmatched",
      WEB,
      API,
    ], c.io),
    1,
  );
  assert.match(c.stdout(), /1 links, 2 unmatched consumers/);
});

Deno.test("runScanCli() answers bad arguments and missing roots with exit code 2 and a clear message", async (t) => {
  const cases: Array<[string[], RegExp]> = [
    [[], /^Cannot scan: no directory given\n/],
    [
      ["--format", "xml", WEB],
      /^Cannot parse arguments: --format must be one of text, json, mermaid, dot, got "xml"\n/,
    ],
    [
      ["--min-confidence", "2", WEB],
      /^Cannot parse arguments: --min-confidence must be a number from 0 to 1, got "2"\n/,
    ],
    [
      ["--min-confidence"],
      /^Cannot parse arguments: --min-confidence needs a value\n/,
    ],
    [["--bogus", WEB], /^Cannot parse arguments: unknown option "--bogus"\n/],
    [
      ["/no/such/portcullis/root"],
      /^Cannot scan "\/no\/such\/portcullis\/root": ENOENT\n$/,
    ],
  ];
  for (const [args, message] of cases) {
    await t.step(args.join(" ") || "(no arguments)", async () => {
      const c = capture();
      assert.equal(await runScanCli(args, c.io), 2);
      assert.match(c.stderr(), message);
      assert.equal(c.stdout(), "");
    });
  }
});

Deno.test("runScanCli() --help prints usage on stdout", async () => {
  const c = capture();
  assert.equal(await runScanCli(["--help"], c.io), 0);
  assert.match(c.stdout(), /^Usage: scan \[options\] <dir\.\.\.>/);
});

Deno.test("runScanCli() draws a progress bar on stderr only for a terminal", async () => {
  const tty = capture(true);
  await runScanCli([WEB], tty.io);
  assert.match(tty.stderr(), /\[#+\.*\] read web \d+\/\d+/);
  assert.ok(tty.stderr().endsWith("\r\x1b[2K"));
  const pipe = capture(false);
  await runScanCli([WEB], pipe.io);
  assert.equal(pipe.stderr(), "");
  const off = capture(true);
  await runScanCli(["--no-progress", WEB], off.io);
  assert.equal(off.stderr(), "");
});

Deno.test("runScanCli() reports unparsable files on stderr and still exits 0", async () => {
  const c = capture();
  assert.equal(await runScanCli([fixturePath("openapi")], c.io), 0);
  assert.match(
    c.stderr(),
    /^error: openapi\/broken\.yaml: Cannot parse: .* at 5:1\n$/,
  );
  assert.match(c.stdout(), /^5 ports/);
});
