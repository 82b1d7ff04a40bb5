// Per-request cost of the guard, in process: each iteration builds a fresh
// Request (the guard caches per Request object) and awaits the answer.
//
//   deno bench --allow-env=__MINIMATCH_TESTING_PLATFORM__ benches/permission_guard_bench.ts
import { AccessSubject } from "../src/guard/access_subject.ts";
import { bearerUserProvider } from "../src/guard/bearer_user_provider.ts";
import { indexEnforcer } from "../src/guard/indexed_enforcer.ts";
import { PermissionGuard } from "../src/guard/permission_guard.ts";
import { makeEnforcer } from "../tests/fixtures/guard/casbin.ts";

const casbin = await makeEnforcer();
// What CachedFileEnforcerProvider serves by default.
const indexed = await indexEnforcer(casbin);
const fixed = { enforce: (): boolean => true };
const withCasbin = new PermissionGuard({
  userProvider: bearerUserProvider,
  enforcerProvider: () => casbin,
});
const withIndexed = new PermissionGuard({
  userProvider: bearerUserProvider,
  enforcerProvider: () => indexed,
});
const withFixed = new PermissionGuard({
  userProvider: bearerUserProvider,
  enforcerProvider: () => fixed,
});

const handler = (): Response => new Response("ok");
const init = { headers: { authorization: "Bearer editor" } };
const url = "http://localhost/posts/42";

const signedIn = withFixed.authRequired()(handler);
const fixedPermission = withFixed.requirePermission("post", "read")(handler);
const casbinPermission = withCasbin.requirePermission("post", "read")(handler);
const indexedPermission = withIndexed.requirePermission("post", "read")(
  handler,
);
const pathParam = withFixed.requirePermission(
  AccessSubject.param("id", "/posts/:id"),
  "read",
)(handler);
const stacked = withCasbin.authRequired()(
  withCasbin.requirePermission("post", "read")(
    withCasbin.requirePermission("post", "write")(handler),
  ),
);
const denied = withCasbin.requirePermission("post", "delete")(handler);

Deno.bench("bare handler", { group: "guard", baseline: true }, async () => {
  await handler().text();
  new Request(url, init);
});
Deno.bench("authRequired (bearer)", { group: "guard" }, async () => {
  await (await signedIn(new Request(url, init))).text();
});
Deno.bench(
  "requirePermission, fixed enforcer",
  { group: "guard" },
  async () => {
    await (await fixedPermission(new Request(url, init))).text();
  },
);
Deno.bench("requirePermission, casbin", { group: "guard" }, async () => {
  await (await casbinPermission(new Request(url, init))).text();
});
Deno.bench(
  "requirePermission, indexed casbin",
  { group: "guard" },
  async () => {
    await (await indexedPermission(new Request(url, init))).text();
  },
);
Deno.bench(
  "requirePermission, AccessSubject.param",
  { group: "guard" },
  async () => {
    await (await pathParam(new Request(url, init))).text();
  },
);
Deno.bench("3 stacked wrappers, casbin", { group: "guard" }, async () => {
  await (await stacked(new Request(url, init))).text();
});
Deno.bench("denied, casbin (403 JSON)", { group: "guard" }, async () => {
  await (await denied(new Request(url, init))).text();
});
