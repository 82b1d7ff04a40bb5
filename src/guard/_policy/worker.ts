// The policy worker: loads (validates and compiles) policies off the main
// thread for CachedFileEnforcerProvider. Runs as a Web Worker (Deno, Bun)
// or a worker_threads worker (Node). Messages in: `{ id, request }`; out:
// `{ ready: true }` once loaded, then `{ id, result }` per request, with the
// index buffers transferred.
import { compiledBuffers } from "../_index/mod.ts";
import { compilePolicy, type CompileRequest } from "./compile.ts";

interface Port {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
}

async function handle(
  port: Port,
  message: { id: number; request: CompileRequest },
): Promise<void> {
  const result = await compilePolicy(message.request);
  port.postMessage(
    { id: message.id, result },
    result.kind === "compiled" ? compiledBuffers(result.index) : [],
  );
}

if ("onmessage" in globalThis) {
  const scope = globalThis as unknown as Port & {
    onmessage: ((event: MessageEvent) => void) | null;
  };
  scope.onmessage = (event) => void handle(scope, event.data);
  scope.postMessage({ ready: true }, []);
} else {
  const { parentPort } = await import("node:worker_threads");
  if (parentPort !== null) {
    const port = parentPort;
    port.on("message", (message) => void handle(port, message));
    port.postMessage({ ready: true }, []);
  }
}
