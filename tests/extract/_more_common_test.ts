import assert from "node:assert/strict";
import fc from "fast-check";
import {
  bindUntilStable,
  clientPath,
  concat,
  evaluateConcatenation,
  hole,
  joinPaths,
  keyText,
  literal,
  literalString,
  queuePort,
  routeConfidence,
  splitPlaceholders,
} from "../../src/extract/_value/more_common.ts";
import { parseSource } from "../../src/extract/_syntax/parser.ts";

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

Deno.test("routeConfidence() follows the scale: unresolved part, prefix or constant, literal", () => {
  assert.equal(routeConfidence(concat([literal("/a/"), hole("x")]), true), 0.8);
  assert.equal(routeConfidence(literal("/a"), true), 0.95);
  assert.equal(routeConfidence(literal("/a", true), false), 0.95);
  assert.equal(routeConfidence(literal("/a"), false), 1);
});

Deno.test("keyText() writes each unresolved part as {}", () => {
  assert.equal(
    keyText(concat([literal("/u/"), hole("id"), literal("/x")])),
    "/u/{}/x",
  );
  assert.equal(keyText(literal("orders")), "orders");
});

Deno.test("literalString() and evaluateConcatenation() read constants and `+` chains", async () => {
  const tree = await parseSource(
    "java",
    'class A { String a = "/x"; String b = "/y" + id; String c = n - 1; }',
  );
  try {
    const values: Record<string, ReturnType<typeof literalString>> = {};
    const sums: string[] = [];
    const visit = (n: typeof tree.rootNode): void => {
      if (n.type === "variable_declarator") {
        const name = n.childForFieldName("name")!.text;
        const value = n.childForFieldName("value")!;
        values[name] = literalString(value);
        if (value.type === "binary_expression") {
          const evaluate = (o: typeof n | null): ReturnType<typeof hole> =>
            o ? literalString(o) ?? hole(o.text) : hole("?");
          sums.push(keyText(evaluateConcatenation(value, "+", evaluate)));
        }
      }
      for (const c of n.namedChildren) if (c) visit(c);
    };
    visit(tree.rootNode);
    assert.deepEqual(values.a, literal("/x"));
    assert.equal(values.b, undefined);
    assert.deepEqual(sums, ["/y{}", "{}"]);
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
