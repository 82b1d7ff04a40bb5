// "A policy edit is reflected on the next request": an operator edits the
// policy file of a running reference application (in place, by rename, by
// delete and recreate) and sends one request right after the edit
// completed, with no pause. That request must be decided by the edited
// policy, under Deno, Bun and Node, whether or not the file system event of
// the edit has reached the server yet.
import assert from "node:assert/strict";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { type Runtime, ServerProcess } from "../e2e/_server.ts";

const RUNTIMES: Runtime[] = ["deno", "bun", "node"];
const ROUNDS = 12;

type Edit = (path: string, text: string) => Promise<void>;

const EDITS: Record<string, Edit> = {
  "in place": (path, text) => writeFile(path, text),
  "by rename": async (path, text) => {
    const temporary = `${path}.tmp-${crypto.randomUUID()}`;
    await writeFile(temporary, text);
    await rename(temporary, path);
  },
  "by delete and recreate": async (path, text) => {
    await rm(path);
    await writeFile(path, text);
  },
};

async function viewerWrites(server: ServerProcess): Promise<number> {
  const response = await server.fetch("/posts", {
    method: "POST",
    role: "viewer",
    body: JSON.stringify({ title: "by viewer" }),
  });
  await response.body?.cancel();
  return response.status;
}

for (const runtime of RUNTIMES) {
  Deno.test(`The first request after a policy edit sees the edit (${runtime})`, async () => {
    await using server = await ServerProcess.start(runtime);
    const original = await readFile(server.policyPath, "utf8");
    const granted = `${original}p, viewer, post, write\n`;
    const misses: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, edit] of Object.entries(EDITS)) {
        const grant = round % 2 === 0;
        await edit(server.policyPath, grant ? granted : original);
        const status = await viewerWrites(server);
        if (status !== (grant ? 201 : 403)) {
          misses.push(
            `round ${round}, ${name}, ${grant ? "grant" : "revoke"}: ${status}`,
          );
        }
      }
    }
    assert.deepEqual(misses, []);
  });
}
