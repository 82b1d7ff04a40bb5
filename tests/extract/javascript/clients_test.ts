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

const COMPONENT = `<template>
  <form @submit.prevent="save"><input v-model="form.name"></form>
</template>

<script>
import Form from "vform";
import axios from "axios";

export default {
  data: () => ({
    form: new Form({ name: "" }),
    other: new Map(),
  }),
  created () {
    this.draft = new Form({});
  },
  methods: {
    async save () {
      await this.form.patch("/api/profile");
      await this.draft.post("/api/drafts");
      await this.other.get("/not/a/call");
      await axios.get(\`/api/users/\${this.id}\`);
    }
  }
}
</script>
`;

Deno.test("javascriptExtractor reads the script of Vue and Svelte components, at their lines", async () => {
  for (const path of ["web/Profile.vue", "web/Profile.svelte"]) {
    const { ports, diagnostics } = await javascriptExtractor.extract([
      { path, text: COMPONENT },
    ]);
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(
      ports.map((p) =>
        `${p.ref.key} ${p.ref.line}:${p.ref.col} ${p.ref.detail["framework"]}`
      ).sort(),
      [
        "GET /api/users/{} 22:13 axios",
        "PATCH /api/profile 19:13 vform",
        "POST /api/drafts 20:13 vform",
      ],
    );
  }
});

Deno.test("javascriptExtractor reads a URL from a local variable of the function around the call", async () => {
  assert.deepEqual(
    await clients(`function addToCart($http, user, sku) {
  var url = "/api/cart/add/" + user.id + "/" + sku;
  return $http({ url: url, method: "GET" });
}
function rename($http, id) {
  var url = "/api/cart/rename/" + id;
  return $http({ url: url, method: "GET" });
}
function moved($http, id) {
  let url = "/api/first";
  if (id) url = "/api/second";
  return fetch(url);
}
function top() {
  let base = "/api/nested";
  return () => fetch(base + "/inner");
}
`),
    [
      "client GET /api/cart/add/{}/{} web/app.js:3 0.8 generated",
      "client GET /api/cart/rename/{} web/app.js:7 0.8 generated",
      "client GET /api/nested/inner web/app.js:16 0.95 fetch",
    ],
  );
});

Deno.test("javascriptExtractor reads calls of the request library", async () => {
  assert.deepEqual(
    await clients(`const request = require("request");
const host = process.env.STOCK_HOST || "stock";
function item(sku, done) {
  request("http://" + host + ":8080/items/" + sku, done);
  request({ uri: "http://" + host + "/items", method: "POST", json: {} }, done);
  request.del("http://" + host + "/items/" + sku, done);
}
`),
    [
      "client DELETE /items/{} web/app.js:6 0.8 request",
      "client GET /items/{} web/app.js:4 0.8 request",
      "client POST /items web/app.js:5 0.95 request",
    ],
  );
});

Deno.test("javascriptExtractor reads fetch's method from an options object a function of the file builds", async () => {
  assert.deepEqual(
    await clients(`export class Cams {
  constructor(baseUrl) { this.baseUrl = baseUrl; }
  entry(car) {
    const request = this.createRequest(car);
    fetch(this.baseUrl + "/entrycam", request);
  }
  createRequest(car) {
    const body = { id: car.id };
    return { method: "POST", body: JSON.stringify(body) };
  }
}
function putInit() {
  const init = { method: "PUT" };
  return init;
}
export function save(id) {
  const options = putInit();
  return fetch("/items/" + id, options);
}
export function local() {
  const opts = { method: "DELETE" };
  return fetch("/items/1", opts);
}
export function unknown(build) {
  const opts = build();
  return fetch("/items/2", opts);
}
`),
    [
      "client ANY /items/{} web/app.js:26 0.6 fetch",
      "client DELETE /items/{} web/app.js:22 1 fetch",
      "client POST /entrycam web/app.js:5 0.95 fetch",
      "client PUT /items/{} web/app.js:18 0.8 fetch",
    ],
  );
});

