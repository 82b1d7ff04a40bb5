import assert from "node:assert/strict";
import { HttpError } from "../../src/guard/http_error.ts";

Deno.test("HttpError.toResponse() answers JSON with status and headers", async () => {
  const error = new HttpError(401, "Unauthorized", {
    headers: { "WWW-Authenticate": "Bearer" },
  });
  const response = error.toResponse();
  assert.equal(response.status, 401);
  assert.equal(response.headers.get("content-type"), "application/json");
  assert.equal(response.headers.get("www-authenticate"), "Bearer");
  assert.equal(await response.text(), '{"detail":"Unauthorized"}');
});

Deno.test("HttpError.toResponse() returns a fresh response each call", async () => {
  const error = new HttpError(403, "Forbidden");
  const first = error.toResponse();
  await first.text();
  assert.equal(await error.toResponse().text(), '{"detail":"Forbidden"}');
});

Deno.test("HttpError keeps its name, detail and cause", () => {
  const cause = new Error("inner");
  const error = new HttpError(500, "Internal Server Error", { cause });
  assert.equal(error.name, "HttpError");
  assert.equal(error.message, "Internal Server Error");
  assert.equal(error.detail, "Internal Server Error");
  assert.equal(error.cause, cause);
  assert.ok(error instanceof Error);
});

Deno.test("new HttpError() throws RangeError on a status outside 400..599", () => {
  for (const status of [200, 399, 600, 404.5, Number.NaN]) {
    assert.throws(() => new HttpError(status, "x"), {
      name: "RangeError",
      message: /Cannot create HttpError/,
    });
  }
});
