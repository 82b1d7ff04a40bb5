import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PolicyFiles } from "../../../src/guard/_reload/policy_files.ts";

async function setup(): Promise<{
  dir: string;
  policyPath: string;
  files: PolicyFiles;
  changes: () => number;
}> {
  const dir = await mkdtemp(join(tmpdir(), "portcullis-files-"));
  const modelPath = join(dir, "model.conf");
  const policyPath = join(dir, "policy.csv");
  await writeFile(modelPath, "model");
  await writeFile(policyPath, "p, a, b, c\n");
  let changes = 0;
  const files = new PolicyFiles({
    modelPath,
    policyPath,
    retryMs: 1,
    onChange: () => changes++,
    isReloading: () => false,
    isClosed: () => false,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
  return { dir, policyPath, files, changes: () => changes };
}

Deno.test("PolicyFiles.detect() sees edits in place, renames and deletes through the kept handles", async (t) => {
  const { dir, policyPath, files, changes } = await setup();
  try {
    const first = await files.read();
    assert.equal(new TextDecoder().decode(first.policy.bytes), "p, a, b, c\n");
    files.detect();
    assert.equal(changes(), 0, "nothing changed yet");
    await t.step("in place, a different size", async () => {
      const before = changes();
      await writeFile(policyPath, "p, a, b, c\np, d, e, f\n");
      files.detect();
      assert.equal(changes(), before + 1);
      files.detect();
      assert.equal(changes(), before + 1, "signalled once per change");
    });
    await t.step("by rename", async () => {
      await files.read();
      const before = changes();
      await writeFile(`${policyPath}.tmp`, "p, x, y, z\n");
      await rename(`${policyPath}.tmp`, policyPath);
      files.detect();
      assert.equal(changes(), before + 1);
    });
    await t.step("by delete, then recreate", async () => {
      await files.read();
      const before = changes();
      await rm(policyPath);
      files.detect();
      assert.equal(changes(), before + 1);
      await assert.rejects(files.read(), { code: "NOT_FOUND" });
      files.detect();
      assert.equal(changes(), before + 1, "still missing: no signal");
      await writeFile(policyPath, "p, back, b, c\n");
      files.detect();
      assert.equal(changes(), before + 2);
    });
  } finally {
    await files.close();
    await rm(dir, { recursive: true });
  }
});

Deno.test("PolicyFiles.detectForRequest() checks once per run of the microtask queue", async () => {
  const { dir, policyPath, files, changes } = await setup();
  try {
    await files.read();
    files.detectForRequest();
    // Written within the same run: requests of this run were received
    // before it began, so they need not see it...
    writeFileSync(policyPath, "p, a, b, c\np, more, b, c\n");
    files.detectForRequest();
    assert.equal(changes(), 0);
    // ...but any request handled after the queue ran does.
    await Promise.resolve();
    await Promise.resolve();
    files.detectForRequest();
    assert.equal(changes(), 1);
  } finally {
    await files.close();
    await rm(dir, { recursive: true });
  }
});

Deno.test("PolicyFiles.read() never mixes two versions of a file", async (t) => {
  const a = "p, a, b, c\n".repeat(50_000);
  const b = "p, d, e, f\n".repeat(50_000);
  const writers: [string, (path: string, text: string) => Promise<void>][] = [
    // A reader can see a prefix of a version being written in place (that
    // is what the reloader's ordering rules are for), never a mix.
    ["in place", (path, text) => writeFile(path, text)],
    // Renamed files are whole: a read is one whole version.
    ["by rename", async (path, text) => {
      await writeFile(`${path}.tmp`, text);
      await rename(`${path}.tmp`, path);
    }],
  ];
  for (const [name, write] of writers) {
    await t.step(name, async () => {
      const { dir, policyPath, files } = await setup();
      await writeFile(policyPath, a);
      let done = false;
      const writer = (async () => {
        for (let i = 0; !done && i < 200; i++) {
          await write(policyPath, i % 2 === 0 ? b : a);
        }
      })();
      const texts: string[] = [];
      try {
        for (let i = 0; i < 20; i++) {
          try {
            texts.push(
              new TextDecoder().decode((await files.read()).policy.bytes),
            );
          } catch (error) {
            assert.match((error as Error).message, /kept changing/);
          }
        }
      } finally {
        done = true;
        await writer;
        await files.close();
        await rm(dir, { recursive: true });
      }
      for (const text of texts) {
        if (name === "by rename") assert.ok(text === a || text === b);
        else assert.ok(a.startsWith(text) || b.startsWith(text), "mixed");
      }
    });
  }
});
