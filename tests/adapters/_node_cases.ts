import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import {
  bearerUserProvider,
  PermissionGuard,
} from "@portcullis/portcullis/guard";
import { serve } from "@portcullis/portcullis/node";
import {
  type Case,
  eventually,
  rawExchange,
  settled,
  upload,
} from "./_case.ts";

const MiB = 1024 * 1024;
const LOCAL = { hostname: "127.0.0.1", port: 0 };

export const nodeCases: Case[] = [{
  name: "serve() answers a guarded handler: allowed, denied and anonymous",
  async run(): Promise<void> {
    const guard = new PermissionGuard({
      userProvider: bearerUserProvider,
      enforcerProvider: () => ({
        enforce: (user: { role?: string }, _object: unknown, action: unknown) =>
          user.role === "editor" || action === "read",
      }),
    });
    const write = guard.requirePermission("post", "write")((request) =>
      Response.json({ author: guard.getUser(request).role }, { status: 201 })
    );
    await using server = await serve(write, LOCAL);
    assert.equal(server.addr.hostname, "127.0.0.1");
    const url = `http://127.0.0.1:${server.addr.port}/posts`;
    const call = (role?: string): Promise<Response> =>
      fetch(url, {
        method: "POST",
        headers: role === undefined ? {} : { authorization: `Bearer ${role}` },
      });
    const created = await call("editor");
    assert.equal(created.status, 201);
    assert.deepEqual(await created.json(), { author: "editor" });
    const denied = await call("viewer");
    assert.equal(denied.status, 403);
    assert.deepEqual(await denied.json(), { detail: "Forbidden" });
    const anonymous = await call();
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("www-authenticate"), "Bearer");
    await anonymous.body?.cancel();
  },
}, {
  name:
    "toRequest() keeps the target, repeated headers and the body; writeResponse() every Set-Cookie",
  async run(): Promise<void> {
    await using server = await serve(async (request) => {
      const headers = new Headers();
      headers.append("set-cookie", "a=1");
      headers.append("set-cookie", "b=2");
      return Response.json({
        url: request.url,
        method: request.method,
        accept: request.headers.get("x-tag"),
        body: await request.text(),
      }, { status: 202, statusText: "Taken", headers });
    }, LOCAL);
    const port = server.addr.port;
    const answer = await new Promise<{
      status: number | undefined;
      message: string | undefined;
      cookies: string[] | undefined;
      body: string;
    }>((resolve, reject) => {
      const client = httpRequest({
        host: "127.0.0.1",
        port,
        method: "PUT",
        path: "/a/b?c=d",
        headers: { "x-tag": ["one", "two"], "content-type": "text/plain" },
      }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => body += chunk);
        res.on("end", () =>
          resolve({
            status: res.statusCode,
            message: res.statusMessage,
            cookies: res.headers["set-cookie"],
            body,
          }));
      });
      client.on("error", reject);
      client.end("hello body");
    });
    assert.equal(answer.status, 202);
    assert.equal(answer.message, "Taken");
    assert.deepEqual(answer.cookies, ["a=1", "b=2"]);
    assert.deepEqual(JSON.parse(answer.body), {
      url: `http://127.0.0.1:${port}/a/b?c=d`,
      method: "PUT",
      accept: "one, two",
      body: "hello body",
    });
  },
}, {
  name: "serve() streams a large request body back without holding it",
  async run(): Promise<void> {
    await using server = await serve(
      (request) => new Response(request.body),
      LOCAL,
    );
    const size = 8 * MiB + 123;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller): void {
        const n = Math.min(256 * 1024, size - sent);
        if (n === 0) {
          controller.close();
          return;
        }
        controller.enqueue(new Uint8Array(n).fill(sent % 251));
        sent += n;
      },
    });
    const response = await fetch(`http://127.0.0.1:${server.addr.port}/`, {
      method: "POST",
      body,
      duplex: "half",
    } as RequestInit);
    let received = 0;
    for await (const chunk of response.body!) received += chunk.byteLength;
    assert.equal(received, size);
  },
}, {
  name:
    "a handler that does not read the body holds the upload back (backpressure)",
  async run(): Promise<void> {
    let release = (): void => {};
    const released = new Promise<void>((resolve) => release = resolve);
    let firstChunk = 0;
    await using server = await serve(async (request) => {
      await released;
      const reader = request.body!.getReader();
      firstChunk = (await reader.read()).value?.byteLength ?? 0;
      await reader.cancel();
      return new Response("enough", { status: 413 });
    }, LOCAL);
    const client = upload(server.addr.port, 512 * MiB);
    try {
      const stalledAt = await settled(client.written);
      assert.ok(
        stalledAt < 64 * MiB,
        `the client could write ${stalledAt} bytes to a handler that read none`,
      );
      release();
      assert.equal(await client.response, 413);
      assert.ok(firstChunk > 0);
    } finally {
      client.stop();
    }
  },
}, {
  name:
    "a client that does not read holds the response producer back, and closing cancels it",
  async run(): Promise<void> {
    let produced = 0;
    let cancelled = false;
    const chunk = new Uint8Array(64 * 1024);
    await using server = await serve(() =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller): void {
            if (produced >= 512 * MiB) {
              controller.close();
              return;
            }
            produced += chunk.byteLength;
            controller.enqueue(chunk.slice());
          },
          cancel(): void {
            cancelled = true;
          },
        }, { highWaterMark: 0 }),
      ), LOCAL);
    const client = httpRequest({
      host: "127.0.0.1",
      port: server.addr.port,
      path: "/",
    });
    const res = await new Promise<import("node:http").IncomingMessage>(
      (resolve, reject) => {
        client.on("response", resolve);
        client.on("error", () => {});
        client.on("error", reject);
        client.end();
      },
    );
    res.pause();
    const stalledAt = await settled(() => produced);
    assert.ok(
      stalledAt < 64 * MiB,
      `the handler could produce ${stalledAt} bytes for a client that read none`,
    );
    client.destroy();
    await eventually(() => cancelled, "the response body is cancelled");
  },
}, {
  name: "the request signal aborts when the client goes away",
  async run(): Promise<void> {
    let aborted = false;
    let started = (): void => {};
    const inHandler = new Promise<void>((resolve) => started = resolve);
    await using server = await serve(async (request) => {
      started();
      await new Promise((resolve) =>
        request.signal.addEventListener("abort", resolve, { once: true })
      );
      aborted = true;
      return new Response("late");
    }, LOCAL);
    const client = httpRequest({
      host: "127.0.0.1",
      port: server.addr.port,
      path: "/slow",
    });
    client.on("error", () => {});
    client.end();
    await inHandler;
    client.destroy();
    await eventually(() => aborted, "the handler sees the abort");
  },
}, {
  name: "a bad Host header gets 400 and a path-like target stays on the origin",
  async run(): Promise<void> {
    await using server = await serve((request) => new Response(request.url), {
      ...LOCAL,
    });
    const port = server.addr.port;
    const bad = await rawExchange(
      port,
      "GET / HTTP/1.1\r\nHost: a b/c\r\nConnection: close\r\n\r\n",
    );
    assert.match(bad, /^HTTP\/1\.1 400 /);
    assert.match(bad, /\{"detail":"Bad Request"\}$/);
    const slashes = await rawExchange(
      port,
      "GET //evil.example/x HTTP/1.1\r\nHost: app.example\r\nConnection: close\r\n\r\n",
    );
    assert.match(slashes, /^HTTP\/1\.1 200 /);
    assert.ok(
      slashes.includes("\r\nhttp://app.example//evil.example/x\r\n"),
      slashes,
    );
  },
}, {
  name:
    "a throwing handler gets 500 without details, and onError sees the error",
  async run(): Promise<void> {
    const seen: unknown[] = [];
    await using server = await serve(() => {
      throw new Error("database password is hunter2");
    }, { ...LOCAL, onError: (error) => void seen.push(error) });
    const response = await fetch(`http://127.0.0.1:${server.addr.port}/`);
    assert.equal(response.status, 500);
    assert.equal(await response.text(), '{"detail":"Internal Server Error"}');
    assert.equal((seen[0] as Error).message, "database password is hunter2");
  },
}, {
  name: "serve() rejects with EADDRINUSE when the port is taken",
  async run(): Promise<void> {
    await using first = await serve(() => new Response("first"), LOCAL);
    await assert.rejects(
      serve(() => new Response("second"), { ...LOCAL, port: first.addr.port }),
      { code: "EADDRINUSE" },
    );
  },
}, {
  name: "a HEAD answer sends no body and cancels it",
  async run(): Promise<void> {
    let cancelled = false;
    await using server = await serve(() =>
      new Response(
        new ReadableStream({
          cancel(): void {
            cancelled = true;
          },
        }),
        { headers: { "x-kind": "stream" } },
      ), LOCAL);
    const response = await fetch(`http://127.0.0.1:${server.addr.port}/`, {
      method: "HEAD",
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("x-kind"), "stream");
    assert.equal(await response.text(), "");
    await eventually(() => cancelled, "the HEAD body is cancelled");
  },
}, {
  name:
    "close() lets a request in flight finish; an aborted signal closes the server",
  async run(): Promise<void> {
    const controller = new AbortController();
    let finish = (): void => {};
    const finished = new Promise<void>((resolve) => finish = resolve);
    let started = (): void => {};
    const inHandler = new Promise<void>((resolve) => started = resolve);
    const server = await serve(async () => {
      started();
      await finished;
      return new Response("done");
    }, { ...LOCAL, signal: controller.signal });
    const pending = fetch(`http://127.0.0.1:${server.addr.port}/`);
    await inHandler;
    controller.abort();
    const closed = server.close();
    finish();
    assert.equal(await (await pending).text(), "done");
    await closed;
    assert.equal(server.server.listening, false);
  },
}];
