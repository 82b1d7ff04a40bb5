// Hono with a casbin middleware written the way Hono's middleware guide
// shows, on Bun (Bun.serve) or Node (@hono/node-server). MODE=bare skips it.
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { newEnforcer } from "casbin";
import { fileURLToPath } from "node:url";

const mode = process.env.MODE ?? "bare";
const port = Number(process.env.PORT ?? 8080);
const posts = [
  { id: 1, title: "Welcome", body: "First post.", author: "admin" },
  { id: 2, title: "Policies", body: "Edit policy.csv live.", author: "admin" },
];
const app = new Hono();
if (mode === "guarded") {
  const enforcer = await newEnforcer(
    fileURLToPath(new URL("./model.conf", import.meta.url)),
    fileURLToPath(new URL("./policy.csv", import.meta.url)),
  );
  app.use(createMiddleware(async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const role = /^bearer /i.test(header) ? header.slice(7) : "";
    if (role === "") return c.json({ detail: "Unauthorized" }, 401);
    if (!(await enforcer.enforce(role, c.req.path, c.req.method))) {
      return c.json({ detail: "Forbidden" }, 403);
    }
    await next();
  }));
}
app.get("/posts", (c) => c.json(posts));
if (typeof Bun !== "undefined") {
  Bun.serve({ port, hostname: "127.0.0.1", fetch: app.fetch });
} else {
  const { serve } = await import("@hono/node-server");
  serve({ fetch: app.fetch, port, hostname: "127.0.0.1" });
}
// deno-lint-ignore no-console
console.log(`Listening on http://127.0.0.1:${port}/ (hono ${mode})`);
