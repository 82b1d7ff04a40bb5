/**
 * Guard wrappers as Express 5 (or Connect) middleware:
 * {@linkcode expressGuard} binds a guard and turns each of its wrappers into
 * `(req, res, next)` middleware that answers refused requests and stores the
 * user in `res.locals.user`. Express is not a dependency: the middleware
 * needs only `node:http`.
 *
 * @example
 * ```ts
 * import { bearerUserProvider, PermissionGuard } from "@portcullis/portcullis/guard";
 * import { expressGuard } from "@portcullis/portcullis/express";
 * import { createServer } from "node:http";
 * import assert from "node:assert/strict";
 *
 * const guard = new PermissionGuard({
 *   userProvider: bearerUserProvider,
 *   enforcerProvider: () => ({ enforce: () => true }),
 * });
 * const signedIn = expressGuard(guard)(guard.authRequired());
 * const server = createServer((req, res) =>
 *   signedIn(req, res, () => res.end("hello"))
 * ).listen(0, "127.0.0.1");
 * await new Promise((resolve) => server.once("listening", resolve));
 * const { port } = server.address() as { port: number };
 * try {
 *   const response = await fetch(`http://127.0.0.1:${port}/`);
 *   assert.equal(response.status, 401);
 *   await response.body?.cancel();
 * } finally {
 *   server.close();
 * }
 * ```
 *
 * @module
 */
export {
  expressGuard,
  type ExpressGuardOptions,
  type ExpressMiddleware,
  type ExpressRequestLike,
  type ExpressResponseLike,
} from "./express_guard.ts";
