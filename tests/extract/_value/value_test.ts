import assert from "node:assert/strict";
import fc from "fast-check";
import {
  clientPath,
  concat,
  formatPlaceholders,
  hole,
  joinPaths,
  keyText,
  literal,
  textOf,
} from "../../../src/extract/_value/mod.ts";
import {
  evaluateConcatenation,
  literalString,
} from "../../../src/extract/_value/literals.ts";
import { parseSource } from "../../../src/extract/_syntax/parser.ts";

Deno.test("clientPath() keeps the path of URLs and drops a leading base", () => {
  const client = (value: ReturnType<typeof literal>) => {
    const result = clientPath(value);
    return result && { path: result.path, confidence: result.confidence };
  };
  assert.deepEqual(client(literal("http://svc:8080/users/1?x=2#f")), {
    path: "/users/1",
    confidence: 1,
  });
  assert.deepEqual(
    client(concat([hole("base"), literal("/users/"), hole("id")])),
    { path: "/users/{}", confidence: 0.8 },
  );
  assert.deepEqual(client(concat([hole("base"), literal("/users")])), {
    path: "/users",
    confidence: 0.95,
  });
  assert.equal(clientPath(hole("url")), undefined);
  assert.equal(clientPath(literal("users")), undefined);
  assert.deepEqual(client(literal("https://api.example.com")), {
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

Deno.test("joinPaths() puts exactly one slash at each seam and keeps the rest", () => {
  assert.equal(
    textOf(joinPaths("/api/", "/v1", "users/")),
    "/api/v1/users/",
  );
  assert.equal(textOf(joinPaths("", "/")), "/");
  assert.equal(textOf(joinPaths("api", literal(""), "users")), "api/users");
  fc.assert(
    fc.property(
      fc.array(fc.stringMatching(/^\/?[a-z]{1,4}\/?$/), { maxLength: 5 }),
      (parts) => {
        const joined = textOf(joinPaths(...parts));
        assert.ok(!joined.includes("//"));
        assert.equal(
          joined.replaceAll("/", ""),
          parts.join("").replaceAll("/", ""),
        );
      },
    ),
  );
});

Deno.test("formatPlaceholders() turns %s, {} and {0} into holes", () => {
  const value = formatPlaceholders(literal("/u/%s/{}/{12}/%d%"));
  assert.deepEqual(value.parts, [
    "/u/",
    { hole: "unknown", text: "%s" },
    "/",
    { hole: "unknown", text: "{}" },
    "/",
    { hole: "unknown", text: "{12}" },
    "/",
    { hole: "unknown", text: "%d" },
    "%",
  ]);
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
