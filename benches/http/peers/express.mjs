// express + casbin-express-authz (Node). MODE=bare skips the middleware.
import express from "express";
import { authz } from "casbin-express-authz";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

// casbin-express-authz checks `instanceof Enforcer` against casbin's
// CommonJS build, so the enforcer must come from that build too (the ESM
// build's Enforcer is another class: every request would answer 500).
const { newEnforcer } = createRequire(import.meta.url)("casbin");

const mode = process.env.MODE ?? "bare";
const port = Number(process.env.PORT ?? 8080);
const posts = [
  { id: 1, title: "Welcome", body: "First post.", author: "admin" },
  { id: 2, title: "Policies", body: "Edit policy.csv live.", author: "admin" },
];
const app = express();
if (mode === "guarded") {
  const enforcer = newEnforcer(
    fileURLToPath(new URL("./model.conf", import.meta.url)),
    fileURLToPath(new URL("./policy.csv", import.meta.url)),
  );
  // The middleware reads the subject from res.locals.username.
  app.use((req, res, next) => {
    const header = req.headers.authorization ?? "";
    res.locals.username = /^bearer /i.test(header) ? header.slice(7) : "";
    next();
  });
  app.use(authz({ newEnforcer: enforcer }));
}
app.get("/posts", (_req, res) => res.json(posts));
app.listen(port, "127.0.0.1", () => {
  // deno-lint-ignore no-console
  console.log(`Listening on http://127.0.0.1:${port}/ (express ${mode})`);
});
