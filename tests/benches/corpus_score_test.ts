import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { type TruthFile, validateTruth } from "../../benches/corpus/_corpus.ts";
import { renderTable } from "../../benches/corpus/_report.ts";
import { type ScannedPort, scoreRepo } from "../../benches/corpus/_score.ts";
import { scanWithCli } from "../../benches/corpus/score.ts";

const FIXTURE = new URL("../fixtures/corpus/corpus_mini.json", import.meta.url);
const REPO = new URL("../fixtures/extract/corpus_mini", import.meta.url);

async function mini(): Promise<TruthFile> {
  return JSON.parse(await readFile(FIXTURE, "utf8")) as TruthFile;
}

function port(
  role: "server" | "client",
  key: string,
  file: string,
  line: number,
): ScannedPort {
  return { mechanism: "http", role, key, file, line, confidence: 1 };
}

Deno.test("corpus truth: the fixture is valid", async () => {
  assert.deepEqual(validateTruth(await mini()), []);
});

Deno.test("corpus truth: keys must be written normalized and links must join a client to a server", async () => {
  const truth = await mini();
  truth.ports[0]!.key = "GET /users/:id";
  truth.links.push({ consumer: "api.user", provider: "web.user" });
  const problems = validateTruth(truth);
  assert.ok(problems.some((p) => p.includes("not normalized (GET /users/{})")));
  assert.ok(problems.some((p) => p.includes("consumer is not a client port")));
});

Deno.test("corpus score: uncertain ports count neither way, extra ports are false, duplicates pair by line", async () => {
  const truth = await mini();
  const scanned = [
    port("server", "GET /users/{}", "api/server.js", 4),
    port("server", "ANY /", "api/server.js", 7), // uncertain: ignored
    port("client", "GET /users/{}", "web/client.js", 2),
    port("client", "GET /users/{}", "web/client.js", 40), // a second, false
    port("client", "POST /users", "api/server.js", 7), // right key, wrong file
  ];
  const score = scoreRepo(truth, scanned, []);
  assert.equal(score.truthPorts, 4);
  assert.equal(score.truePorts, 2);
  assert.equal(score.ignoredPorts, 1);
  assert.equal(score.precision, 2 / 4);
  assert.equal(score.recall, 2 / 4);
  assert.deepEqual(score.misses.map((p) => p.id), ["api.create", "web.create"]);
  assert.deepEqual(score.falsePorts.map((p) => p.line), [40, 7]);
  assert.equal(score.linkRecall, 0);
  assert.deepEqual(score.missedLinks, [
    "web.user -> api.user",
    "web.create -> api.create",
  ]);
});

Deno.test("corpus score: a port reported in an `also` file matches; links pair ends by key and file", async () => {
  const truth = await mini();
  truth.ports[1]!.also = ["api/routes.js"];
  const create = port("server", "POST /users", "api/routes.js", 90);
  const call = port("client", "POST /users", "web/client.js", 7);
  const user = port("server", "GET /users/{}", "api/server.js", 4);
  const wrong = { consumer: call, provider: user };
  const score = scoreRepo(truth, [create, call, user], [
    { consumer: call, provider: create },
    wrong,
  ]);
  assert.equal(score.truePorts, 3);
  assert.equal(score.foundLinks, 1);
  assert.deepEqual(score.missedLinks, ["web.user -> api.user"]);
  assert.equal(score.wrongLinks, 1);
  assert.match(score.wrongLinkList[0]!, /POST \/users -> api\/server\.js:4/);
});

Deno.test("corpus score: the scan command on a tiny repository finds every port and link", async () => {
  const found = await scanWithCli(REPO.pathname);
  const score = scoreRepo(await mini(), found.ports, found.links);
  assert.deepEqual(score.misses, []);
  assert.deepEqual(score.falsePorts, []);
  assert.equal(score.precision, 1);
  assert.equal(score.recall, 1);
  assert.equal(score.linkRecall, 1);
  const table = renderTable([{ name: "corpus_mini", score }], true);
  assert.match(
    table,
    /\| corpus_mini \| 4 \| 4 \| 100\.0% \| 100\.0% \| 2 \| 100\.0% \| 0 \|/,
  );
});
