// The reference routes (GET /me, GET /posts, POST /posts) with JWT users:
// the same model and policy files as examples/server.ts, with the user read
// from a verified token instead of a bare role.
//
//   deno run --allow-net --allow-read --allow-env examples/jwt_server.ts
//   bun run examples/jwt_server.ts
//   deno task jwt:tokens                  (a token for each role)
//   curl -H "Authorization: Bearer $(deno task -q jwt:tokens editor)" \
//        -d '{"title":"Hi"}' http://localhost:8000/posts
//
// The token may also come in a cookie named "token". Environment: PORT
// (default 8000; 0 picks a free port), MODEL_PATH, POLICY_PATH, and the key:
//   JWKS_URL (+ JWT_ISSUER, JWT_AUDIENCE)      a remote key set, or
//   JWT_PUBLIC_KEY, JWT_ALGORITHMS (+ issuer/audience)   a PEM public key, or
//   JWT_SECRET (default: the development secret of jwt_tokens.ts).
import process from "node:process";
import { fileURLToPath } from "node:url";
import {
  CachedFileEnforcerProvider,
  type EnforcerProvider,
  HttpError,
  type JwtAlgorithm,
  JwtUserProvider,
  type JwtUserProviderOptions,
  PermissionGuard,
} from "../src/guard/mod.ts";
import { AUDIENCE, DEVELOPMENT_SECRET, ISSUER } from "./jwt_tokens.ts";

type Handler = (request: Request) => Response | Promise<Response>;

/**
 * The JWT options the server uses, from the environment: a JWKS URL, a PEM
 * public key, or the shared secret.
 */
export function jwtOptionsFromEnv(
  env: Record<string, string | undefined> = process.env,
): JwtUserProviderOptions {
  const claims = {
    cookie: "token",
    issuer: env.JWT_ISSUER || ISSUER,
    audience: env.JWT_AUDIENCE || AUDIENCE,
    clockTolerance: 5,
  };
  if (env.JWKS_URL) return { ...claims, jwksUrl: env.JWKS_URL };
  if (env.JWT_PUBLIC_KEY) {
    const algorithms = env.JWT_ALGORITHMS?.split(",").map((a) => a.trim());
    return {
      ...claims,
      publicKey: env.JWT_PUBLIC_KEY,
      ...(algorithms ? { algorithms: algorithms as JwtAlgorithm[] } : {}),
    };
  }
  return { ...claims, secret: env.JWT_SECRET || DEVELOPMENT_SECRET };
}

/**
 * Builds the request handler: the reference routes guarded by JWT users and
 * the given enforcer provider.
 */
export function createJwtApp(
  enforcerProvider: EnforcerProvider,
  jwt: JwtUserProvider,
): Handler {
  const guard = new PermissionGuard({
    userProvider: jwt.userProvider,
    enforcerProvider,
  });
  const posts = [{ id: 1, title: "Welcome", body: "", author: "admin" }];

  const me = guard.authRequired()((request) => {
    const { role, sub } = guard.getUser(request);
    return Response.json({ role, sub });
  });
  const list = guard.requirePermission("post", "read")(() =>
    Response.json(posts)
  );
  const create = guard.requirePermission("post", "write")(async (request) => {
    const input = await request.json().catch(() => null);
    const title = (input as { title?: unknown } | null)?.title;
    if (
      typeof title !== "string" || title.trim() === "" || title.length > 200
    ) {
      throw new HttpError(400, "title must be a non-empty string");
    }
    const post = {
      id: posts.length + 1,
      title,
      body: "",
      author: String(guard.getUser(request).sub ?? ""),
    };
    posts.push(post);
    return Response.json(post, { status: 201 });
  });

  const routes: Record<string, Record<string, Handler>> = {
    "/me": { GET: me },
    "/posts": { GET: list, POST: create },
  };
  return async (request) => {
    const methods = routes[new URL(request.url).pathname];
    if (methods === undefined) {
      return new HttpError(404, "Not Found").toResponse();
    }
    const handler = methods[request.method];
    if (handler === undefined) {
      return new HttpError(405, "Method Not Allowed", {
        headers: { allow: Object.keys(methods).join(", ") },
      }).toResponse();
    }
    return await handler(request);
  };
}

interface BunRuntime {
  serve(options: { port: number; fetch: Handler }): {
    port: number;
    stop(): unknown;
  };
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT || 8000);
  const provider = await CachedFileEnforcerProvider.open({
    modelPath: process.env.MODEL_PATH ||
      fileURLToPath(new URL("./model.conf", import.meta.url)),
    policyPath: process.env.POLICY_PATH ||
      fileURLToPath(new URL("./policy.csv", import.meta.url)),
  });
  const jwt = await JwtUserProvider.create(jwtOptionsFromEnv());
  const app = createJwtApp(provider, jwt);

  const bun = (globalThis as { Bun?: BunRuntime }).Bun;
  let stopServer: () => unknown;
  let listening: number;
  if (bun !== undefined) {
    const server = bun.serve({ port, fetch: app });
    listening = server.port;
    stopServer = () => server.stop();
  } else {
    const server = Deno.serve({ port, onListen: () => {} }, app);
    listening = server.addr.port;
    stopServer = () => server.shutdown();
  }
  // deno-lint-ignore no-console
  console.log(`Listening on http://localhost:${listening}/`);
  const stop = async (): Promise<void> => {
    await stopServer();
    await provider.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop());
  process.once("SIGTERM", () => void stop());
}

if (import.meta.main) await main();
