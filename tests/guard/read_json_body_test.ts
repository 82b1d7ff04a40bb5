import assert from "node:assert/strict";
import { HttpError } from "../../src/guard/http_error.ts";
import { readJsonBody } from "../../src/guard/read_json_body.ts";
import { countingBody } from "../fixtures/guard/bodies.ts";

function isHttpError(
  status: number,
  detail: string,
): (error: unknown) => boolean {
  return (error: unknown): boolean =>
    error instanceof HttpError && error.status === status &&
    error.detail === detail;
}

Deno.test("readJsonBody() parses a body within the limits", async () => {
  const request = new Request("http://localhost/", {
    method: "POST",
    body: '{"title":"Hi"}',
  });
  assert.deepEqual(await readJsonBody(request), { title: "Hi" });
  assert.equal(request.bodyUsed, true);
});

Deno.test("readJsonBody() answers 413 at once for a Content-Length over the limit, without reading", async () => {
  const body = countingBody(1024);
  const request = new Request("http://localhost/", {
    method: "POST",
    body: body.stream,
    headers: { "content-length": String(10 * 1024 * 1024) },
  });
  await assert.rejects(
    readJsonBody(request, { maxBodyBytes: 1024 }),
    isHttpError(413, "Content Too Large"),
  );
  assert.equal(body.pulled(), 0);
});

Deno.test("readJsonBody() answers 413 for a streamed body as soon as it passes the limit, without reading the rest", async () => {
  const body = countingBody(4096);
  const request = new Request("http://localhost/", {
    method: "POST",
    body: body.stream,
  });
  await assert.rejects(
    readJsonBody(request, { maxBodyBytes: 64 * 1024 }),
    isHttpError(413, "Content Too Large"),
  );
  // The limit plus at most a chunk or two read ahead by the stream.
  assert.ok(body.pulled() <= 64 * 1024 + 2 * 4096, String(body.pulled()));
});

Deno.test("readJsonBody() counts the bytes, not the Content-Length a client claims", async () => {
  const body = countingBody(1024, 8 * 1024);
  const request = new Request("http://localhost/", {
    method: "POST",
    body: body.stream,
    headers: { "content-length": "10" },
  });
  await assert.rejects(
    readJsonBody(request, { maxBodyBytes: 2048 }),
    isHttpError(413, "Content Too Large"),
  );
});

Deno.test("readJsonBody() answers 408 for a body that is not complete in time, and cancels the read", async () => {
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller): void {
      controller.enqueue(new TextEncoder().encode('{"title":'));
      // ...and nothing more, ever.
    },
    cancel(): void {
      cancelled = true;
    },
  });
  const request = new Request("http://localhost/", {
    method: "POST",
    body: stream,
  });
  await assert.rejects(
    readJsonBody(request, { bodyTimeoutMs: 20 }),
    isHttpError(408, "Request Timeout"),
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(cancelled, true);
});

Deno.test("readJsonBody() answers 400 for a body that is not JSON, TypeError for a consumed one", async () => {
  await assert.rejects(
    readJsonBody(
      new Request("http://localhost/", { method: "POST", body: "{" }),
    ),
    isHttpError(400, "Invalid JSON body"),
  );
  const used = new Request("http://localhost/", { method: "POST", body: "{}" });
  await used.text();
  await assert.rejects(readJsonBody(used), TypeError);
});

Deno.test("readJsonBody() refuses limits that are not valid numbers", async () => {
  const request = new Request("http://localhost/", {
    method: "POST",
    body: "{}",
  });
  for (
    const limits of [
      { maxBodyBytes: -1 },
      { maxBodyBytes: 1.5 },
      { maxBodyBytes: Infinity },
      { bodyTimeoutMs: 0 },
      { bodyTimeoutMs: NaN },
      { bodyTimeoutMs: Infinity },
    ]
  ) {
    await assert.rejects(readJsonBody(request, limits), RangeError);
  }
});
