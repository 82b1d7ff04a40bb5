import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliIo } from "../../src/cli/command.ts";
import { runPortcullis } from "../../src/cli/run_portcullis.ts";

const APP = fileURLToPath(
  new URL("../fixtures/extract/guarded_app", import.meta.url),
);
const EXAMPLES = fileURLToPath(new URL("../../examples", import.meta.url));

interface Run {
  code: number;
  out: string;
  err: string;
  files: Map<string, string>;
}

async function audit(dir: string, ...rest: string[]): Promise<Run> {
  const run: Run = { code: 0, out: "", err: "", files: new Map() };
  const io: CliIo = {
    stdout: (text) => void (run.out += text),
    stderr: (text) => void (run.err += text),
    writeFile: (path, text) => {
      run.files.set(path, text);
      return Promise.resolve();
    },
  };
  run.code = await runPortcullis([
    "audit",
    dir,
    "--model",
    join(dir, "model.conf"),
    "--policy",
    join(dir, "policy.csv"),
    ...rest,
  ], io);
  return run;
}

Deno.test("portcullis audit exits 1 on warnings and prints findings and routes by role", async () => {
  const { code, out, err } = await audit(APP);
  assert.equal(err, "");
  assert.equal(code, 1);
  assert.match(
    out,
    /^17 routes: 12 permission-guarded \(1 dynamic\), 2 signed-in only, 3 unguarded$/m,
  );
  assert.match(out, /^9 warnings, 3 notes$/m);
  assert.match(
    out,
    /^ {2}warning unguarded-route hono\.ts:19: GET \/health has no guard: anyone can call it$/m,
  );
  assert.match(
    out,
    /^ {2}warning dead-rule .*policy\.csv:5: p, reader, newsletter, subscribe matches the request of no route$/m,
  );
  assert.match(out, /^ {2}archivist: none$/m);
  assert.match(
    out,
    /^ {2}moderator: 1 route\n {4}DELETE \/comments\/:id {2}express\.ts:10$/m,
  );
});

Deno.test("portcullis audit exits 0 on examples/ and with --fail-on none; --fail-on picks kinds", async () => {
  assert.equal((await audit(EXAMPLES)).code, 0);
  assert.equal((await audit(EXAMPLES, "--fail-on", "any")).code, 1);
  assert.equal((await audit(APP, "--fail-on", "none")).code, 0);
  assert.equal((await audit(APP, "--fail-on", "dead-rule")).code, 1);
  assert.equal(
    (await audit(EXAMPLES, "--fail-on", "dead-rule,dead-route")).code,
    0,
  );
  const bad = await audit(APP, "--fail-on", "dead-ruels");
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--fail-on must be warnings, any, none or a list of/);
});

Deno.test("portcullis audit --format json prints the report; --json writes it", async () => {
  const { code, out, files } = await audit(
    APP,
    "--format",
    "json",
    "--json",
    "report.json",
    "--fail-on",
    "none",
  );
  assert.equal(code, 0);
  const report = JSON.parse(out);
  assert.equal(report.routes.length, 17);
  assert.equal(report.findings.length, 12);
  assert.deepEqual(JSON.parse(files.get("report.json")!), report);
});

Deno.test("portcullis audit: --roles, --strict with a small budget, and bad arguments", async () => {
  const guest = await audit(EXAMPLES, "--roles", "guest, visitor");
  assert.equal(guest.code, 1);
  assert.match(guest.out, /^ {2}guest: none$/m);
  assert.match(guest.out, /^ {2}visitor: none$/m);

  const partial = await audit(APP, "--max-decisions", "2", "--strict");
  assert.equal(partial.code, 3);
  assert.match(partial.out, /^incomplete:\n {2}the decision budget of 2/m);

  for (
    const [args, message] of [
      [["--max-decisions", "0"], /--max-decisions must be a positive integer/],
      [["--format", "xml"], /--format must be text, json or sarif/],
      [["extra"], /expected one application directory/],
    ] as const
  ) {
    const run = await audit(APP, ...args);
    assert.equal(run.code, 2);
    assert.match(run.err, message);
  }
  const missing = await audit(join(APP, "missing"));
  assert.equal(missing.code, 2);
  assert.match(missing.err, /^portcullis: Cannot scan/);
});

Deno.test("portcullis audit --format sarif prints a log; --sarif writes it relative to --sarif-root", async () => {
  const printed = await audit(APP, "--format", "sarif", "--fail-on", "none");
  assert.equal(printed.code, 0);
  const log = JSON.parse(printed.out);
  assert.equal(log.version, "2.1.0");
  assert.equal(log.runs[0].results.length, 12);
  const written = await audit(
    APP,
    "--sarif",
    "audit.sarif",
    "--sarif-root",
    join(APP, ".."),
  );
  assert.equal(written.code, 1);
  const file = JSON.parse(written.files.get("audit.sarif")!);
  assert.equal(
    file.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri,
    "guarded_app/bun.ts",
  );
});

Deno.test("the worked example of docs/policy_tooling.md is the command's output", async () => {
  const repo = fileURLToPath(new URL("../../", import.meta.url));
  const { out } = await audit(APP);
  const page = await Deno.readTextFile(join(repo, "docs/policy_tooling.md"));
  assert.ok(page.includes(out.replaceAll(repo, "")), out);
});
