// End-to-end: operators edit the policy and model files while the reference
// application serves requests, under Deno and Bun.
import assert from "node:assert/strict";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { type Runtime, ServerProcess } from "./_server.ts";

const RUNTIMES: Runtime[] = ["deno", "bun"];

const RELOADED = /^Policy reloaded: /;
const NOT_RELOADED =
  /^\[stderr\] Policy not reloaded, still serving the last good one: /;

/** Status of `POST /posts` for a role. */
async function write(server: ServerProcess, role: string): Promise<number> {
  const response = await server.fetch("/posts", {
    method: "POST",
    role,
    body: JSON.stringify({ title: `by ${role}` }),
  });
  await response.body?.cancel();
  return response.status;
}

/** Status of `GET /posts` for a role. */
async function read(server: ServerProcess, role: string): Promise<number> {
  const response = await server.fetch("/posts", { role });
  await response.body?.cancel();
  return response.status;
}

/**
 * Waits for each reload the server reports after output line `mark` and
 * returns once `check` holds after one of them. A request that still sees
 * the old policy after the reload of the new file keeps waiting, and the
 * line watchdog fails the test.
 */
async function afterReload(
  server: ServerProcess,
  mark: number,
  check: () => Promise<boolean>,
): Promise<void> {
  let from = mark;
  for (;;) {
    await server.waitForLine(RELOADED, from);
    from = server.lines.findIndex((line, i) =>
      i >= from && RELOADED.test(line)
    ) +
      1;
    if (await check()) return;
  }
}

/** Makes an edit, then waits until a reload after it makes `check` true. */
async function editThenReload(
  server: ServerProcess,
  edit: () => Promise<void>,
  check: () => Promise<boolean>,
): Promise<void> {
  const mark = server.lines.length;
  await edit();
  await afterReload(server, mark, check);
}

async function atomicWrite(path: string, text: string): Promise<void> {
  const temporary = `${path}.tmp-${crypto.randomUUID()}`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}

