// The guard in a Hono application, in two styles: guarded handlers called
// with `c.req.raw`, and guard wrappers as Hono middleware (the library's
// `honoGuard`), which store the user for `c.get("user")`.
//
//   deno run --allow-net --allow-read --allow-env=PORT,__MINIMATCH_TESTING_PLATFORM__ examples/hono.ts
//   bun run examples/hono.ts
import { Hono } from "hono";
import process from "node:process";
import { fileURLToPath } from "node:url";
import {
  bearerUserProvider,
  CachedFileEnforcerProvider,
  type EnforcerProvider,
  HttpError,
  PermissionGuard,
} from "../src/guard/mod.ts";
import { honoGuard } from "../src/adapters/hono/mod.ts";

/** Builds the Hono app over an enforcer provider. */
export function createHonoApp(enforcerProvider: EnforcerProvider): Hono {
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider,
  });
  const allow = honoGuard(guard);
  const posts = [{ id: 1, title: "Welcome", author: "admin" }];
  const app = new Hono();

  // Style 1: wrap a web-standard handler and call it with the raw Request.
  const me = guard.authRequired()((request) =>
    Response.json(guard.getUser(request))
  );
  app.get("/me", (c) => me(c.req.raw));

  // Style 2: the same wrappers as middleware in front of Hono handlers.
  app.get(
    "/posts",
    allow(guard.requirePermission("post", "read")),
    (c) => c.json(posts),
  );
  app.post(
    "/posts",
    allow(guard.requirePermission("post", "write")),
    async (c) => {
      const { title } = await c.req.json<{ title?: unknown }>().catch(() => {
        throw new HttpError(400, "Invalid JSON body");
      });
      if (typeof title !== "string" || title === "") {
        throw new HttpError(400, "title must be a non-empty string");
      }
      const post = {
        id: posts.length + 1,
        title,
        author: c.get("user").role ?? "",
      };
      posts.push(post);
      return c.json(post, 201);
    },
  );

  // A per-route denial answer: readers who may not read get a 404, so the
  // route does not reveal that the post exists.
  app.get(
    "/posts/:id",
    allow(
      guard.requirePermission("post", "read").withErrorFactory(() =>
        new HttpError(404, "Not Found")
      ),
    ),
    (c) => {
      const post = posts.find((p) => String(p.id) === c.req.param("id"));
      return post === undefined
        ? new HttpError(404, "Not Found").toResponse()
        : c.json(post);
    },
  );

  app.onError((error) =>
    error instanceof HttpError
      ? error.toResponse()
      : new HttpError(500, "Internal Server Error").toResponse()
  );
  app.notFound(() => new HttpError(404, "Not Found").toResponse());
  return app;
}

if (import.meta.main) {
  const provider = await CachedFileEnforcerProvider.open({
    modelPath: fileURLToPath(new URL("./model.conf", import.meta.url)),
    policyPath: fileURLToPath(new URL("./policy.csv", import.meta.url)),
  });
  const app = createHonoApp(provider);
  const port = Number(process.env.PORT || 8001);
  const bun = (globalThis as {
    Bun?: {
      serve(options: { port: number; fetch: typeof app.fetch }): unknown;
    };
  }).Bun;
  if (bun !== undefined) bun.serve({ port, fetch: app.fetch });
  else Deno.serve({ port }, app.fetch);
  const stop = async (): Promise<void> => {
    await provider.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
