// The reference application: a small posts API protected by casbin policies
// that are reloaded from disk while the server runs.
//
//   deno task start                  (Deno.serve)
//   bun run examples/server.ts       (Bun.serve)
//
// Environment: PORT (default 8000; 0 picks a free port), MODEL_PATH and
// POLICY_PATH (default: model.conf and policy.csv next to this file), and
// POLICY_DATABASE_URL to serve the policy from PostgreSQL or PGlite
// instead (see examples/policy_database.ts and docs/postgres.md).
//
//   curl -H "Authorization: Bearer viewer" http://localhost:8000/posts
//   curl -H "Authorization: Bearer editor" -d '{"title":"Hi"}' http://localhost:8000/posts
import process from "node:process";
import { fileURLToPath } from "node:url";
import {
  addressInUseMessage,
  isAddressInUse,
  listeningMessage,
} from "./_listening.ts";
import {
  bearerUserProvider,
  CachedFileEnforcerProvider,
  type EnforcerProvider,
  HttpError,
  PermissionGuard,
  readJsonBody,
} from "../src/guard/mod.ts";
import { openDatabaseProvider } from "./policy_database.ts";

// Node before 23.8 has no URLPattern; Deno and Bun do.
if (!("URLPattern" in globalThis)) await import("urlpattern-polyfill");

/** A post as the API returns it. */
export interface Post {
  id: number;
  title: string;
  body: string;
  author: string;
}

type Handler = (request: Request) => Response | Promise<Response>;

interface Route {
  pattern: URLPattern;
  methods: Record<string, Handler>;
  allow: string;
}

const MAX_TITLE = 200;
const MAX_BODY = 10_000;
// A post is at most 10,000 characters of body and 200 of title: 64 KiB of
// JSON holds that with room for escapes, and nothing larger is ever read.
const MAX_REQUEST_BYTES = 64 * 1024;

/**
 * Builds the application's request handler: `GET /me`, `GET /posts` and
 * `POST /posts`, guarded by bearer users and the given enforcer provider.
 */
export function createApp(enforcerProvider: EnforcerProvider): Handler {
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider,
  });
  const posts: Post[] = [
    { id: 1, title: "Welcome", body: "First post.", author: "admin" },
    {
      id: 2,
      title: "Policies",
      body: "Edit policy.csv live.",
      author: "admin",
    },
  ];

  const me = guard.authRequired()((request) =>
    Response.json(guard.getUser(request))
  );
  const listPosts = guard.requirePermission("post", "read")(() =>
    Response.json(posts)
  );
  const createPost = guard.requirePermission("post", "write")(
    async (request) => {
      const input = await readPostInput(request);
      const post: Post = {
        id: posts.length === 0 ? 1 : posts[posts.length - 1]!.id + 1,
        title: input.title,
        body: input.body,
        author: guard.getUser(request).role ?? "",
      };
      posts.push(post);
      return Response.json(post, { status: 201 });
    },
  );

  const routes: Route[] = [
    route("/me", { GET: me }),
    route("/posts", { GET: listPosts, POST: createPost }),
  ];

  return async (request) => {
    for (const { pattern, methods, allow } of routes) {
      if (!pattern.test(request.url)) continue;
      const handler = methods[request.method];
      if (handler === undefined) {
        return new HttpError(405, "Method Not Allowed", {
          headers: { allow },
        }).toResponse();
      }
      return await handler(request);
    }
    return new HttpError(404, "Not Found").toResponse();
  };
}

function route(pathname: string, methods: Record<string, Handler>): Route {
  return {
    pattern: new URLPattern({ pathname }),
    methods,
    allow: Object.keys(methods).join(", "),
  };
}

async function readPostInput(
  request: Request,
): Promise<{ title: string; body: string }> {
  // 413 over the size, 408 after 5 s, 400 when not JSON.
  const input = await readJsonBody(request, {
    maxBodyBytes: MAX_REQUEST_BYTES,
  });
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new HttpError(400, "Body must be a JSON object");
  }
  const { title, body = "" } = input as Record<string, unknown>;
  if (
    typeof title !== "string" || title.trim() === "" ||
    title.length > MAX_TITLE
  ) {
    throw new HttpError(
      400,
      `title must be a non-empty string of at most ${MAX_TITLE} characters`,
    );
  }
  if (typeof body !== "string" || body.length > MAX_BODY) {
    throw new HttpError(
      400,
      `body must be a string of at most ${MAX_BODY} characters`,
    );
  }
  return { title, body };
}

interface RunningServer {
  hostname: string;
  port: number;
  stop(): Promise<void>;
}

interface BunServer {
  hostname: string;
  port: number;
  stop(closeActiveConnections?: boolean): Promise<void> | void;
}

interface BunRuntime {
  serve(options: { port: number; fetch: Handler }): BunServer;
}

/** Serves with Bun.serve under Bun and Deno.serve under Deno. */
function serve(handler: Handler, port: number): Promise<RunningServer> {
  const bun = (globalThis as { Bun?: BunRuntime }).Bun;
  if (bun !== undefined) {
    const server = bun.serve({ port, fetch: handler });
    return Promise.resolve({
      hostname: server.hostname,
      port: server.port,
      stop: async () => {
        await server.stop();
      },
    });
  }
  return new Promise((resolve) => {
    const server = Deno.serve({
      port,
      onListen: ({ hostname, port }) =>
        resolve({ hostname, port, stop: () => server.shutdown() }),
    }, handler);
  });
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === "") return 8000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(
      `Cannot start server: PORT must be an integer from 0 to 65535, got "${value}"`,
    );
  }
  return port;
}

async function main(): Promise<void> {
  const port = parsePort(process.env.PORT);
  const modelPath = process.env.MODEL_PATH ||
    fileURLToPath(new URL("./model.conf", import.meta.url));
  const policyPath = process.env.POLICY_PATH ||
    fileURLToPath(new URL("./policy.csv", import.meta.url));

  const databaseUrl = process.env.POLICY_DATABASE_URL;
  const provider = databaseUrl
    ? await openDatabaseProvider(databaseUrl, modelPath, policyPath)
    : await CachedFileEnforcerProvider.open({
      modelPath,
      policyPath,
      onReload: (event) =>
        // deno-lint-ignore no-console
        console.log(
          `Policy reloaded: ${
            event.changed.join(" and ")
          } changed, ${event.rules} rules (loaded ${
            event.loadedIn === "worker"
              ? "in a worker thread"
              : "on the event loop"
          })`,
        ),
      onError: (error) =>
        // deno-lint-ignore no-console
        console.error(
          `Policy not reloaded, still serving the last good one: [${error.code}] ${error.message}`,
        ),
    });
  let server: RunningServer;
  try {
    server = await serve(createApp(provider), port);
  } catch (error) {
    await provider.close();
    throw isAddressInUse(error) ? new Error(addressInUseMessage(port)) : error;
  }
  // deno-lint-ignore no-console
  console.log(listeningMessage(server.hostname, server.port));

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    // deno-lint-ignore no-console
    console.log(`Received ${signal}, shutting down`);
    let code = 0;
    try {
      await server.stop();
      await provider.close();
    } catch (error) {
      // deno-lint-ignore no-console
      console.error("Cannot shut down cleanly:", error);
      code = 1;
    }
    process.exit(code);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    // deno-lint-ignore no-console
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
