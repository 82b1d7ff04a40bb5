// Runs under Node and Bun against the installed `portcullis-boundary` and
// `portcullis-scan` packages: the boundary core, the extractors with their
// WASM grammars, a graph built by the scanner and merged with one of the
// boundary core (one BoundaryGraph class across both packages), and the
// portcullis-scan command.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BoundaryGraph,
  diffGraphs,
  httpBoundaryKey,
  makeBoundaryId,
} from "portcullis-boundary";
import { exportGraph, gateDiff, renderDiff } from "portcullis-boundary/map";
import { javascriptExtractor, scan } from "portcullis-scan";

const runtime = typeof Bun === "undefined" ? `node ${process.version}` : `bun ${Bun.version}`;

assert.equal(httpBoundaryKey("get", "/users/:id/"), "GET /users/{}");
assert.match(makeBoundaryId("http", "GET /users/{}"), /^[0-9a-f]{16}$/);

const SERVER = 'import express from "express";\nconst app = express();\napp.get("/users/:id", (req, res) => res.end());\n';
const extracted = await javascriptExtractor.extract([{ path: "server.ts", text: SERVER }]);
assert.deepEqual(extracted.ports.map((port) => port.ref.key), ["GET /users/{}"]);

const dir = await mkdtemp(join(tmpdir(), "portcullis-scan-"));
try {
  await writeFile(join(dir, "server.ts"), SERVER);
  const result = await scan([dir]);
  assert.ok(result.graph instanceof BoundaryGraph, "the scanner's graph is the boundary core's class");
  new BoundaryGraph().merge(result.graph);

  const bin = join("node_modules", ".bin", "portcullis-scan");
  // Under Node, the executable itself (its #!/usr/bin/env node line); under
  // Bun, the same file run by bun.
  const [command, args] = typeof Bun === "undefined" ? [bin, [dir]] : [process.execPath, [bin, dir]];
  const output = execFileSync(command, args, { encoding: "utf8" });
  assert.match(output, /GET \/users\/\{\}/);

  // The map: a diff of the scan against an empty base, its gate, an export.
  const diff = diffGraphs(new BoundaryGraph(), result.graph, { name: "shop" });
  assert.equal(diff.newUnconsumedProviders.length, 1);
  assert.equal(gateDiff(diff, "any").exitCode, 1);
  assert.match(renderDiff(diff, { format: "sarif" }), /"version": "2\.1\.0"/);
  assert.deepEqual(exportGraph(result.graph, { format: "openapi" }).map((f) => f.path).length, 1);

  // The diff and export commands, on files.
  const base = join(dir, "base.json");
  const head = join(dir, "head.json");
  await writeFile(base, JSON.stringify(new BoundaryGraph()));
  await writeFile(head, JSON.stringify(result.graph));
  const cli = (more) => typeof Bun === "undefined" ? [bin, more] : [process.execPath, [bin, ...more]];
  const [diffCommand, diffArgs] = cli(["diff", base, head, "--fail-on", "any", "--sarif", join(dir, "gate.sarif")]);
  let failed;
  try {
    execFileSync(diffCommand, diffArgs, { encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    failed = error;
  }
  assert.equal(failed?.status, 1, "the gate fails on a new unconsumed provider");
  assert.match(failed.stdout, /1 new unconsumed provider/);
  const [htmlCommand, htmlArgs] = cli(["--format", "html", "--no-progress", dir]);
  assert.match(execFileSync(htmlCommand, htmlArgs, { encoding: "utf8" }), /^<!DOCTYPE html>[\s\S]*Content-Security-Policy/);
  const [exportCommand, exportArgs] = cli(["export", "--format", "cyclonedx", "--out-dir", join(dir, "out"), head]);
  assert.match(execFileSync(exportCommand, exportArgs, { encoding: "utf8" }), /wrote .*bom\.cdx\.json/);

  // The organisation store (PGlite in a directory), from the command.
  const db = `pglite:${join(dir, "org")}`;
  const [publishCommand, publishArgs] = cli(["publish", "--db", db, "--repo", "shop", head]);
  assert.match(execFileSync(publishCommand, publishArgs, { encoding: "utf8" }), /^Published shop: 1 ports/);
  const [queryCommand, queryArgs] = cli(["query", "--db", db, "providers", "http", "GET /users/{}"]);
  assert.match(execFileSync(queryCommand, queryArgs, { encoding: "utf8" }), /^shop {2}.*GET \/users\/\{\}/);
} finally {
  await rm(dir, { recursive: true, force: true });
}
console.log(`${runtime}: boundary core, map, extractors, scan() and the portcullis-scan scan (text and html), diff, export, publish and query commands work`);