Deno.test("javascriptExtractor reads k6, Cypress and Playwright requests as clients, not look-alikes", async () => {
  const k6 = await javascriptExtractor.extract([{
    path: "load/script.js",
    text: `import http from "k6/http";
export default function () {
  http.get("http://shop:8080/api/products");
  http.del("http://shop:8080/api/cart/" + __VU);
  http.request("PATCH", "http://shop:8080/api/cart/1", "{}");
}
`,
  }]);
  assert.deepEqual(portLines(k6.ports), [
    "client DELETE /api/cart/{} load/script.js:4",
    "client GET /api/products load/script.js:3",
    "client PATCH /api/cart/{} load/script.js:5",
  ]);
  const e2e = await javascriptExtractor.extract([
    {
      path: "cypress/e2e/cart.cy.js",
      text: `cy.request("/api/cart");
cy.request("POST", "/api/cart/items", { id: 1 });
cy.request({ method: "DELETE", url: "/api/cart/items/1" });
cy.visit("/cart");
`,
    },
    {
      path: "e2e/api.spec.ts",
      text: `import { test, expect } from "@playwright/test";
test("orders", async ({ request, page }) => {
  await request.get("/api/orders");
  await request.post("/api/orders", { data: {} });
  await page.request.fetch("/api/orders/1", { method: "PUT" });
  await page.goto("/orders");
});
`,
    },
    // no Playwright import: a local named request is not a client
    {
      path: "web/util.js",
      text: 'export const f = (request) => request.get("/x");\n',
    },
  ]);
  assert.deepEqual(portLines(e2e.ports), [
    "client DELETE /api/cart/items/{} cypress/e2e/cart.cy.js:3",
    "client GET /api/cart cypress/e2e/cart.cy.js:1",
    "client GET /api/orders e2e/api.spec.ts:3",
    "client POST /api/cart/items cypress/e2e/cart.cy.js:2",
    "client POST /api/orders e2e/api.spec.ts:4",
    "client PUT /api/orders/{} e2e/api.spec.ts:5",
  ]);
});

Deno.test("javascriptExtractor reads the request sites of hey-api and openapi-generator typescript-fetch SDKs", async () => {
  const { ports } = await javascriptExtractor.extract([
    {
      path: "frontend/src/client/sdk.gen.ts",
      text:
        `import { createClient, createConfig, type Options } from "@hey-api/client-fetch";
export const client = createClient(createConfig());
export const readUsers = (options?: Options<ReadUsersData>) => {
  return (options?.client ?? client).get<ReadUsersResponse, unknown>({
    url: "/api/v1/users/",
    ...options,
  });
};
export const deleteUser = (options: Options<DeleteUserData>) => {
  return (options.client ?? client).delete({ ...options, url: "/api/v1/users/{user_id}" });
};
`,
    },
    {
      path: "frontend/src/apis/PetApi.ts",
      text: `import * as runtime from "../runtime";
export class PetApi extends runtime.BaseAPI {
  async getPetByIdRaw(requestParameters: GetPetByIdRequest): Promise<runtime.ApiResponse<Pet>> {
    const response = await this.request({
      path: \`/pet/{petId}\`.replace(\`{\${"petId"}}\`, encodeURIComponent(String(requestParameters.petId))),
      method: "GET",
      headers: {},
    });
    return new runtime.JSONApiResponse(response);
  }
}
`,
    },
    // look-alikes: a cache's get({ url }) outside an SDK, a request() outside BaseAPI
    {
      path: "web/cache.ts",
      text: `export const hit = (cache) => cache.get({ url: "/x" });
class Worker { run() { return this.request({ path: "/jobs", method: "POST" }); } }
`,
    },
  ]);
  assert.deepEqual(portLines(ports), [
    "client DELETE /api/v1/users/{} frontend/src/client/sdk.gen.ts:10",
    "client GET /api/v1/users frontend/src/client/sdk.gen.ts:4",
    "client GET /pet/{} frontend/src/apis/PetApi.ts:4",
  ]);
});
