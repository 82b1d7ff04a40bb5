// Adapter test cases are plain async functions that use only web and node:
// APIs, so the same cases run under Deno (tests/adapters/*_test.ts, against
// src/) and, bundled by scripts/smoke_npm.ts, under Node and Bun against the
// installed npm package.
import { request as httpRequest } from "node:http";
import { connect } from "node:net";

/** One behaviour of an adapter, runnable under any of the three runtimes. */
export interface Case {
  name: string;
  run(): Promise<void>;
}

/** Sends raw bytes on a new connection and returns everything read back. */
export function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(text));
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => received += chunk);
    socket.on("end", () => resolve(received));
    socket.on("error", reject);
  });
}

/**
 * Polls `read()` every 25 ms until it returns the same value 8 times in a
 * row (or 400 polls passed), and returns that value: how far a producer got
 * once backpressure stopped it.
 */
export async function settled(read: () => number): Promise<number> {
  let last = -1;
  let same = 0;
  for (let i = 0; i < 400 && same < 8; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const value = read();
    same = value === last ? same + 1 : 0;
    last = value;
  }
  return last;
}

/** Waits until `check()` is true, polling for at most 10 s. */
export async function eventually(
  check: () => boolean,
  what: string,
): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Timed out waiting until ${what}`);
}

/**
 * Uploads up to `limit` bytes in 64 KiB chunks with node:http, writing only
 * while the connection accepts more (honouring 'drain'), and reports how
 * many bytes were handed to the connection so far.
 */
export function upload(
  port: number,
  limit: number,
): { written: () => number; response: Promise<number>; stop: () => void } {
  let written = 0;
  let stopped = false;
  const chunk = new Uint8Array(64 * 1024).fill(97);
  const client = httpRequest({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/upload",
    headers: { "content-type": "application/octet-stream" },
  });
  const response = new Promise<number>((resolve, reject) => {
    client.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    client.on("error", (error) => stopped ? resolve(0) : reject(error));
  });
  const pump = (): void => {
    while (!stopped && written < limit) {
      written += chunk.byteLength;
      if (!client.write(chunk)) return void client.once("drain", pump);
    }
    if (!stopped) client.end();
  };
  pump();
  return {
    written: () => written,
    response,
    stop: () => {
      stopped = true;
      client.destroy();
    },
  };
}