for (const runtime of RUNTIMES) {
  Deno.test(`examples/server.ts under ${runtime} serves policy edits without a restart`, async (t) => {
    await using server = await ServerProcess.start(runtime);
    const original = await readFile(server.policyPath, "utf8");
    const viewerWrites = `${original}p, viewer, post, write\n`;
    assert.equal(await write(server, "viewer"), 403);

    await t.step("in-place edit", async () => {
      await editThenReload(
        server,
        () => writeFile(server.policyPath, viewerWrites),
        async () => await write(server, "viewer") === 201,
      );
      assert.equal(await read(server, "viewer"), 200);
    });

    await t.step("atomic rename", async () => {
      await editThenReload(
        server,
        () => atomicWrite(server.policyPath, original),
        async () => await write(server, "viewer") === 403,
      );
    });

    await t.step("delete, then recreate", async () => {
      const mark = server.lines.length;
      await rm(server.policyPath);
      // While the file is missing, the last good policy keeps answering.
      await server.waitForLine(NOT_RELOADED, mark);
      assert.ok(
        server.lines.slice(mark).some((line) => /NOT_FOUND/.test(line)),
        server.lines.slice(mark).join("\n"),
      );
      assert.equal(await write(server, "viewer"), 403);
      assert.equal(await read(server, "viewer"), 200);
      const recreated = server.lines.length;
      await writeFile(server.policyPath, viewerWrites);
      await afterReload(
        server,
        recreated,
        async () => await write(server, "viewer") === 201,
      );
    });

    await t.step("two same-size edits within the same second", async () => {
      const alpha = `${original}p, alpha, post, read\n`;
      const bravo = `${original}p, bravo, post, read\n`;
      assert.equal(alpha.length, bravo.length);
      await editThenReload(
        server,
        () => writeFile(server.policyPath, alpha),
        async () => await read(server, "alpha") === 200,
      );
      await editThenReload(
        server,
        () => writeFile(server.policyPath, bravo),
        async () => await read(server, "bravo") === 200,
      );
      assert.equal(await read(server, "alpha"), 403);
    });

    await t.step("a broken policy keeps the last good one", async () => {
      await editThenReload(
        server,
        () => atomicWrite(server.policyPath, original),
        async () => await write(server, "viewer") === 403,
      );
      const broken: [string, RegExp][] = [
        [`${original}p, "viewer, post, write\n`, /POLICY_INVALID/],
        [`${original}p, viewer, post\n`, /POLICY_INVALID/],
        ["", /POLICY_INVALID/],
      ];
      for (const [text, code] of broken) {
        const before = server.lines.length;
        await atomicWrite(server.policyPath, text);
        const line = await server.waitForLine(NOT_RELOADED, before);
        assert.match(line, code);
        assert.equal(await write(server, "viewer"), 403);
        assert.equal(await write(server, "editor"), 201);
        assert.equal(await read(server, "viewer"), 200);
        assert.equal(await read(server, "guest"), 403);
      }
      const fixed = server.lines.length;
      await atomicWrite(server.policyPath, viewerWrites);
      await afterReload(
        server,
        fixed,
        async () => await write(server, "viewer") === 201,
      );
    });

    await t.step("a large policy loads in a worker thread", async () => {
      // 6,000 more rules (about 170 KiB): over the size that loads in the
      // worker.
      const filler = Array.from(
        { length: 6000 },
        (_, i) => `p, filler${i}, doc${i}, read\n`,
      ).join("");
      const mark = server.lines.length;
      await atomicWrite(
        server.policyPath,
        `${original}${filler}p, viewer, post, write\n`,
      );
      await afterReload(
        server,
        mark,
        async () => await write(server, "viewer") === 201,
      );
      const reloaded = server.lines.slice(mark).filter((line) =>
        RELOADED.test(line)
      );
      assert.match(reloaded.at(-1)!, /rules \(loaded in a worker thread\)$/);
      assert.equal(await read(server, "guest"), 403);
      assert.equal(await write(server, "editor"), 201);
      // Back to a small policy: loaded on the event loop again.
      const back = server.lines.length;
      await atomicWrite(server.policyPath, original);
      await afterReload(
        server,
        back,
        async () => await write(server, "viewer") === 403,
      );
      assert.match(
        server.lines.slice(back).filter((line) => RELOADED.test(line)).at(-1)!,
        /\(loaded on the event loop\)$/,
      );
    });

    await t.step("SIGTERM still exits cleanly", async () => {
      const status = await server.stop("SIGTERM");
      assert.equal(status.code, 0, server.lines.join("\n"));
    });
  });

  Deno.test(`examples/server.ts under ${runtime} serves model edits and keeps the last good model`, async () => {
    await using server = await ServerProcess.start(runtime);
    const model = await readFile(server.modelPath, "utf8");
    const rootMatcher =
      'm = r.obj == p.obj && (r.sub.role == p.sub || r.sub.role == "root") && r.act == p.act';
    assert.equal(await read(server, "root"), 403);

    let mark = server.lines.length;
    await writeFile(server.modelPath, model.replace(/^m = .*$/m, rootMatcher));
    await afterReload(
      server,
      mark,
      async () => await read(server, "root") === 200,
    );
    assert.ok(
      server.lines.slice(mark).some((line) => /model/.test(line)),
    );

    // A matcher that throws on every decision is refused.
    mark = server.lines.length;
    await writeFile(
      server.modelPath,
      model.replace(/^m = .*$/m, "m = r.sub.role.missing.deeper == p.sub"),
    );
    const line = await server.waitForLine(NOT_RELOADED, mark);
    assert.match(line, /PROBE_FAILED|MODEL_INVALID/);
    assert.equal(await read(server, "root"), 200);
    assert.equal(await read(server, "guest"), 403);
    assert.equal(await write(server, "viewer"), 403);
    assert.equal((await server.stop()).code, 0);
  });

  Deno.test(`examples/server.ts under ${runtime} answers old or new policy, never 5xx, while the policy is rewritten`, async () => {
    await using server = await ServerProcess.start(runtime);
    const original = await readFile(server.policyPath, "utf8");
    const viewerWrites = `${original}p, viewer, post, write\n`;
    const statuses = new Map<number, number>();
    let requests = 0;
    const record = (status: number): number => {
      requests++;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      return status;
    };

    for (let round = 0; round < 12; round++) {
      const allowViewer = round % 2 === 0;
      const text = allowViewer ? viewerWrites : original;
      const mark = server.lines.length;
      const writing = round % 3 === 0
        ? atomicWrite(server.policyPath, text)
        : writeFile(server.policyPath, text);
      const burst = Array.from({ length: 40 }, async (_, i) => {
        switch (i % 4) {
          case 0:
            // Old policy: 403, new policy: 201; both are right mid-reload.
            assert.ok(
              [201, 403].includes(record(await write(server, "viewer"))),
            );
            break;
          case 1:
            assert.equal(record(await write(server, "editor")), 201);
            break;
          case 2:
            assert.equal(record(await read(server, "viewer")), 200);
            break;
          default:
            assert.equal(record(await read(server, "guest")), 403);
        }
      });
      await Promise.all([writing, ...burst]);
      await afterReload(
        server,
        mark,
        async () =>
          record(await write(server, "viewer")) === (allowViewer ? 201 : 403),
      );
    }

    assert.ok(requests >= 12 * 41);
    for (const status of statuses.keys()) {
      assert.ok(status < 500, `got ${status}: ${[...statuses]}`);
    }
    assert.equal((await server.stop()).code, 0);
  });
}
