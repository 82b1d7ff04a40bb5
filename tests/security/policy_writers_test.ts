// Operators and scripts that rewrite the policy while requests flow: an
// answer must never come from a policy that was never whole on disk once
// the writer is done, and a request sent after an edit sees the edit.
import assert from "node:assert/strict";
import { open, rename, rm, writeFile } from "node:fs/promises";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CachedFileEnforcerProvider } from "../../src/guard/cached_file_enforcer_provider.ts";
import { indexEnforcer } from "../../src/guard/indexed_enforcer.ts";
import type { Enforcer } from "../../src/guard/enforcer.ts";
import type { Enforcer as CasbinEnforcer } from "casbin";

// Allowed unless a deny rule matches; the deny rule for viewer writes is the
// last line, so any prefix of the file allows what the whole file denies.
const MODEL = `[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act, eft
[policy_effect]
e = some(where (p.eft == allow)) && !some(where (p.eft == deny))
[matchers]
m = r.sub.role == p.sub && r.obj == p.obj && r.act == p.act
`;
const VIEWER = { role: "viewer" };

function policy(lines: number, extra: string): string {
  const filler = Array.from(
    { length: lines },
    (_, i) => `p, user${i}, post, read, allow`,
  );
  return [
    "p, viewer, post, write, allow",
    ...filler,
    extra,
    "p, viewer, post, write, deny",
    "",
  ].join("\n");
}

async function files(
  policyText: string,
): Promise<{ dir: string; modelPath: string; policyPath: string }> {
  const dir = await mkdtemp(join(tmpdir(), "portcullis-writers-"));
  const modelPath = join(dir, "model.conf");
  const policyPath = join(dir, "policy.csv");
  await writeFile(modelPath, MODEL);
  await writeFile(policyPath, policyText);
  return { dir, modelPath, policyPath };
}

/** An enforcer tagged with the policy text it was built from. */
interface Tagged extends Enforcer {
  readonly text: string;
}

Deno.test("A request after an edit sees it even with no watcher and no periodic check", async (t) => {
  const before = policy(3, "p, alice, doc, read, allow");
  const after = policy(3, "p, bob, doc, read, allow");
  const { dir, modelPath, policyPath } = await files(before);
  try {
    // No fs.watch, no stat timer: only the per-request check can see edits.
    await using provider = await CachedFileEnforcerProvider.open({
      modelPath,
      policyPath,
      watch: false,
      pollIntervalMs: 0,
    });
    const bobReads = async (): Promise<unknown> =>
      await (await provider.getEnforcer()).enforce(
        { role: "bob" },
        "doc",
        "read",
      );
    const edits: [string, (text: string) => Promise<void>][] = [
      ["in place", (text) => writeFile(policyPath, text)],
      ["by rename", async (text) => {
        await writeFile(`${policyPath}.tmp`, text);
        await rename(`${policyPath}.tmp`, policyPath);
      }],
      ["by delete and recreate", async (text) => {
        await rm(policyPath);
        await writeFile(policyPath, text);
      }],
    ];
    for (const [name, edit] of edits) {
      await t.step(name, async () => {
        await edit(after);
        assert.equal(await bobReads(), true);
        await edit(before);
        assert.equal(await bobReads(), false);
      });
    }
  } finally {
    await rm(dir, { recursive: true });
  }
});

