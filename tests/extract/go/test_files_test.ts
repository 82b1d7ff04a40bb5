import assert from "node:assert/strict";
import { goExtractor } from "../../../src/extract/go/mod.ts";
import { queueExtractor } from "../../../src/extract/queue/mod.ts";
import { temporalExtractor } from "../../../src/extract/temporal/mod.ts";
import { isGoTestFile } from "../../../src/extract/go/test_files.ts";
import { loadFixture, portLines } from "../_fixtures.ts";

Deno.test("isGoTestFile tells `_test.go` files from the rest", () => {
  assert.equal(isGoTestFile("app/order/api_test.go"), true);
  assert.equal(isGoTestFile("app/order/api.go"), false);
  assert.equal(isGoTestFile("app/test/helpers.go"), false);
  assert.equal(isGoTestFile("latest.go"), false);
});

Deno.test("Go test files yield no HTTP, queue or Temporal port", async () => {
  const http = await goExtractor.extract(
    await loadFixture("go/testfiles", goExtractor.accepts),
  );
  assert.deepEqual(portLines(http.ports), [
    "server GET /stock/{} server.go:10",
  ]);
  const queue = await queueExtractor.extract(
    await loadFixture("go/testfiles", queueExtractor.accepts),
  );
  assert.deepEqual(portLines(queue.ports), [
    "client stock.changed server.go:11",
  ]);
  const temporal = await temporalExtractor.extract(
    await loadFixture("go/testfiles", temporalExtractor.accepts),
  );
  assert.deepEqual(portLines(temporal.ports), []);
});
