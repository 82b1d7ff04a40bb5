// The graphs of the map fixtures (two repositories, users and web, and two
// changes to users) for the commands on the organisation store.
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { runCli } from "../../src/extract/run_cli.ts";
import { scan } from "../../src/extract/scan.ts";
import { memoryIo } from "./_cli_memory.ts";

const MAP = fileURLToPath(new URL("../fixtures/map", import.meta.url));

async function graphOf(dir: string, repo: string): Promise<string> {
  const graph = (await scan([`${MAP}/${dir}`])).graph;
  graph.metadata["repository"] = repo;
  return JSON.stringify(graph);
}

/** Graph files by name: users (base, breaking, compatible) and web. */
export const ORG_GRAPHS: Record<string, string> = {
  "users.json": await graphOf("users/base/services/users", "users"),
  "breaking.json": await graphOf("users/breaking/services/users", "users"),
  "compatible.json": await graphOf("users/compatible/services/users", "users"),
  "web.json": await graphOf("web/services/web", "web"),
};

/** Publishes users (base) and web to the store at `url` with the command. */
export async function publishOrg(url: string): Promise<void> {
  const io = memoryIo(ORG_GRAPHS);
  for (const file of ["users.json", "web.json"]) {
    assert.equal(await runCli(["publish", "--db", url, file], io), 0, io.err());
  }
}
