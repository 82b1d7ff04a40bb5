/**
 * Runs web-standard `(Request) => Response` handlers, such as guarded ones,
 * on `node:http` (Node, and Bun and Deno through their `node:http`):
 * {@linkcode serve} starts a server, and {@linkcode toRequest} with
 * {@linkcode writeResponse} convert one request and its answer inside a
 * server of your own. Bodies stream both ways with backpressure.
 *
 * @example
 * ```ts
 * import { bearerUserProvider, PermissionGuard } from "@portcullis/portcullis/guard";
 * import { serve } from "@portcullis/portcullis/node";
 * import assert from "node:assert/strict";
 *
 * const guard = new PermissionGuard({
 *   userProvider: bearerUserProvider,
 *   enforcerProvider: () => ({ enforce: (user: { role?: string }) => user.role === "admin" }),
 * });
 * const admin = guard.requirePermission("admin", "read")(() => new Response("welcome"));
 *
 * await using server = await serve(admin, { hostname: "127.0.0.1", port: 0 });
 * const url = `http://127.0.0.1:${server.addr.port}/`;
 * const allowed = await fetch(url, { headers: { authorization: "Bearer admin" } });
 * assert.equal(await allowed.text(), "welcome");
 * const denied = await fetch(url, { headers: { authorization: "Bearer viewer" } });
 * assert.equal(denied.status, 403);
 * await denied.body?.cancel();
 * ```
 *
 * @module
 */
export { toRequest, type ToRequestOptions } from "./to_request.ts";
export { writeResponse } from "./write_response.ts";
export {
  type FetchHandler,
  type NodeServer,
  serve,
  type ServeOptions,
} from "./serve.ts";
