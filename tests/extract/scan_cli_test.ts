import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runScanCli } from "../../src/extract/scan_cli.ts";
import { scan } from "../../src/extract/scan.ts";
import { memoryIo } from "./_cli_memory.ts";
import { makeTree, route } from "./_temp_tree.ts";
import { VERSION } from "../../src/extract/_version.ts";

const MAP = fileURLToPath(new URL("../fixtures/map", import.meta.url));
const base = JSON.stringify(
  (await scan([`${MAP}/users/base/services/users`])).graph,
);
const web = JSON.stringify((await scan([`${MAP}/web/services/web`])).graph);

Deno.test("scan --baseline gates the scanned code against the graph it had before", async () => {
  const io = memoryIo({ "base.json": base, "org/web.json": web });
  const code = await runScanCli([
    "--baseline",
    "base.json",
    "--other",
    "org/web.json",
    "--format",
    "markdown",
    "--out",
    "head.json",
    `${MAP}/users/breaking/services/users`,
  ], io);
  assert.equal(code, 1);
  assert.match(io.out(), /^### :x: Boundary gate failed/);
  assert.match(io.out(), /`http GET \/users\/\{\} -> GET \/members\/\{\}`/);
  // the head graph is still written
  assert.equal(JSON.parse(io.files.get("head.json")!).schema_version, 1);
  const fine = memoryIo({ "base.json": base, "org/web.json": web });
  assert.equal(
    await runScanCli([
      "--baseline",
      "base.json",
      "--other",
      "org/web.json",
      `${MAP}/users/compatible/services/users`,
    ], fine),
    0,
  );
  assert.match(fine.out(), /^Boundary diff: 0 breaking changes/);
});

Deno.test("scan --baseline fails closed (exit 3) when the scan is partial", async () => {
  const io = memoryIo({ "base.json": base });
  const code = await runScanCli([
    "--baseline",
    "base.json",
    "--max-files-per-root",
    "1",
    MAP,
  ], io);
  assert.equal(code, 3);
  assert.match(io.err(), /Cannot vouch for the change: head: the scan hit/);
});

Deno.test("scan --baseline takes only diff formats, and a readable baseline", async () => {
  const io = memoryIo({ "base.json": base });
  assert.equal(
    await runScanCli(["--baseline", "base.json", "--format", "dot", MAP], io),
    2,
  );
  assert.match(
    io.err(),
    /--format must be one of text, json, markdown, sarif with --baseline, got "dot"/,
  );
  const missing = memoryIo();
  assert.equal(await runScanCli(["--baseline", "nope.json", MAP], missing), 2);
  assert.match(missing.err(), /^Cannot read "nope\.json": ENOENT\n$/);
  const plain = memoryIo();
  assert.equal(await runScanCli(["--format", "sarif", MAP], plain), 2);
  assert.match(plain.err(), /--format must be one of text, json, mermaid, dot/);
});

Deno.test("scan --collapse and --mechanism shape the diagrams, and only them", async () => {
  const io = memoryIo();
  assert.equal(
    await runScanCli([
      "--format",
      "dot",
      "--collapse",
      "service",
      "--mechanism",
      "http,grpc",
      MAP,
    ], io),
    0,
  );
  assert.match(io.out(), /^digraph boundaries/);
  const html = memoryIo();
  assert.equal(await runScanCli(["--format", "html", MAP], html), 0);
  assert.match(html.out(), /^<!DOCTYPE html>/);
  for (
    const [args, message] of [
      [["--collapse", "file"], /--collapse must be service/],
      [
        ["--mechanism", "smtp"],
        /--mechanism takes http, grpc, queue, temporal/,
      ],
      [
        ["--collapse", "service", "--format", "text"],
        /apply to the mermaid and dot formats/,
      ],
    ] as const
  ) {
    const bad = memoryIo();
    assert.equal(await runScanCli([...args, MAP], bad), 2);
    assert.match(bad.err(), message);
  }
});

Deno.test("scan --version prints the version of deno.json", async () => {
  const io = memoryIo();
  assert.equal(await runScanCli(["--version"], io), 0);
  const manifest = JSON.parse(
    await Deno.readTextFile(new URL("../../deno.json", import.meta.url)),
  );
  assert.equal(io.out(), `portcullis-scan ${manifest.version}\n`);
  assert.equal(VERSION, manifest.version);
});

Deno.test("scan answers an argument error with one line and where the usage is", async () => {
  for (
    const [args, message] of [
      [["--bogus", MAP], /^Cannot parse arguments: unknown option "--bogus"\n/],
      [["--max-file-bytes", "lots", MAP], /^Cannot parse arguments: /],
      [[], /^Cannot scan: no directory given\n/],
    ] as const
  ) {
    const io = memoryIo();
    assert.equal(await runScanCli(args, io), 2);
    assert.match(io.err(), message);
    assert.match(io.err(), /^[^\n]+\nTry "portcullis-scan --help"\.\n$/);
    assert.equal(io.out(), "");
  }
});

Deno.test("scan says a missing directory is missing, and when a root holds no source file", async () => {
  const missing = memoryIo();
  assert.equal(await runScanCli(["/no/such/portcullis/dir"], missing), 2);
  assert.equal(
    missing.err(),
    'Cannot scan "/no/such/portcullis/dir": no such directory\n',
  );
  const root = await makeTree({ "README.md": "# nothing to scan\n" });
  try {
    const empty = memoryIo();
    assert.equal(await runScanCli([root], empty), 0);
    assert.equal(
      empty.err(),
      `No source files found under "${root}"\nScanned 0 files in 1 root: 0 ports\n`,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("scan reads a root given twice once, and counts and lists the files it leaves out", async () => {
  const root = await makeTree({
    "src/app.ts": route("/a"),
    "src/big.ts": `${route("/big")}//${"x".repeat(2000)}\n`,
    "src/logo.ts": "\u0000\u0001",
    "static/app.min.js": route("/min"),
    "gen/api.go":
      '// Code generated by tool. DO NOT EDIT.\npackage api\nimport "net/http"\nfunc init() { http.HandleFunc("/gen", nil) }\n',
  });
  try {
    const io = memoryIo();
    const args = [
      "--max-file-bytes",
      "1k",
      "--format",
      "json",
      root,
      `${root}/`,
    ];
    assert.equal(await runScanCli(args, io), 0);
    assert.deepEqual(
      JSON.parse(io.out()).unconsumedProviders.map((p: { key: string }) =>
        p.key
      ),
      ["GET /a"],
    );
    assert.match(
      io.err(),
      /\nScanned 1 file in 1 root: 1 port; skipped 4 files \(1 binary, 1 too large, 2 generated\)\n$/,
    );
    assert.doesNotMatch(io.err(), /^skipped: /m);
    const verbose = memoryIo();
    assert.equal(await runScanCli(["--verbose", ...args], verbose), 0);
    const label = root.slice(root.lastIndexOf("/") + 1);
    assert.deepEqual(verbose.err().match(/^skipped: .*$/gm), [
      `skipped: ${label}/gen/api.go (generated)`,
      `skipped: ${label}/src/big.ts (too large)`,
      `skipped: ${label}/src/logo.ts (binary)`,
      `skipped: ${label}/static/app.min.js (generated)`,
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("scan keeps a file an extractor fails on from hiding the others' ports from the gates", async () => {
  const root = await makeTree({
    "client.py": 'import requests\nrequests.get("http://api/missing")\n',
    "deep.py": "def run():\n    name = " + "(".repeat(20_000) + '"x"' +
      ")".repeat(20_000) + "\n    requests.get(name)\n",
  });
  try {
    const gate = memoryIo();
    assert.equal(await runScanCli(["--fail-on-unmatched", root], gate), 1);
    assert.match(
      gate.err(),
      /^error: [^\n]+\/deep\.py: Cannot extract with python: Maximum call stack size exceeded\n/,
    );
    assert.match(gate.err(), /: 1 port; 1 file failed\n1 unmatched consumer/);
    const strict = memoryIo();
    assert.equal(await runScanCli(["--strict", root], strict), 3);
    assert.match(
      strict.err(),
      /the scan is incomplete \(1 error, 0 budget hits\)/,
    );
    assert.equal(await runScanCli([root], memoryIo()), 0);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("scan --strict fails on a file nothing of which could be parsed, never on valid code the grammars lack", async () => {
  const root = await makeTree({
    "src/app.ts": route("/a"),
    "src/types.ts":
      "export interface Box<in out T> { get(): T }\nexport type Get<out T> = () => T;\n",
    "src/names.js": "const _null = null;\nexport { _null as null };\n",
  });
  try {
    const valid = memoryIo();
    assert.equal(await runScanCli(["--strict", root], valid), 0);
    assert.doesNotMatch(valid.err(), /parse/);
    await Deno.writeTextFile(`${root}/src/junk.py`, "}}} ))) ]]] @@@ {{{\n");
    const junk = memoryIo();
    assert.equal(await runScanCli(["--strict", root], junk), 3);
    assert.match(
      junk.err(),
      /^error: [^\n]+\/src\/junk\.py: Cannot parse: syntax error at 1:1, nothing could be read\n/,
    );
    assert.match(junk.err(), /; 1 file failed\n/);
    assert.equal(await runScanCli([root], memoryIo()), 0);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
