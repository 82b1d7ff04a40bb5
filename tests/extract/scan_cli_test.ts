import assert from "node:assert/strict";
import { runScanCli, type ScanCliIo } from "../../src/extract/scan_cli.ts";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { fixturePath } from "./_fixtures.ts";
import { makeTree, route } from "./_temp_tree.ts";

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

Deno.test("runScanCli() passes budget flags to the scan and prints budget hits as warnings", async () => {
  const root = await makeTree({
    "a.ts": route("/a"),
    "b.ts": route("/b"),
    "c.ts": route("/c"),
  });
  try {
    const c = capture();
    assert.equal(
      await runScanCli(["--max-files-per-root", "2", root], c.io),
      0,
    );
    assert.match(
      c.stderr(),
      /^warning: \S+: Cannot scan every file: there are more than 2 source files/,
    );
    assert.match(c.stdout(), /^2 ports .*\nPartial result: 1 budget hit\n/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("runScanCli() --strict exits 3 on a budget hit or a file it could not read", async () => {
  const root = await makeTree({
    "a.ts": route("/a"),
    "big.ts": route("/b") + "// " + "x".repeat(200) + "\n",
  });
  try {
    const c = capture();
    assert.equal(
      await runScanCli(["--strict", "--max-file-bytes", "100", root], c.io),
      3,
    );
    assert.match(c.stderr(), /big\.ts: Cannot scan: file is larger/);
    assert.match(
      c.stderr(),
      /Cannot pass --strict: the scan is incomplete \(0 errors, 1 budget hit\)\n$/,
    );
    const unreadable = capture();
    assert.equal(
      await runScanCli(["--strict", fixturePath("openapi")], unreadable.io),
      3,
    );
    assert.match(unreadable.stderr(), /\(1 error, 0 budget hits\)/);
    const ok = capture();
    assert.equal(await runScanCli(["--strict", WEB, API], ok.io), 0);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("runScanCli() --fail-on-unmatched fails an incomplete scan too (exit 3)", async () => {
  const c = capture();
  assert.equal(
    await runScanCli(["--fail-on-unmatched", fixturePath("openapi")], c.io),
    3,
  );
  assert.match(
    c.stderr(),
    /Cannot pass --fail-on-unmatched: the scan is incomplete/,
  );
});

Deno.test("runScanCli() --max-output-bytes shortens the report and the diagnostics", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++) {
    files[`f${i}.ts`] = `export const f${i} = () => fetch("/missing/${i}");\n`;
    files[`big${i}.ts`] = "// " + "x".repeat(200) + "\n";
  }
  const root = await makeTree(files);
  try {
    const c = capture();
    const code = await runScanCli(
      ["--max-output-bytes", "4k", "--max-file-bytes", "100", root],
      c.io,
    );
    assert.equal(code, 0);
    const bytes = (text: string): number =>
      new TextEncoder().encode(text).length;
    assert.ok(bytes(c.stdout()) <= 4096, `${bytes(c.stdout())} bytes`);
    assert.match(c.stdout(), /^Shortened to 4096 bytes/m);
    assert.ok(bytes(c.stderr()) <= 4096 + 200, `${bytes(c.stderr())} bytes`);
    assert.match(c.stderr(), /\.\.\. and \d+ more diagnostics/);
    assert.match(c.stderr(), /warning: the report was shortened to 4096 bytes/);
    const strict = capture();
    assert.equal(
      await runScanCli(
        ["--strict", "--max-output-bytes", "4096", root],
        strict.io,
      ),
      3,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("runScanCli() checks budget flag values", async () => {
  const cases: Array<[string[], RegExp]> = [
    [
      ["--max-files-per-root", "0", WEB],
      /--max-files-per-root must be an integer from 1, got "0"/,
    ],
    [
      ["--max-bytes-per-root", "12x", WEB],
      /--max-bytes-per-root must be a number of bytes \(an integer, or with k, m or g\), got "12x"/,
    ],
    [
      ["--max-output-bytes", "100", WEB],
      /--max-output-bytes must be at least 1024, got "100"/,
    ],
    [
      ["--max-links-per-boundary=1.5", WEB],
      /--max-links-per-boundary must be an integer from 1, got "1.5"/,
    ],
  ];
  for (const [args, message] of cases) {
    const c = capture();
    assert.equal(await runScanCli(args, c.io), 2, args.join(" "));
    assert.match(c.stderr(), message);
  }
  const ok = capture();
  assert.equal(
    await runScanCli([
      "--max-bytes-per-root",
      "64M",
      "--max-gitignore-bytes=1k",
      "--max-ports-per-root=50",
      WEB,
    ], ok.io),
    0,
  );
});

Deno.test({
  name: "runScanCli() refuses a symlinked root unless --follow-root-symlink",
  ignore: Deno.build.os === "windows",
  async fn(): Promise<void> {
    const base = await makeTree({ "real/a.ts": route("/a") });
    try {
      await Deno.symlink(`${base}/real`, `${base}/link`);
      const c = capture();
      assert.equal(await runScanCli([`${base}/link`], c.io), 2);
      assert.match(c.stderr(), /is a symbolic link .* --follow-root-symlink/);
      const ok = capture();
      assert.equal(
        await runScanCli(["--follow-root-symlink", `${base}/link`], ok.io),
        0,
      );
      assert.match(ok.stdout(), /^1 ports/);
    } finally {
      await Deno.remove(base, { recursive: true });
    }
  },
});

Deno.test("runScanCli() escapes what it prints on stderr and in --out", async () => {
  const root = await makeTree({
    "a\u001b]0;pwned\u0007.ts": "// " + "x".repeat(100) + "\n",
    "b.ts": 'export const y = () => fetch("/\u009b2J\u202e");\n',
  });
  try {
    const c = capture();
    await runScanCli(
      ["--out", "graph.json", "--max-file-bytes", "80", root],
      c.io,
    );
    assert.ok(c.stderr().includes("a\\u001b]0;pwned\\u0007.ts"), c.stderr());
    // deno-lint-ignore no-control-regex
    const unsafe = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/;
    assert.doesNotMatch(c.stderr(), unsafe);
    assert.doesNotMatch(c.stdout(), unsafe);
    const out = c.files.get("graph.json")!;
    assert.doesNotMatch(out, unsafe);
    assert.ok(out.includes("\\u009b2J\\u202e"), out);
    assert.ok(JSON.parse(out).nodes.length > 0);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
