import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runExportCli } from "../../src/extract/export_cli.ts";
import { runCli } from "../../src/extract/run_cli.ts";
import { scan } from "../../src/extract/scan.ts";
import { memoryIo } from "./_cli_memory.ts";

const POLYGLOT = fileURLToPath(
  new URL("../fixtures/extract/polyglot", import.meta.url),
);
const graph = JSON.stringify(
  (await scan(["users-api", "web"].map((s) => `${POLYGLOT}/${s}`))).graph,
);

Deno.test("export writes each format's files under --out-dir", async () => {
  const expected: Record<string, string[]> = {
    backstage: ["out/catalog-info.yaml"],
    cyclonedx: ["out/bom.cdx.json"],
    cypher: ["out/graph.cypher"],
    csv: ["out/nodes.csv", "out/relationships.csv"],
    openapi: ["out/openapi/users-api.json"],
  };
  for (const [format, paths] of Object.entries(expected)) {
    const io = memoryIo({ "shop.json": graph });
    assert.equal(
      await runCli([
        "export",
        "--format",
        format,
        "--out-dir",
        "out",
        "shop.json",
      ], io),
      0,
    );
    assert.deepEqual(
      [...io.files.keys()].filter((p) => p !== "shop.json"),
      paths,
    );
    assert.equal(io.out(), paths.map((p) => `wrote ${p}\n`).join(""));
  }
});

Deno.test("export passes the name, owner, system and version on", async () => {
  const io = memoryIo({ "org/shop.json": graph });
  await runExportCli([
    "--format",
    "backstage",
    "--owner",
    "team-shop",
    "--system",
    "shop",
    "org/shop.json",
  ], io);
  const catalog = io.files.get("catalog-info.yaml")!;
  assert.match(catalog, /"owner": "team-shop"/);
  assert.match(catalog, /"system": "shop"/);
  await runExportCli(["--format", "cyclonedx", "org/shop.json"], io);
  assert.equal(
    JSON.parse(io.files.get("bom.cdx.json")!).metadata.component.name,
    "shop",
  );
  await runExportCli([
    "--format",
    "openapi",
    "--api-version",
    "2.0.0",
    "--name",
    "x",
    "org/shop.json",
  ], io);
  assert.equal(
    JSON.parse(io.files.get("openapi/users-api.json")!).info.version,
    "2.0.0",
  );
});

Deno.test("export exits 2 for bad arguments, an unreadable graph or an unwritable file", async () => {
  const cases: [string[], RegExp][] = [
    [["shop.json"], /--format is required/],
    [
      ["--format", "dot", "shop.json"],
      /--format must be one of backstage, cyclonedx, cypher, csv, openapi/,
    ],
    [["--format", "csv"], /expected one <graph\.json>, got 0/],
    [
      ["--format", "csv", "missing.json"],
      /^Cannot read "missing\.json": ENOENT/,
    ],
    [
      ["--format", "csv", "--out-dir", "/unwritable", "shop.json"],
      /^Cannot write "\/unwritable\/nodes\.csv": EACCES/,
    ],
  ];
  for (const [args, message] of cases) {
    const io = memoryIo({ "shop.json": graph });
    assert.equal(await runExportCli(args, io), 2, args.join(" "));
    assert.match(io.err(), message);
  }
  const help = memoryIo();
  assert.equal(await runExportCli(["-h"], help), 0);
  assert.match(help.out(), /^Usage: portcullis-scan export/);
});
