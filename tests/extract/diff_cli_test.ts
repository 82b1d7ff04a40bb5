import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runCli } from "../../src/extract/run_cli.ts";
import { runDiffCli } from "../../src/extract/diff_cli.ts";
import { scan } from "../../src/extract/scan.ts";
import { memoryIo } from "./_cli_memory.ts";
import { ORG_GRAPHS, publishOrg } from "./_org_graphs.ts";
import { freshDatabase, KINDS } from "../_postgres/_databases.ts";

const MAP = fileURLToPath(new URL("../fixtures/map", import.meta.url));
const CLI = fileURLToPath(new URL("../../src/extract/cli.ts", import.meta.url));

async function graphOf(dir: string): Promise<string> {
  return JSON.stringify((await scan([`${MAP}/${dir}`])).graph);
}

const graphs = {
  "base.json": await graphOf("users/base/services/users"),
  "breaking.json": await graphOf("users/breaking/services/users"),
  "compatible.json": await graphOf("users/compatible/services/users"),
  "org/web.json": await graphOf("web/services/web"),
};

Deno.test("diff exits 1 when a change breaks another repository's consumer, with the reports it was asked for", async () => {
  const io = memoryIo(graphs);
  const code = await runCli([
    "diff",
    "base.json",
    "breaking.json",
    "--other",
    "org/web.json",
    "--repo",
    "users",
    "--markdown",
    "out/gate.md",
    "--sarif",
    "out/gate.sarif",
    "--json=out/gate.json",
  ], io);
  assert.equal(code, 1);
  assert.match(
    io.out(),
    /^Boundary diff: 1 breaking change, 1 consumer without provider/,
  );
  assert.match(
    io.out(),
    /used by web .*api\.ts:4:26 {2}loadUser {2}GET \/users\/\{\}/,
  );
  assert.match(
    io.err(),
    /^Gate failed: 1 breaking provider change; 1 consumer lost its provider\n$/,
  );
  assert.match(io.files.get("out/gate.md")!, /^### :x: Boundary gate failed/);
  const sarif = JSON.parse(io.files.get("out/gate.sarif")!);
  assert.equal(sarif.runs[0].results[0].ruleId, "PC001");
  assert.match(
    sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri,
    /tests\/fixtures\/map\/users\/breaking\/services\/users\/app\.py$/,
  );
  assert.equal(JSON.parse(io.files.get("out/gate.json")!).gate.exitCode, 1);
});

Deno.test("diff exits 0 for a compatible change, and for a breaking one with --fail-on none", async () => {
  const ok = memoryIo(graphs);
  assert.equal(
    await runDiffCli([
      "base.json",
      "compatible.json",
      "--other",
      "org/web.json",
    ], ok),
    0,
  );
  assert.match(ok.out(), /0 breaking changes/);
  assert.equal(ok.err(), "");
  const report = memoryIo(graphs);
  assert.equal(
    await runDiffCli([
      "base.json",
      "breaking.json",
      "--other",
      "org/web.json",
      "--fail-on",
      "none",
    ], report),
    0,
  );
  assert.match(report.out(), /1 breaking change/);
  // any: a new route nobody calls fails it
  const strict = memoryIo(graphs);
  assert.equal(
    await runDiffCli([
      "base.json",
      "compatible.json",
      "--other",
      "org/web.json",
      "--fail-on",
      "any",
    ], strict),
    1,
  );
  assert.match(strict.err(), /1 new unconsumed provider/);
});

Deno.test("diff exits 3 when a graph is partial: the gate cannot vouch for it", async () => {
  const partial = JSON.parse(graphs["compatible.json"]);
  partial.metadata.budgets_hit = [{
    budget: "maxFilesPerRoot",
    root: "users",
    file_path: "",
    message: "x",
  }];
  const io = memoryIo({ ...graphs, "partial.json": JSON.stringify(partial) });
  assert.equal(await runDiffCli(["base.json", "partial.json"], io), 3);
  assert.match(
    io.err(),
    /^Cannot vouch for the change: partial: the scan hit 1 budget/,
  );
});

Deno.test("diff exits 2 with one clear line for a graph it cannot read", async () => {
  const cases: [string[], Record<string, string>, RegExp][] = [
    [
      ["base.json", "missing.json"],
      {},
      /^Cannot read "missing\.json": ENOENT\n$/,
    ],
    [
      ["base.json", "bad.json"],
      { "bad.json": "{not json" },
      /^Cannot load "bad\.json": Cannot load graph: invalid JSON/,
    ],
    [
      ["base.json", "v2.json"],
      { "v2.json": '{"schema_version":2}' },
      /^Cannot load "v2\.json": /,
    ],
    [
      ["base.json", "base.json", "--max-graph-bytes", "10"],
      {},
      /^Cannot read "base\.json": more than 10 bytes/,
    ],
    [
      ["base.json", "base.json", "--other", "nope.json"],
      {},
      /^Cannot read "nope\.json": ENOENT/,
    ],
  ];
  for (const [args, files, message] of cases) {
    const io = memoryIo({ ...graphs, ...files });
    assert.equal(await runDiffCli(args, io), 2, args.join(" "));
    assert.match(io.err(), message);
    assert.equal(io.out(), "");
  }
});

Deno.test("diff exits 2 with one line and where its usage is for bad arguments", async () => {
  for (
    const args of [
      ["base.json"],
      ["a", "b", "c"],
      ["--format", "html", "a", "b"],
      ["--fail-on", "all", "a", "b"],
      ["--sarif"],
      ["--nope", "a", "b"],
    ]
  ) {
    const io = memoryIo(graphs);
    assert.equal(await runDiffCli(args, io), 2, args.join(" "));
    assert.match(io.err(), /^[^\n]+\nTry "portcullis-scan diff --help"\.\n$/);
  }
  const help = memoryIo();
  assert.equal(await runDiffCli(["--help"], help), 0);
  assert.match(
    help.out(),
    /^Usage: portcullis-scan diff \[options\] <base\.json> <head\.json>/,
  );
});

Deno.test("diff exits 2 when a report cannot be written", async () => {
  const io = memoryIo(graphs);
  assert.equal(
    await runDiffCli([
      "base.json",
      "compatible.json",
      "--sarif",
      "/unwritable/x.sarif",
    ], io),
    2,
  );
  assert.match(io.err(), /^Cannot write "\/unwritable\/x\.sarif": EACCES/);
});

Deno.test("the diff command runs as a process and reads files from the disk", async () => {
  const dir = await Deno.makeTempDir({ prefix: "portcullis-diff-" });
  try {
    for (const [name, text] of Object.entries(graphs)) {
      await Deno.mkdir(`${dir}/org`, { recursive: true });
      await Deno.writeTextFile(`${dir}/${name}`, text);
    }
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        CLI,
        "diff",
        `${dir}/base.json`,
        `${dir}/breaking.json`,
        "--other",
        `${dir}/org/web.json`,
        "--format",
        "markdown",
        "--sarif",
        `${dir}/reports/gate.sarif`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 1);
    assert.match(
      new TextDecoder().decode(output.stdout),
      /Boundary gate failed/,
    );
    const sarif = JSON.parse(
      await Deno.readTextFile(`${dir}/reports/gate.sarif`),
    );
    assert.equal(sarif.version, "2.1.0");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("diff --min-confidence leaves weaker ports out of the comparison", async () => {
  const weak = JSON.parse(graphs["org/web.json"]);
  for (const relation of weak.relations) {
    if (relation.kind === "consumes") relation.metadata.confidence = 0.4;
  }
  const files = { ...graphs, "org/weak.json": JSON.stringify(weak) };
  const strict = memoryIo(files);
  assert.equal(
    await runDiffCli(
      ["base.json", "breaking.json", "--other", "org/weak.json"],
      strict,
    ),
    1,
  );
  const lenient = memoryIo(files);
  assert.equal(
    await runDiffCli([
      "base.json",
      "breaking.json",
      "--other",
      "org/weak.json",
      "--min-confidence",
      "0.5",
    ], lenient),
    0,
  );
  assert.match(lenient.out(), /0 breaking changes/);
  const bad = memoryIo(files);
  assert.equal(await runDiffCli(["--min-confidence", "2", "a", "b"], bad), 2);
  assert.match(bad.err(), /--min-confidence must be a number from 0 to 1/);
});

for (const { kind, ignore } of KINDS) {
  Deno.test({
    name:
      `diff --db (${kind}) gates a repository's head against what the organisation published`,
    ignore,
    async fn(): Promise<void> {
      await using db = await freshDatabase(kind);
      await publishOrg(db.url);
      const breaking = memoryIo(ORG_GRAPHS);
      assert.equal(
        await runCli([
          "diff",
          "--db",
          db.url,
          "breaking.json",
          "--markdown",
          "gate.md",
        ], breaking),
        1,
      );
      assert.match(
        breaking.out(),
        /^Boundary diff: 1 breaking change, 1 consumer without provider/,
      );
      assert.match(breaking.out(), /used by web .*api\.ts:4:26 {2}loadUser/);
      assert.match(breaking.files.get("gate.md") ?? "", /breaking/i);
      assert.match(breaking.err(), /^Gate failed: 1 breaking provider change/);
      const compatible = memoryIo(ORG_GRAPHS);
      assert.equal(
        await runCli([
          "diff",
          "--db",
          db.url,
          "--repo",
          "users",
          "compatible.json",
        ], compatible),
        0,
        compatible.err(),
      );
      const twoFiles = memoryIo(ORG_GRAPHS);
      assert.equal(
        await runCli(
          ["diff", "--db", db.url, "users.json", "breaking.json"],
          twoFiles,
        ),
        2,
      );
      assert.match(twoFiles.err(), /with --db, expected one <head\.json>/);
    },
  });
}
