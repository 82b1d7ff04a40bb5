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
  httpBoundaryKey,
  makeBoundaryId,
} from "portcullis-boundary";
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
} finally {
  await rm(dir, { recursive: true, force: true });
}
console.log(`${runtime}: boundary core, extractors, scan() and the portcullis-scan command work`);
