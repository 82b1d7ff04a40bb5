import assert from "node:assert/strict";
import fc from "fast-check";
import {
  clientPath,
  concat,
  hole,
  joinPaths,
  literal,
  queuePort,
  splitPlaceholders,
} from "../../src/extract/_more_common.ts";
import { parseSource } from "../../src/extract/_parser.ts";

Deno.test("clientPath() keeps the path of URLs and drops a leading base", () => {
  assert.deepEqual(clientPath(literal("http://svc:8080/users/1?x=2#f")), {
    path: "/users/1",
    confidence: 1,
  });
  assert.deepEqual(
    clientPath(concat([hole("base"), literal("/users/"), hole("id")])),
    {
      path: "/users/{}",
      confidence: 0.8,
    },
  );
  assert.deepEqual(clientPath(concat([hole("base"), literal("/users")])), {
    path: "/users",
    confidence: 0.95,
  });
  assert.equal(clientPath(hole("url")), undefined);
  assert.equal(clientPath(literal("users")), undefined);
  assert.deepEqual(clientPath(literal("https://api.example.com")), {
    path: "/",
    confidence: 1,
  });
});

Deno.test("clientPath() never throws and returns absolute paths", () => {
  const piece = fc.oneof(
    fc.string().map((s) => literal(s)),
    fc.constantFrom(hole("x"), literal("/"), literal("http://h"), literal("?")),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 6 }), (parts) => {
      const result = clientPath(concat(parts));
      if (result) {
        assert.ok(result.path.startsWith("/"));
        assert.ok(!/[?#]/.test(result.path));
        assert.ok([1, 0.95, 0.8].includes(result.confidence));
      }
    }),
  );
});

Deno.test("joinPaths() joins with single slashes and no trailing slash", () => {
  assert.equal(joinPaths("/api/", "/v1", "users/"), "/api/v1/users");
  assert.equal(joinPaths("", "/"), "/");
  fc.assert(
    fc.property(fc.array(fc.string(), { maxLength: 5 }), (parts) => {
      const joined = joinPaths(...parts);
      assert.ok(joined.startsWith("/"));
      assert.ok(!joined.includes("//"));
      assert.ok(joined === "/" || !joined.endsWith("/"));
    }),
  );
});

Deno.test("splitPlaceholders() turns %s, {} and {0} into holes", () => {
  assert.deepEqual(splitPlaceholders("/u/%s/{}/{12}/%d%"), [
    { kind: "text", text: "/u/" },
    { kind: "hole", text: "%s" },
    { kind: "text", text: "/" },
    { kind: "hole", text: "{}" },
    { kind: "text", text: "/" },
    { kind: "hole", text: "{12}" },
    { kind: "text", text: "/" },
    { kind: "hole", text: "%d" },
    { kind: "text", text: "%" },
  ]);
});

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
    const resolved = queuePort({
      ...init,
      topic: { ...literal("orders"), resolved: true },
    });
    assert.equal(resolved?.ref.confidence, 0.95);
  } finally {
    tree.delete();
  }
});
