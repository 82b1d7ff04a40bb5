import { bearerCredentials } from "./authorization_header.ts";
import { HttpError } from "./http_error.ts";
import type { User } from "./user.ts";

/**
 * The minimal user provider: the bearer credentials are the user's role.
 * It reads `Authorization: Bearer <credentials>` (the scheme is
 * case-insensitive, the credentials are everything after the first space,
 * as received) and returns `{ role: <credentials> }`. Without a header, with
 * another scheme or with empty credentials it throws
 * `HttpError(401, "Unauthorized")` with `WWW-Authenticate: Bearer`.
 *
 * It trusts the client completely, so it suits development, tests and
 * services behind a gateway that already authenticated the caller. Use a
 * token-verifying provider anywhere else.
 *
 * @param request The incoming request.
 * @returns The user, with the credentials as its role.
 * @throws {HttpError} 401 when there are no bearer credentials.
 *
 * @example As a guard's user provider
 * ```ts
 * import { bearerUserProvider, PermissionGuard } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * const guard = new PermissionGuard({
 *   userProvider: bearerUserProvider,
 *   enforcerProvider: () => ({ enforce: () => true }),
 * });
 * const me = guard.authRequired()((request) => Response.json(guard.getUser(request)));
 *
 * const ok = await me(new Request("http://localhost/me", {
 *   headers: { authorization: "Bearer editor" },
 * }));
 * assert.deepEqual(await ok.json(), { role: "editor" });
 *
 * const refused = await me(new Request("http://localhost/me"));
 * assert.equal(refused.status, 401);
 * assert.equal(refused.headers.get("www-authenticate"), "Bearer");
 * ```
 *
 * @example On its own
 * ```ts
 * import { bearerUserProvider, HttpError } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(
 *   bearerUserProvider(new Request("http://localhost/", {
 *     headers: { authorization: "Bearer viewer" },
 *   })),
 *   { role: "viewer" },
 * );
 * assert.throws(
 *   () => bearerUserProvider(new Request("http://localhost/")),
 *   HttpError,
 * );
 * ```
 */
export function bearerUserProvider(request: Request): User {
  const credentials = bearerCredentials(request);
  if (credentials === undefined) {
    throw new HttpError(401, "Unauthorized", {
      headers: { "WWW-Authenticate": "Bearer" },
    });
  }
  return { role: credentials };
}
