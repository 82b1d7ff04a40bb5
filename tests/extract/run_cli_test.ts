import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runCli } from "../../src/extract/run_cli.ts";
import { memoryIo } from "./_cli_memory.ts";

const MAP = fileURLToPath(new URL("../fixtures/map", import.meta.url));

Deno.test("runCli() runs scan by default, and as the scan command", async () => {
  for (const command of [[], ["scan"]]) {
    const io = memoryIo();
    assert.equal(
      await runCli([...command, "--format", "json", `${MAP}/web`], io),
      0,
    );
    assert.equal(JSON.parse(io.out()).unmatchedConsumers.length, 1);
  }
  const help = memoryIo();
  assert.equal(await runCli(["--help"], help), 0);
  assert.match(
    help.out(),
    /^Usage: portcullis-scan \[scan\] \[options\] <dir\.\.\.>\n {7}portcullis-scan diff/,
  );
});

Deno.test("runCli() dispatches diff and export, and never a prototype key", async () => {
  const diff = memoryIo();
  assert.equal(await runCli(["diff", "--help"], diff), 0);
  assert.match(diff.out(), /^Usage: portcullis-scan diff/);
  const exported = memoryIo();
  assert.equal(await runCli(["export", "--help"], exported), 0);
  assert.match(exported.out(), /^Usage: portcullis-scan export/);
  // "constructor" is neither a command nor a flag: it is scanned as a
  // directory (which is missing here)
  for (const name of ["constructor", "toString", "__proto__"]) {
    const odd = memoryIo();
    assert.equal(await runCli([name], odd), 2);
    assert.match(
      odd.err(),
      new RegExp(`^Cannot scan "${name}": no such directory`),
    );
  }
});