Deno.test("A policy read while a writer paused is never swapped in after the writer finished", async () => {
  const whole = policy(50, "p, alice, doc, read, allow");
  const { dir, modelPath, policyPath } = await files(whole);
  const cut = whole.lastIndexOf("p, viewer, post, write, deny");
  const prefix = whole.slice(0, cut);
  const gate = Promise.withResolvers<void>();
  const prepared = Promise.withResolvers<void>();
  const swapped: string[] = [];
  try {
    let text = whole;
    await using provider = await CachedFileEnforcerProvider.open<Tagged>({
      modelPath,
      policyPath,
      // Requests never wait, as for a large policy loaded in the worker.
      staleWhileReload: true,
      // The reload of the prefix blocks here until the writer is done.
      prepare: async (enforcer) => {
        const built = await indexEnforcer(enforcer);
        const rules = await (enforcer as unknown as CasbinEnforcer).getPolicy();
        const tag = rules.some((rule) => rule[3] === "deny") ? "whole" : prefix;
        if (tag === prefix) {
          prepared.resolve();
          await gate.promise;
        }
        return { text: tag, enforce: (...v) => built.enforce(...v) };
      },
      onReload: () => swapped.push(text),
    });
    // The writer: truncate, write all but the deny rule, pause, finish.
    const handle = await open(policyPath, "w");
    await handle.write(prefix);
    await handle.sync();
    await prepared.promise; // the provider is building the prefix
    await handle.write(whole.slice(cut));
    await handle.close();
    text = "final";
    // Give the old file system event every chance to arrive, then let the
    // prefix build finish: it must be discarded, not swapped in.
    await new Promise((resolve) => setTimeout(resolve, 50));
    gate.resolve();
    for (let i = 0; i < 200; i++) {
      const enforcer = await provider.getEnforcer();
      assert.notEqual(enforcer.text, prefix, `request ${i} saw the prefix`);
      assert.equal(await enforcer.enforce(VIEWER, "post", "write"), false);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    assert.ok(!swapped.includes("prefix"));
  } finally {
    gate.resolve();
    await rm(dir, { recursive: true });
  }
});

Deno.test("Concurrent requests during policy flips only ever see whole policies", async (t) => {
  const a = policy(200, "p, alice, doc, read, allow");
  const b = policy(200, "p, bob, doc, read, allow");
  for (const loadIn of ["main", "worker"] as const) {
    await t.step(loadIn, async () => {
      const { dir, modelPath, policyPath } = await files(a);
      try {
        await using provider = await CachedFileEnforcerProvider.open({
          modelPath,
          policyPath,
          loadIn,
          debounceMs: 1,
        });
        let writing = true;
        const writer = (async () => {
          for (let i = 0; i < 40; i++) {
            const text = i % 2 === 0 ? b : a;
            if (i % 4 < 2) await writeFile(policyPath, text);
            else {
              await writeFile(`${policyPath}.tmp`, text);
              await rename(`${policyPath}.tmp`, policyPath);
            }
            await new Promise((resolve) => setTimeout(resolve, 3));
          }
          writing = false;
        })();
        let answers = 0;
        while (writing) {
          const batch = await Promise.all(
            Array.from({ length: 16 }, async () => {
              const enforcer = await provider.getEnforcer();
              return [
                await enforcer.enforce(VIEWER, "post", "write"),
                await enforcer.enforce({ role: "alice" }, "doc", "read"),
                await enforcer.enforce({ role: "bob" }, "doc", "read"),
              ];
            }),
          );
          for (const [viewerWrites, alice, bob] of batch) {
            answers++;
            // Whole A or whole B: the deny holds, exactly one of the two.
            assert.equal(viewerWrites, false);
            assert.notEqual(alice, bob);
          }
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        await writer;
        assert.ok(answers > 0);
      } finally {
        await rm(dir, { recursive: true });
      }
    });
  }
});

Deno.test("An in-place writer that pauses mid-file never leaves its prefix live once done (worker)", async () => {
  // 1 MB: loaded in the worker, where requests never wait for a reload.
  const whole = policy(30_000, "p, alice, doc, read, allow");
  const cut = whole.lastIndexOf("p, viewer, post, write, deny");
  const { dir, modelPath, policyPath } = await files(whole);
  try {
    await using provider = await CachedFileEnforcerProvider.open({
      modelPath,
      policyPath,
      loadIn: "worker",
    });
    for (let round = 0; round < 4; round++) {
      const handle = await open(policyPath, "w");
      await handle.write(whole.slice(0, cut));
      await new Promise((resolve) => setTimeout(resolve, 12 + 6 * round));
      await handle.write(whole.slice(cut));
      await handle.close();
      // From here on, no answer may come from the prefix.
      const until = Date.now() + 600;
      while (Date.now() < until) {
        const enforcer = await provider.getEnforcer();
        assert.equal(
          await enforcer.enforce(VIEWER, "post", "write"),
          false,
          `round ${round}`,
        );
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    }
  } finally {
    await rm(dir, { recursive: true });
  }
});
