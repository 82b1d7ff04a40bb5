import type { ServerResponse } from "node:http";

/**
 * Writes a web-standard `Response` to a `node:http` response: status,
 * headers (each `Set-Cookie` on its own line) and body.
 *
 * The body is streamed with backpressure: the next chunk is read from the
 * `Response` only once the connection took the previous one, so a slow
 * client holds back the producer instead of filling memory. When the client
 * goes away first, the body is cancelled (its `cancel()` runs) and the
 * promise resolves. When the body fails midway, the connection is destroyed,
 * so the client sees a cut answer, not a complete-looking one, and the
 * promise rejects with the body's error. Responses to `HEAD` and `204` or
 * `304` answers send no body.
 *
 * @param response The answer to send.
 * @param out The `node:http` response to write to.
 * @returns A promise that settles once the answer is written or abandoned.
 *
 * @example Usage
 * ```ts ignore
 * import { toRequest, writeResponse } from "@portcullis/portcullis/node";
 * import { createServer } from "node:http";
 *
 * const handler = (request: Request) => new Response(`you asked for ${new URL(request.url).pathname}`);
 * createServer(async (message, out) => {
 *   await writeResponse(await handler(toRequest(message)), out);
 * }).listen(8000, "127.0.0.1");
 * ```
 */
export async function writeResponse(
  response: Response,
  out: ServerResponse,
): Promise<void> {
  out.statusCode = response.status;
  if (response.statusText !== "") out.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") out.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out.setHeader("set-cookie", cookies);

  const body = response.body;
  const method = (out as { req?: { method?: string } }).req?.method;
  if (
    body === null || method === "HEAD" || response.status === 204 ||
    response.status === 304
  ) {
    if (body !== null) await body.cancel().catch(() => {});
    await end(out);
    return;
  }
  const reader = body.getReader();
  const onClose = (): void => {
    if (!out.writableFinished) {
      reader.cancel(new Error("The client closed the connection")).catch(
        () => {},
      );
    }
  };
  out.on("close", onClose);
  try {
    out.flushHeaders();
    while (true) {
      const { done, value } = await reader.read();
      if (done || out.destroyed) break;
      if (!out.write(value) && !await drained(out)) break;
    }
  } catch (error) {
    out.destroy();
    throw error;
  } finally {
    out.off("close", onClose);
    reader.releaseLock();
  }
  if (out.destroyed) {
    await body.cancel().catch(() => {});
    return;
  }
  await end(out);
}

/** Resolves true once `out` drained, false when it closed first. */
function drained(out: ServerResponse): Promise<boolean> {
  if (out.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onDrain = (): void => {
      out.off("close", onClose);
      resolve(true);
    };
    const onClose = (): void => {
      out.off("drain", onDrain);
      resolve(false);
    };
    out.once("drain", onDrain);
    out.once("close", onClose);
  });
}

function end(out: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (out.destroyed) return resolve();
    out.end(() => resolve());
    // end()'s callback does not run when the connection closes first.
    out.once("close", () => resolve());
  });
}
