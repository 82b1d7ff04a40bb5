// The guard behind node:http: a small adapter turns IncomingMessage into a
// web-standard Request and writes the Response back. The application is the
// reference one from server.ts.
//
//   deno run --allow-net --allow-read --allow-env=PORT,MODEL_PATH,POLICY_PATH,__MINIMATCH_TESTING_PLATFORM__ examples/node.ts
//   bun run examples/node.ts
//   Node: bundle it first, as tests/examples/node_test.ts does for Node 20
//   (esbuild --bundle --platform=node --format=esm examples/node.ts)
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import process from "node:process";
import { Readable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CachedFileEnforcerProvider } from "../src/guard/mod.ts";
import { createApp } from "./server.ts";

/** Builds a web-standard Request from a node:http request. */
export function toRequest(message: IncomingMessage): Request {
  const url = new URL(
    message.url ?? "/",
    `http://${message.headers.host ?? "localhost"}`,
  );
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      headers.append(name, item);
    }
  }
  const method = message.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers,
    body: hasBody ? Readable.toWeb(message) as ReadableStream : null,
    duplex: "half",
  } as RequestInit);
}

/** Writes a web-standard Response to a node:http response. */
export async function writeResponse(
  response: Response,
  out: ServerResponse,
): Promise<void> {
  out.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") out.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out.setHeader("set-cookie", cookies);
  if (response.body !== null) {
    for await (const chunk of response.body) out.write(chunk);
  }
  out.end();
}

/** Serves a fetch-style handler with node:http. */
export function createNodeServer(
  handler: (request: Request) => Response | Promise<Response>,
): Server {
  return createServer(async (message, out) => {
    try {
      await writeResponse(await handler(toRequest(message)), out);
    } catch {
      if (!out.headersSent) {
        out.statusCode = 500;
        out.setHeader("content-type", "application/json");
      }
      out.end('{"detail":"Internal Server Error"}');
    }
  });
}

// Node before 24.2 has no import.meta.main.
const isMain = import.meta.main ??
  (process.argv[1] !== undefined &&
    pathToFileURL(process.argv[1]).href === import.meta.url);

if (isMain) {
  const provider = await CachedFileEnforcerProvider.open({
    modelPath: process.env.MODEL_PATH ||
      fileURLToPath(new URL("./model.conf", import.meta.url)),
    policyPath: process.env.POLICY_PATH ||
      fileURLToPath(new URL("./policy.csv", import.meta.url)),
  });
  const server = createNodeServer(createApp(provider));
  server.listen(Number(process.env.PORT || 8002), () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : "";
    // deno-lint-ignore no-console
    console.log(`Listening on http://localhost:${port}/`);
  });
  const stop = (): void => {
    server.close(async () => {
      await provider.close();
      process.exit(0);
    });
    server.closeAllConnections();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
