// fastify + fastify-casbin (Node). MODE=bare skips the permission check.
import Fastify from "fastify";
import fastifyCasbin from "fastify-casbin";
import { fileURLToPath } from "node:url";

const mode = process.env.MODE ?? "bare";
const port = Number(process.env.PORT ?? 8080);
const posts = [
  { id: 1, title: "Welcome", body: "First post.", author: "admin" },
  { id: 2, title: "Policies", body: "Edit policy.csv live.", author: "admin" },
];
const app = Fastify({ logger: false });
if (mode === "guarded") {
  await app.register(fastifyCasbin, {
    model: fileURLToPath(new URL("./model.conf", import.meta.url)),
    adapter: fileURLToPath(new URL("./policy.csv", import.meta.url)),
  });
  app.addHook("preHandler", async (request, reply) => {
    const header = request.headers.authorization ?? "";
    const role = /^bearer /i.test(header) ? header.slice(7) : "";
    if (role === "") return reply.code(401).send({ detail: "Unauthorized" });
    if (
      !(await app.casbin.enforce(
        role,
        request.routeOptions.url,
        request.method,
      ))
    ) {
      return reply.code(403).send({ detail: "Forbidden" });
    }
  });
}
app.get("/posts", () => posts);
await app.listen({ port, host: "127.0.0.1" });
// deno-lint-ignore no-console
console.log(`Listening on http://127.0.0.1:${port}/ (fastify ${mode})`);
