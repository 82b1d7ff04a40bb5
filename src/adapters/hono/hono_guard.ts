import type { MiddlewareHandler } from "hono";
import type { GuardWrapper, PermissionGuard } from "../../guard/mod.ts";

/**
 * Options for {@linkcode honoGuard}.
 *
 * @typeParam K The name of the context variable that holds the user.
 *
 * @example
 * ```ts
 * import type { HonoGuardOptions } from "@portcullis/portcullis/hono";
 *
 * const options: HonoGuardOptions<"account"> = { variable: "account" };
 * ```
 */
export interface HonoGuardOptions<K extends string = "user"> {
  /**
   * The context variable the resolved user is stored in, read in handlers
   * with `c.get(variable)`.
   * @default {"user"}
   */
  variable?: K;
}

/**
 * Turns guard wrappers into Hono middleware. The middleware runs the
 * wrapper on `c.req.raw`: a refused request is answered by the guard (401,
 * 403, or the route's error factory) and the handlers after it do not run;
 * an allowed one stores the user with `c.set("user", user)` and goes on with
 * `next()`. Stacked middleware resolve the user once per request.
 *
 * @typeParam U The user type of the guard.
 * @typeParam K The name of the context variable that holds the user.
 * @param guard The guard whose wrappers are turned into middleware; its
 * `getUser()` gives the user to store.
 * @param options The context variable to store the user in.
 * @returns A function from a guard wrapper to Hono middleware.
 *
 * @example Usage
 * ```ts
 * import { Hono } from "hono";
 * import { bearerUserProvider, PermissionGuard } from "@portcullis/portcullis/guard";
 * import { honoGuard } from "@portcullis/portcullis/hono";
 * import assert from "node:assert/strict";
 *
 * const guard = new PermissionGuard({
 *   userProvider: bearerUserProvider,
 *   enforcerProvider: () => ({
 *     enforce: (user: { role?: string }, _object: unknown, action: unknown) =>
 *       user.role === "editor" || action === "read",
 *   }),
 * });
 * const allow = honoGuard(guard);
 * const app = new Hono()
 *   .get("/posts", allow(guard.requirePermission("post", "read")), (c) => c.json([]))
 *   .post("/posts", allow(guard.requirePermission("post", "write")), (c) =>
 *     c.json({ author: c.get("user").role }, 201));
 *
 * const created = await app.request("/posts", {
 *   method: "POST",
 *   headers: { authorization: "Bearer editor" },
 * });
 * assert.deepEqual(await created.json(), { author: "editor" });
 * const denied = await app.request("/posts", {
 *   method: "POST",
 *   headers: { authorization: "Bearer viewer" },
 * });
 * assert.equal(denied.status, 403);
 * ```
 */
export function honoGuard<U, K extends string = "user">(
  guard: Pick<PermissionGuard<U>, "getUser">,
  options: HonoGuardOptions<K> = {},
): (wrapper: GuardWrapper) => MiddlewareHandler<{ Variables: Record<K, U> }> {
  if (typeof guard?.getUser !== "function") {
    throw new TypeError("Cannot create Hono guard: guard must have getUser()");
  }
  const variable = options.variable ?? "user";
  return (wrapper) => {
    if (typeof wrapper !== "function") {
      throw new TypeError(
        "Cannot create Hono middleware: wrapper must be a guard wrapper",
      );
    }
    return async (c, next) => {
      let allowed = false;
      const guarded = wrapper(async (request) => {
        allowed = true;
        (c.set as (key: string, value: unknown) => void)(
          variable,
          guard.getUser(request),
        );
        await next();
        return c.res;
      });
      const response = await guarded(c.req.raw);
      // Allowed: the handlers after this one answered through next().
      if (!allowed) return response;
    };
  };
}
