/**
 * Guard wrappers as [Hono](https://hono.dev) middleware:
 * {@linkcode honoGuard} binds a guard, and turns each of its wrappers into
 * middleware that answers refused requests and stores the user for
 * `c.get("user")`. Hono is a peer dependency: install it yourself.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { bearerUserProvider, PermissionGuard } from "@portcullis/portcullis/guard";
 * import { honoGuard } from "@portcullis/portcullis/hono";
 * import assert from "node:assert/strict";
 *
 * const guard = new PermissionGuard({
 *   userProvider: bearerUserProvider,
 *   enforcerProvider: () => ({ enforce: () => true }),
 * });
 * const app = new Hono().get(
 *   "/me",
 *   honoGuard(guard)(guard.authRequired()),
 *   (c) => c.json(c.get("user")),
 * );
 * const me = await app.request("/me", { headers: { authorization: "Bearer viewer" } });
 * assert.deepEqual(await me.json(), { role: "viewer" });
 * assert.equal((await app.request("/me")).status, 401);
 * ```
 *
 * @module
 */
export { honoGuard, type HonoGuardOptions } from "./hono_guard.ts";
