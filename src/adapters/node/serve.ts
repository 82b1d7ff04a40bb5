import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { toRequest } from "./to_request.ts";
import { writeResponse } from "./write_response.ts";

/**
 * A web-standard request handler, as {@linkcode serve} calls it.
 *
 * @example
 * ```ts
 * import type { FetchHandler } from "@portcullis/portcullis/node";
 *
 * const hello: FetchHandler = () => new Response("hello");
 * ```
 */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/**
 * Options for {@linkcode serve}.
 *
 * @example
 * ```ts
 * import type { ServeOptions } from "@portcullis/portcullis/node";
 *
 * const options: ServeOptions = { hostname: "127.0.0.1", port: 0 };
 * ```
 */
export interface ServeOptions {
  /**
   * The port to listen on; `0` picks a free one (read it from `addr`).
   * @default {8000}
   */
  port?: number;
  /**
   * The address to listen on. The default, like `Deno.serve` and
   * `Bun.serve`, accepts connections on every IPv4 interface; use
   * `"127.0.0.1"` to accept only local ones.
   * @default {"0.0.0.0"}
   */
  hostname?: string;
  /**
   * The scheme and host of every request URL, instead of the `Host`
   * header (see {@linkcode ToRequestOptions.origin}).
   * @default {undefined}
   */
  origin?: string;
  /**
   * Receives every error that made the server answer 500 (the handler threw
   * or rejected) or cut an answer short (its body failed midway). It may
   * return a `Response` to send instead of the 500, while no byte was sent.
   * @default {console.error}
   */
  onError?: (error: unknown, request: Request) => Response | void;
  /**
   * Closes the server when aborted, as {@linkcode NodeServer.close} does.
   * @default {undefined}
   */
  signal?: AbortSignal;
}

/**
 * A running server from {@linkcode serve}. `await using` it, or call
 * `close()`, to stop it.
 *
 * @example
 * ```ts
 * import { type NodeServer, serve } from "@portcullis/portcullis/node";
 *
 * const server: NodeServer = await serve(() => new Response("hi"), { hostname: "127.0.0.1", port: 0 });
 * await server.close();
 * ```
 */
export interface NodeServer extends AsyncDisposable {
  /** The address and port the server listens on. */
  readonly addr: { hostname: string; port: number };
  /** The underlying `node:http` server. */
  readonly server: Server;
  /**
   * Stops accepting connections, lets the requests in flight finish, and
   * resolves once every connection is closed. Calling it again returns the
   * same promise.
   */
  close(): Promise<void>;
}

const BAD_REQUEST = '{"detail":"Bad Request"}';
const INTERNAL_ERROR = '{"detail":"Internal Server Error"}';

/**
 * Serves a web-standard handler with `node:http`, the way `Deno.serve` and
 * `Bun.serve` do under their runtimes: each request is converted with
 * {@linkcode toRequest} (its body streamed, its `signal` aborted when the
 * client goes away) and the answer written with {@linkcode writeResponse}.
 * A request that cannot form a `Request` gets 400 `{"detail":"Bad Request"}`;
 * a handler that throws gets 500 `{"detail":"Internal Server Error"}`.
 *
 * @param handler The handler, e.g. a guarded one.
 * @param options Where to listen, the request origin, error handling.
 * @returns The running server, once it listens.
 * @throws {Error} When the server cannot listen, e.g. with `code`
 * `"EADDRINUSE"` when the port is taken.
 *
 * @example Usage
 * ```ts
 * import { serve } from "@portcullis/portcullis/node";
 * import assert from "node:assert/strict";
 *
 * await using server = await serve(
 *   (request) => new Response(`hello from ${new URL(request.url).pathname}`),
 *   { hostname: "127.0.0.1", port: 0 },
 * );
 * const response = await fetch(`http://127.0.0.1:${server.addr.port}/docs`);
 * assert.equal(await response.text(), "hello from /docs");
 * ```
 */
export async function serve(
  handler: FetchHandler,
  options: ServeOptions = {},
): Promise<NodeServer> {
  if (typeof handler !== "function") {
    throw new TypeError("Cannot serve: handler must be a function");
  }
  const onError = options.onError ?? ((error: unknown): void => {
    // deno-lint-ignore no-console
    console.error(error);
  });
  // Requests being answered. Once closing, the connections are closed as
  // soon as none is: every connection left is then idle, whatever the
  // runtime's own bookkeeping of idle connections says.
  let inFlight = 0;
  let closing: Promise<void> | undefined;
  const server = createServer((message, out) => {
    inFlight++;
    respond(handler, message, out, options.origin, onError).catch(() =>
      out.destroy()
    ).finally(() => {
      // A body the handler left unread is discarded, so the connection can
      // serve its next request.
      if (!message.readableEnded) message.resume();
      inFlight--;
      if (closing !== undefined && inFlight === 0) {
        server.closeAllConnections?.();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8000, options.hostname ?? "0.0.0.0", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const close = (): Promise<void> =>
    closing ??= new Promise<void>((resolve, reject) => {
      server.close((error) => error ? reject(error) : resolve());
      if (inFlight === 0) server.closeAllConnections?.();
      else server.closeIdleConnections?.();
    });
  options.signal?.addEventListener("abort", () => void close(), {
    once: true,
  });
  if (options.signal?.aborted) await close();
  return {
    addr: { hostname: address.address, port: address.port },
    server,
    close,
    [Symbol.asyncDispose]: close,
  };
}

async function respond(
  handler: FetchHandler,
  message: IncomingMessage,
  out: ServerResponse,
  origin: string | undefined,
  onError: (error: unknown, request: Request) => Response | void,
): Promise<void> {
  const controller = new AbortController();
  out.once("close", () => {
    if (!out.writableFinished) controller.abort();
  });
  let request: Request;
  try {
    request = toRequest(message, {
      signal: controller.signal,
      ...(origin === undefined ? {} : { origin }),
    });
  } catch {
    answer(out, 400, BAD_REQUEST);
    return;
  }
  let response: Response;
  try {
    response = await handler(request);
    if (!(response instanceof Response)) {
      throw new TypeError(
        "Cannot answer: the handler did not return a Response",
      );
    }
  } catch (error) {
    const replacement = reportError(onError, error, request);
    if (replacement === undefined) {
      answer(out, 500, INTERNAL_ERROR);
      return;
    }
    response = replacement;
  }
  try {
    await writeResponse(response, out);
  } catch (error) {
    reportError(onError, error, request);
    if (!out.headersSent) answer(out, 500, INTERNAL_ERROR);
    else out.destroy();
  }
}

function reportError(
  onError: (error: unknown, request: Request) => Response | void,
  error: unknown,
  request: Request,
): Response | undefined {
  try {
    const replacement = onError(error, request);
    return replacement instanceof Response ? replacement : undefined;
  } catch {
    return undefined;
  }
}

function answer(out: ServerResponse, status: number, body: string): void {
  if (out.headersSent) {
    out.destroy();
    return;
  }
  out.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(body.length), // ASCII
  });
  out.end(body);
}
