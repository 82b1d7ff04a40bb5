// A caller that passes the user provider controls the body of a route
// guarded with AccessSubject.body(): it must not make the guard buffer an
// unbounded body, nor hold a check open forever.
import assert from "node:assert/strict";
import { AccessSubject } from "../../src/guard/access_subject.ts";
import { bearerUserProvider } from "../../src/guard/bearer_user_provider.ts";
import { PermissionGuard } from "../../src/guard/permission_guard.ts";
import { makeEnforcer, MODEL } from "../fixtures/guard/casbin.ts";
import { countingBody } from "../fixtures/guard/bodies.ts";

async function guardedByBody(
  limits?: { maxBodyBytes?: number; bodyTimeoutMs?: number },
): Promise<{
  handler: (request: Request) => Response | Promise<Response>;
  ran: () => number;
}> {
  const enforcer = await makeEnforcer("p, editor, news, publish\n", MODEL);
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => enforcer,
  });
  let ran = 0;
  const handler = guard.requirePermission(
    AccessSubject.body(
      (body) => (body as { category?: string }).category,
      limits,
    ),
    "publish",
  )(async (request) => {
    ran++;
    return Response.json(await request.json(), { status: 201 });
  });
  return { handler, ran: () => ran };
}

function post(body: BodyInit, headers: HeadersInit = {}): Request {
  return new Request("http://localhost/posts", {
    method: "POST",
    body,
    headers: { authorization: "Bearer editor", ...headers },
  });
}

Deno.test("A body within the limit is decided and stays readable for the handler", async () => {
  const { handler, ran } = await guardedByBody();
  const response = await handler(post('{"category":"news","title":"Hi"}'));
  assert.equal(response.status, 201);
  assert.deepEqual(await response.json(), { category: "news", title: "Hi" });
  assert.equal(ran(), 1);
});

Deno.test("A Content-Length over the default 1 MiB answers 413 at once, reading nothing", async () => {
  const { handler, ran } = await guardedByBody();
  const body = countingBody(64 * 1024);
  const response = await handler(
    post(body.stream, { "content-length": String(200 * 1024 * 1024) }),
  );
  assert.equal(response.status, 413);
  assert.deepEqual(await response.json(), { detail: "Content Too Large" });
  assert.equal(body.pulled(), 0);
  assert.equal(ran(), 0);
});

Deno.test("An endless streamed body answers 413 once it passes the limit; the rest is never read", async () => {
  const { handler, ran } = await guardedByBody();
  const body = countingBody(64 * 1024);
  const response = await handler(post(body.stream));
  assert.equal(response.status, 413);
  assert.deepEqual(await response.json(), { detail: "Content Too Large" });
  // 1 MiB plus what the stream read ahead: bounded, whatever follows.
  assert.ok(
    body.pulled() <= 1024 * 1024 + 2 * 64 * 1024,
    `pulled ${body.pulled()} bytes`,
  );
  assert.equal(ran(), 0);
});

Deno.test("Concurrent oversized bodies each stop at the limit", async () => {
  const { handler } = await guardedByBody({ maxBodyBytes: 256 * 1024 });
  const bodies = Array.from({ length: 8 }, () => countingBody(16 * 1024));
  const responses = await Promise.all(
    bodies.map((body) => handler(post(body.stream))),
  );
  for (const response of responses) {
    assert.equal(response.status, 413);
    await response.body?.cancel();
  }
  for (const body of bodies) {
    assert.ok(body.pulled() <= 256 * 1024 + 2 * 16 * 1024);
  }
});

Deno.test("A body that trickles in answers 408 after bodyTimeoutMs, never running the handler", async () => {
  const { handler, ran } = await guardedByBody({ bodyTimeoutMs: 30 });
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller): void {
      controller.enqueue(encoder.encode("{"));
      // One more byte much later: the check must not wait for it.
      timer = setTimeout(() => controller.enqueue(encoder.encode(" ")), 5_000);
    },
    cancel(): void {
      clearTimeout(timer);
    },
  });
  const response = await handler(post(stream));
  assert.equal(response.status, 408);
  assert.deepEqual(await response.json(), { detail: "Request Timeout" });
  assert.equal(ran(), 0);
  clearTimeout(timer);
});

Deno.test("A smaller limit on a second body subject of the same request still refuses", async () => {
  const enforcer = await makeEnforcer("p, editor, news, publish\n", MODEL);
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => enforcer,
  });
  const category = AccessSubject.body(
    (body) => (body as { category?: string }).category,
  );
  const strict = AccessSubject.body(() => "publish", { maxBodyBytes: 16 });
  const handler = guard.requirePermission(category, strict)(() =>
    new Response("ok")
  );
  const response = await handler(post('{"category":"news","title":"Hello"}'));
  assert.equal(response.status, 413);
});

