// A node:stream Readable (a request body) as a web ReadableStream that reads
// only when its consumer asks: nothing is pulled before the first read, at
// most one chunk is handed over per read, and the socket stays paused in
// between, so a slow or absent consumer never makes the server buffer the
// body. Node's own Readable.toWeb() queues up to readableHighWaterMark
// *chunks* in some versions, which is not a bound in bytes.
import type { Readable } from "node:stream";

/** Why a body ended early: the client closed the connection first. */
const CLOSED_EARLY =
  "Cannot read request body: the client closed the connection before the body ended";

export function bodyStream(source: Readable): ReadableStream<Uint8Array> {
  let detach = (): void => {};
  return new ReadableStream<Uint8Array>({
    pull(controller): Promise<void> | void {
      const chunk = source.read() as Uint8Array | null;
      if (chunk !== null) {
        controller.enqueue(chunk);
        return;
      }
      if (source.readableEnded) {
        controller.close();
        return;
      }
      if (source.destroyed) {
        controller.error(source.errored ?? new Error(CLOSED_EARLY));
        return;
      }
      return new Promise<void>((resolve) => {
        const onReadable = (): void => {
          const next = source.read() as Uint8Array | null;
          if (next === null) return; // 'end' follows, or more data later
          detach();
          controller.enqueue(next);
          resolve();
        };
        const onEnd = (): void => {
          detach();
          controller.close();
          resolve();
        };
        const onError = (error: unknown): void => {
          detach();
          controller.error(error);
          resolve();
        };
        const onClose = (): void => {
          if (source.readableEnded) return onEnd();
          onError(source.errored ?? new Error(CLOSED_EARLY));
        };
        source.on("readable", onReadable);
        source.on("end", onEnd);
        source.on("error", onError);
        source.on("close", onClose);
        detach = () => {
          source.off("readable", onReadable);
          source.off("end", onEnd);
          source.off("error", onError);
          source.off("close", onClose);
          detach = () => {};
        };
      });
    },
    cancel(): void {
      // The consumer wants no more: let the rest of the body drain to
      // nowhere, so the response can still be written on this connection.
      detach();
      source.resume();
    },
  }, { highWaterMark: 0 });
}
