import type { IncomingMessage } from "node:http";
import { bodyStream } from "./_body_stream.ts";

/**
 * Options for {@linkcode toRequest}.
 *
 * @example
 * ```ts
 * import type { ToRequestOptions } from "@portcullis/portcullis/node";
 *
 * const options: ToRequestOptions = { origin: "https://api.example.com" };
 * ```
 */
export interface ToRequestOptions {
  /**
   * The scheme and host of the request URL, such as
   * `"https://api.example.com"`, instead of the ones taken from the
   * connection and the `Host` header. Set it behind a proxy, or to stop
   * clients from choosing the host the application sees.
   * @default {undefined}
   */
  origin?: string;
  /**
   * The request target (path and query) to use instead of `message.url`,
   * e.g. Express's `req.originalUrl`, which mounted routers leave whole.
   * @default {undefined}
   */
  target?: string;
  /**
   * The body to use instead of reading `message`, e.g. one a body parser
   * already read; `null` for none.
   * @default {undefined}
   */
  body?: BodyInit | null;
  /**
   * Aborts the request's `signal`, e.g. when the client goes away.
   * @default {undefined}
   */
  signal?: AbortSignal;
}

// A host as it may appear in a Host header: a name or IPv4 address, or an
// IPv6 literal in brackets, and an optional port.
const HOST =
  /^(?:[A-Za-z0-9._~!$&'()*+,;=%-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * Builds a web-standard `Request` from a `node:http` request, for a
 * `(Request) => Response` handler such as a guarded one.
 *
 * The URL is the request target on the connection's scheme and the `Host`
 * header (or `options.origin`). The headers keep every value, repeated ones
 * included. The body is streamed: it is read from the connection only as
 * the handler reads it, one chunk at a time, so a large or slow upload is
 * never buffered by the adapter. `GET` and `HEAD` requests, and requests
 * with neither `Content-Length` nor `Transfer-Encoding`, have no body.
 *
 * @param message The incoming request of a `node:http` server.
 * @param options The origin to use and an abort signal.
 * @returns The request; its body is the unread rest of `message`.
 * @throws {TypeError} When the target or the `Host` header cannot form a
 * URL, or the method or a header is one a `Request` cannot hold.
 *
 * @example Usage
 * ```ts
 * import { toRequest } from "@portcullis/portcullis/node";
 * import { IncomingMessage } from "node:http";
 * import { Socket } from "node:net";
 * import assert from "node:assert/strict";
 *
 * const message = new IncomingMessage(new Socket());
 * message.method = "GET";
 * message.url = "/posts?page=2";
 * message.headers = { host: "localhost:8000", authorization: "Bearer viewer" };
 * message.rawHeaders = ["Host", "localhost:8000", "Authorization", "Bearer viewer"];
 *
 * const request = toRequest(message);
 * assert.equal(request.url, "http://localhost:8000/posts?page=2");
 * assert.equal(request.headers.get("authorization"), "Bearer viewer");
 * assert.equal(request.body, null);
 * ```
 */
export function toRequest(
  message: IncomingMessage,
  options: ToRequestOptions = {},
): Request {
  const method = message.method ?? "GET";
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.startsWith(":")) continue; // HTTP/2 pseudo-headers
    headers.append(name, raw[i + 1]!);
  }
  const length = headers.get("content-length");
  const hasBody = length !== null && length !== "0" ||
    headers.has("transfer-encoding");
  const init: RequestInit & { duplex?: "half" } = { method, headers };
  if (options.signal !== undefined) init.signal = options.signal;
  if (method === "GET" || method === "HEAD") {
    // A Request with these methods cannot have a body.
  } else if (options.body !== undefined) {
    // The framing headers described the bytes on the wire, not this body.
    headers.delete("content-length");
    headers.delete("transfer-encoding");
    init.body = options.body;
    init.duplex = "half";
  } else if (hasBody) {
    init.body = bodyStream(message);
    init.duplex = "half";
  }
  const target = options.target ?? message.url ?? "/";
  return new Request(requestUrl(message, target, options.origin), init);
}

function requestUrl(
  message: IncomingMessage,
  target: string,
  origin: string | undefined,
): string {
  if (origin === undefined) {
    if (/^https?:\/\//i.test(target)) return checked(target, target); // absolute-form
    const encrypted = (message.socket as { encrypted?: boolean } | null)
      ?.encrypted === true;
    const host = message.headers.host ?? message.headers[":authority"];
    if (typeof host !== "string" || !HOST.test(host)) {
      throw new TypeError(
        `Cannot convert request: the Host header ${
          JSON.stringify(host ?? "")
        } is not a host`,
      );
    }
    origin = `${encrypted ? "https" : "http"}://${host}`;
  }
  if (!target.startsWith("/")) {
    throw new TypeError(
      `Cannot convert request: the target ${
        JSON.stringify(target)
      } is not a path`,
    );
  }
  // Concatenated, not resolved: "//other.example/x" stays a path on origin.
  return checked(origin.replace(/\/+$/, "") + target, target);
}

function checked(url: string, target: string): string {
  if (!URL.canParse(url)) {
    throw new TypeError(
      `Cannot convert request: ${JSON.stringify(target)} does not form a URL`,
    );
  }
  return url;
}
