import assert from "node:assert/strict";
import { isTestPath } from "../../src/extract/_test_paths.ts";
import { scan } from "../../src/extract/scan.ts";
import { makeTree, route } from "./_temp_tree.ts";

Deno.test("isTestPath tells test code by folder and by each language's file naming", () => {
  for (
    const path of [
      "tests/api.spec.ts",
      "web/__tests__/server.js",
      "src/test/java/com/acme/FakeServer.java",
      "api/server.test.ts",
      "api/routes.spec.mjs",
      "cmd/main_test.go",
      "app/test_views.py",
      "app/tests.py",
      "conftest.py",
      "spec/requests/users_spec.rb",
      "spec/dummy/config/routes.rb",
      "Api.Tests/UsersControllerTests.cs",
      "src/main/kotlin/RoutesTest.kt",
    ]
  ) assert.equal(isTestPath(path), true, path);
  for (
    const path of [
      "src/server.ts",
      "spec/openapi.yaml",
      "contest/app.py",
      "latest/main.go",
      "src/main/java/com/acme/Contest.java",
      "attestation/routes.rb",
    ]
  ) assert.equal(isTestPath(path), false, path);
});

Deno.test("scan() leaves out the routes of test code unless includeTests, and keeps test clients", async () => {
  const root = await makeTree({
    "api/server.js": route("/users/:id"),
    "api/tests/fake_server.js": route("/fake/:id"),
    "api/server.test.js": route("/also-fake"),
    "e2e/tests/users.spec.js": 'test("u", () => fetch("/users/7"));\n',
  });
  const keys = async (includeTests?: boolean): Promise<string[]> => {
    const result = await scan([root], includeTests ? { includeTests } : {});
    return result.graph.nodesByKind("boundary").map((n) =>
      String(n.metadata["key"])
    ).sort();
  };
  assert.deepEqual(await keys(), ["GET /users/{}"]);
  assert.deepEqual(await keys(true), [
    "GET /also-fake",
    "GET /fake/{}",
    "GET /users/{}",
  ]);
  const result = await scan([root]);
  assert.equal(result.link.relationsAdded, 1);
});
