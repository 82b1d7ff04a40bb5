import assert from "node:assert/strict";
import {
  bindUntilStable,
  queuePort,
} from "../../../src/extract/_port/queue.ts";
import {
  composed,
  concat,
  hole,
  literal,
} from "../../../src/extract/_value/mod.ts";
import { parseSource } from "../../../src/extract/_syntax/parser.ts";

Deno.test("queuePort() gives no port for an unknown name", async () => {
  const tree = await parseSource("python", "x = 1\n");
  try {
    const init = {
      role: "client" as const,
      node: tree.rootNode,
      owner: {
        kind: "module" as const,
        name: "a.py",
        qualifiedName: "a.py",
        filePath: "a.py",
      },
      filePath: "a.py",
      system: "kafka",
      library: "test",
      operation: "send",
    };
    assert.equal(queuePort({ ...init, topic: hole("topic") }), undefined);
    assert.equal(queuePort({ ...init, topic: literal("  ") }), undefined);
    const partial = queuePort({
      ...init,
      topic: concat([literal("orders."), hole("r")]),
    });
    assert.equal(partial?.ref.key, "orders.{}");
    assert.equal(partial?.ref.confidence, 0.8);
    const resolved = queuePort({ ...init, topic: composed(literal("orders")) });
    assert.equal(resolved?.ref.confidence, 0.95);
  } finally {
    tree.delete();
  }
});

Deno.test("bindUntilStable() repeats until nothing changes, at most four passes", () => {
  let calls = 0;
  bindUntilStable([1, 2], () => {
    calls++;
    return calls <= 2;
  });
  assert.equal(calls, 4);
  calls = 0;
  bindUntilStable([1, 2, 3], () => {
    calls++;
    return true;
  });
  assert.equal(calls, 12);
});
