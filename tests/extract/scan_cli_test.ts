import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runScanCli } from "../../src/extract/scan_cli.ts";
import { scan } from "../../src/extract/scan.ts";
import { memoryIo } from "./_cli_memory.ts";

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
