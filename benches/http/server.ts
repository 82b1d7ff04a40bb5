// The load-test target under Deno (Deno.serve) and Bun (Bun.serve): one
// route, GET /posts, answered by the same handler bare or guarded.
//
//   MODE=bare|guarded|logged|unchecked|casbin|header|lookup|promise|equality|restful \
//     PORT=8080 deno run -A benches/http/server.ts
//   MODE=guarded PORT=8080 bun run benches/http/server.ts
//
// guarded: PermissionGuard + bearer users + CachedFileEnforcerProvider with
// its defaults (the indexed decision path); casbin: the same with
// `prepare: (enforcer) => enforcer`, so that casbin's enforce() decides;
// unchecked: guarded with `checkOnRequest: false` (no per-request fstat);
// logged: guarded with an onDecision hook that pushes each event to an
// array (cleared every 1,024 events, as a log shipper would);
// lookup: the hand-written check, header plus a role lookup.
// Two modes take the guarded handler's unavoidable parts apart, without a
// guard: header reads the Authorization header (which makes the server
// build the request's headers), promise answers with a resolved promise
// (a guarded handler always returns one). Two modes compare models at
// 10,000 rules, with the provider's defaults: equality guards the route with
// the example model (`r.obj == p.obj && r.sub.role == p.sub && r.act ==
// p.act`), restful with casbin's RESTful RBAC model (`g(r.sub.role, p.sub)
// && keyMatch2(r.obj, p.obj) && regexMatch(r.act, p.act)`), each rule a
// route of its own role.
import process from "node:process";
import { fileURLToPath } from "node:url";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  bearerUserProvider,
  CachedFileEnforcerProvider,
  PermissionGuard,
} from "../../src/guard/mod.ts";

type Handler = (request: Request) => Response | Promise<Response>;

const mode = process.env.MODE ?? "bare";
const port = Number(process.env.PORT ?? 8080);
const modelPath = process.env.MODEL_PATH ??
  fileURLToPath(new URL("../../examples/model.conf", import.meta.url));
const policyPath = process.env.POLICY_PATH ??
  fileURLToPath(new URL("../../examples/policy.csv", import.meta.url));

const posts = [
  { id: 1, title: "Welcome", body: "First post.", author: "admin" },
  { id: 2, title: "Policies", body: "Edit policy.csv live.", author: "admin" },
];
const listPosts: Handler = () => Response.json(posts);
const readHeader: Handler = (request) => {
  if (request.headers.get("authorization") === null) return notFound();
  return Response.json(posts);
};
// The hand-written check the guard is compared with: the header, then the
// role looked up in the set of roles that may read.
const readers = new Set(["admin", "editor", "viewer"]);
const lookupRole: Handler = (request) => {
  const header = request.headers.get("authorization");
  if (header === null || !header.startsWith("Bearer ")) return notFound();
  if (!readers.has(header.slice(7))) return notFound();
  return Response.json(posts);
};
const answerLater: Handler = () => Promise.resolve(Response.json(posts));
const notFound = (): Response =>
  Response.json({ detail: "Not Found" }, { status: 404 });

/**
 * Writes a 10,000-rule model and policy for the equality and restful
 * modes; returns their paths and the values the route asks about.
 */
function largePolicy(restful: boolean): {
  modelPath: string;
  policyPath: string;
  check: [string, string];
} {
  const dir = mkdtempSync(join(tmpdir(), "portcullis-http-"));
  const matcher = restful
    ? "g(r.sub.role, p.sub) && keyMatch2(r.obj, p.obj) && regexMatch(r.act, p.act)"
    : "r.obj == p.obj && r.sub.role == p.sub && r.act == p.act";
  const rules: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    rules.push(
      restful
        ? `p, role${i}, /api/svc${i}/items/:id, (GET)|(POST)`
        : `p, role${i}, /api/svc${i}/items, GET`,
    );
  }
  rules.push(
    restful ? "g, viewer, role9999" : "p, viewer, /api/svc9999/items, GET",
  );
  const files = {
    modelPath: join(dir, "model.conf"),
    policyPath: join(dir, "policy.csv"),
  };
  writeFileSync(
    files.modelPath,
    `[request_definition]\nr = sub, obj, act\n\n[policy_definition]\np = sub, obj, act\n\n${
      restful ? "[role_definition]\ng = _, _\n\n" : ""
    }[policy_effect]\ne = some(where (p.eft == allow))\n\n[matchers]\nm = ${matcher}\n`,
  );
  writeFileSync(files.policyPath, rules.join("\n") + "\n");
  return {
    ...files,
    check: restful
      ? ["/api/svc9999/items/7", "GET"]
      : ["/api/svc9999/items", "GET"],
  };
}

let route: Handler = listPosts;
let provider: { close(): Promise<void> } | undefined;
const events: unknown[] = [];
if (
  ["guarded", "logged", "casbin", "unchecked", "equality", "restful"]
    .includes(mode)
) {
  const large = mode === "equality" || mode === "restful"
    ? largePolicy(mode === "restful")
    : undefined;
  const opened = await CachedFileEnforcerProvider.open({
    modelPath: large?.modelPath ?? modelPath,
    policyPath: large?.policyPath ?? policyPath,
    ...(mode === "casbin" ? { prepare: (enforcer) => enforcer } : {}),
    ...(mode === "unchecked" ? { checkOnRequest: false } : {}),
  });
  provider = opened;
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: opened,
    ...(mode === "logged"
      ? {
        onDecision: (event: unknown) => {
          if (events.push(event) >= 1024) events.length = 0;
        },
      }
      : {}),
  });
  route = guard.requirePermission(...(large?.check ?? ["post", "read"]))(
    listPosts,
  );
} else if (mode === "header") {
  route = readHeader;
} else if (mode === "lookup") {
  route = lookupRole;
} else if (mode === "promise") {
  route = answerLater;
} else if (mode !== "bare") {
  throw new RangeError(
    `Cannot start: MODE must be bare, guarded, logged, unchecked, casbin, header, lookup, promise, equality or restful`,
  );
}

const handler: Handler = (request) => {
  const url = request.url;
  const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  if (path === "/posts" && request.method === "GET") return route(request);
  return notFound();
};

interface BunRuntime {
  serve(options: { port: number; fetch: Handler }): { port: number };
}
const bun = (globalThis as { Bun?: BunRuntime }).Bun;
if (bun) {
  const server = bun.serve({ port, fetch: handler });
  // deno-lint-ignore no-console
  console.log(`Listening on http://127.0.0.1:${server.port}/ (${mode})`);
} else {
  Deno.serve({
    port,
    hostname: "127.0.0.1",
    onListen: ({ port }) =>
      // deno-lint-ignore no-console
      console.log(`Listening on http://127.0.0.1:${port}/ (${mode})`),
  }, handler);
}
process.on("SIGTERM", async () => {
  await provider?.close();
  process.exit(0);
});