Deno.test("Several body subjects of one request buffer the body once: no amplification, one value for all", async () => {
  // An attacker's body is read (and buffered up to the limit) once per
  // request, however many subjects read it; each reading a clone of its own
  // would multiply the memory one request can pin, and a body the subjects
  // saw differently could split the decision.
  class CountingRequest extends Request {
    clones = 0;
    override clone(): Request {
      this.clones++;
      return super.clone();
    }
  }
  const enforcer = await makeEnforcer("p, editor, news, publish\n", MODEL);
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => enforcer,
  });
  const seen: unknown[] = [];
  const subject = (pick: (body: { category?: string }) => string) =>
    AccessSubject.body((body) => {
      seen.push(body);
      return pick(body as { category?: string });
    });
  const handler = guard.requirePermission(
    subject((b) => b.category ?? ""),
    subject(() => "publish"),
  )(() => new Response("ok"));
  const request = new CountingRequest("http://localhost/posts", {
    method: "POST",
    body: '{"category":"news"}',
    headers: { authorization: "Bearer editor" },
  });
  const response = await handler(request);
  assert.equal(response.status, 200);
  assert.equal(request.clones, 1);
  assert.equal(seen.length, 2);
  assert.equal(seen[0], seen[1]);
});

Deno.test("The reference application bounds its own body read on POST /posts", async (t) => {
  const { createApp } = await import("../../examples/server.ts");
  const enforcer = await makeEnforcer();
  const app = createApp(() => enforcer);
  await t.step("a declared 200 MiB body: 413, nothing read", async () => {
    const body = countingBody(64 * 1024);
    const response = await app(
      post(body.stream, { "content-length": String(200 * 1024 * 1024) }),
    );
    assert.equal(response.status, 413);
    await response.body?.cancel();
    assert.equal(body.pulled(), 0);
  });
  await t.step("an endless streamed body: 413 after 64 KiB", async () => {
    const body = countingBody(16 * 1024);
    const response = await app(post(body.stream));
    assert.equal(response.status, 413);
    assert.deepEqual(await response.json(), { detail: "Content Too Large" });
    assert.ok(body.pulled() <= 64 * 1024 + 2 * 16 * 1024);
  });
  await t.step("a normal post is created", async () => {
    const response = await app(post('{"title":"Hi"}'));
    assert.equal(response.status, 201);
    await response.body?.cancel();
  });
});

/**
 * Sends a POST /posts over a raw socket: the headers, then up to `max`
 * bytes of body in chunks (chunked encoding when `declared` is undefined),
 * stopping as soon as the server answers. Returns the status and how many
 * body bytes were sent before the answer.
 */
async function postRaw(
  url: string,
  declared: number | undefined,
  max: number,
): Promise<{ status: number; sent: number }> {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  const encoder = new TextEncoder();
  const head = [
    "POST /posts HTTP/1.1",
    `Host: ${hostname}`,
    "Authorization: Bearer editor",
    "Content-Type: application/json",
    declared === undefined
      ? "Transfer-Encoding: chunked"
      : `Content-Length: ${declared}`,
    "",
    "",
  ].join("\r\n");
  let answer = "";
  const reading = (async () => {
    const buffer = new Uint8Array(4096);
    for (;;) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) return;
      answer += new TextDecoder().decode(buffer.subarray(0, n));
      if (answer.includes("\r\n")) return;
    }
  })();
  let sent = 0;
  try {
    await conn.write(encoder.encode(head));
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const framed = declared === undefined
      ? new Uint8Array([
        ...encoder.encode(`${chunk.byteLength.toString(16)}\r\n`),
        ...chunk,
        ...encoder.encode("\r\n"),
      ])
      : chunk;
    while (sent < max && !answer.includes("\r\n")) {
      await conn.write(framed).catch(() => {});
      sent += chunk.byteLength;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await Promise.race([
      reading,
      new Promise((resolve) => setTimeout(resolve, 5_000)),
    ]);
  } finally {
    conn.close();
  }
  await reading;
  const status = Number(answer.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0);
  return { status, sent };
}

for (const runtime of ["deno", "bun", "node"] as const) {
  Deno.test(`The reference application answers 413 to an oversized body before reading it (${runtime})`, async () => {
    const { ServerProcess } = await import("../e2e/_server.ts");
    await using server = await ServerProcess.start(runtime);
    const declared = await postRaw(server.url, 200 * 1024 * 1024, 1024 * 1024);
    assert.equal(declared.status, 413);
    const streamed = await postRaw(server.url, undefined, 64 * 1024 * 1024);
    assert.equal(streamed.status, 413);
    // Answered long before the client could send the 64 MiB it would have.
    assert.ok(streamed.sent < 16 * 1024 * 1024, `sent ${streamed.sent}`);
  });
}
