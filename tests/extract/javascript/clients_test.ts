import assert from "node:assert/strict";
import { javascriptExtractor } from "../../../src/extract/javascript/mod.ts";
import { portLines } from "../_fixtures.ts";

async function clients(text: string): Promise<string[]> {
  const { ports } = await javascriptExtractor.extract([
    { path: "web/app.js", text },
  ]);
  return portLines(ports).map((line) => {
    const port = ports.find((p) => line.includes(p.ref.key));
    return `${line} ${port?.ref.confidence} ${port?.ref.detail["framework"]}`;
  });
}

Deno.test("javascriptExtractor reads AngularJS $http calls", async () => {
  assert.deepEqual(
    await clients(
      `angular.module("m").controller("C", ["$http", function ($http) {
  $http.get("/api/pets").then(function (r) {});
  $http.delete("/api/pets/" + id);
}]);
`,
    ),
    [
      "client DELETE /api/pets/{} web/app.js:3 0.8 angularjs",
      "client GET /api/pets web/app.js:2 1 angularjs",
    ],
  );
});

Deno.test("javascriptExtractor reads a URL relative to the page from the site's root", async () => {
  assert.deepEqual(
    await clients(`fetch("api/owners");
fetch("api/owners/" + id + "/pets", { method: "POST" });
fetch("./local/data");
fetch("templates/list.html");
fetch("style.css");
fetch(name);
`),
    [
      "client GET /api/owners web/app.js:1 0.95 fetch",
      "client POST /api/owners/{}/pets web/app.js:2 0.8 fetch",
    ],
  );
});

Deno.test("javascriptExtractor leaves $http alone when the name is imported", async () => {
  assert.deepEqual(
    await clients(`import $http from "./events.js";\n$http.get("/x");\n`),
    [],
  );
});
